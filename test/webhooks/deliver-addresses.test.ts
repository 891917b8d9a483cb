/**
 * Deliveries the address policy stops, and where it stops them: the URL, the name's addresses
 * before connecting, and the addresses the socket connects to (DNS rebinding). A test lookup
 * makes a name resolve to a chosen address, so no real name is looked up; no test here connects
 * anywhere but 127.0.0.1, and only the loopback receiver could tell if one tried.
 */
import { execFileSync } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { type DeliveryRequest, deliverWebhook, guardedLookup, newWebhookSecret, RefusedAddressError, webhookHeaders } from '../../src/service/webhooks';
import { type Receiver, startReceiver } from './receiver';

let receiver: Receiver;
const body = '{"type":"member.deleted","data":{"id":"mem_9"}}';
const secret = newWebhookSecret();
const headers = () => webhookHeaders({ id: 'msg_9', timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] });
/** A public address; never connected to, since every lookup that gives it gives loopback after. */
const PUBLIC_IP = '93.184.215.14';

/** A lookup that answers each call with the next list of addresses (the last one again after). */
function scriptedLookup(...answers: string[][]) {
  const calls: string[] = [];
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length, answers.length) - 1]!;
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, calls };
}

const deliver = (request: Partial<DeliveryRequest>) => deliverWebhook({ url: `https://hooks.example.com:${receiver.port}/hook`, headers: headers(), body, ...request });

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.connections = 0;
  receiver.secret = secret;
});

test('http is refused without allowPrivate, before any lookup or connection', async () => {
  const { lookup, calls } = scriptedLookup([PUBLIC_IP]);
  const literal = await deliver({ url: `http://127.0.0.1:${receiver.port}/hook`, lookup });
  const named = await deliver({ url: 'http://hooks.example.com/hook', lookup });
  for (const result of [literal, named]) expect(result).toMatchObject({ ok: false, error: 'badUrl', detail: 'the URL must start with https://' });
  expect(calls).toEqual([]);
  expect(receiver.connections).toBe(0);
});

test('a URL with credentials is refused, even with allowPrivate', async () => {
  const result = await deliver({ url: `http://owner:pw@127.0.0.1:${receiver.port}/hook`, allowPrivate: true });
  expect(result).toMatchObject({ ok: false, error: 'badUrl' });
  expect(receiver.connections).toBe(0);
});

test.each([
  ['loopback', '127.0.0.1'],
  ['IPv6 loopback', '[::1]'],
  ['IPv4-mapped loopback', '[::ffff:127.0.0.1]'],
  ['IPv4-compatible loopback', '[::127.0.0.1]'],
  ['private', '10.1.2.3'],
  ['CGNAT', '100.64.0.1'],
  ['link-local', '169.254.10.10'],
  ['metadata', '169.254.169.254'],
  ['IPv6 metadata', '[fd00:ec2::254]'],
  ['IPv4-mapped metadata', '[::ffff:169.254.169.254]'],
  ['unique-local IPv6', '[fd12::1]'],
])('an IP literal that is %s is refused without allowPrivate', async (_, host) => {
  const { lookup, calls } = scriptedLookup([PUBLIC_IP]);
  const result = await deliver({ url: `https://${host}:${receiver.port}/hook`, lookup });
  expect(result).toMatchObject({ ok: false, error: 'refusedAddress', answer: '', cut: false });
  expect(result.detail).toMatch(/not a public address/);
  expect(calls).toEqual([]);
  expect(receiver.connections).toBe(0);
});

test.each([
  ['loopback', '127.0.0.1'],
  ['IPv6 loopback', '::1'],
  ['private', '192.168.1.20'],
  ['CGNAT', '100.100.1.1'],
  ['link-local', '169.254.1.1'],
  ['metadata', '169.254.169.254'],
  ['Alibaba metadata', '100.100.100.200'],
  ['IPv6 metadata', 'fd00:ec2::254'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped private', '::ffff:10.0.0.1'],
  ['unspecified', '0.0.0.0'],
])('a name that resolves to %s is refused before connecting', async (_, address) => {
  const { lookup, calls } = scriptedLookup([address]);
  const result = await deliver({ lookup });
  expect(result).toMatchObject({ ok: false, error: 'refusedAddress' });
  expect(result.detail).toBe(`hooks.example.com resolves to ${address}, which is not a public address (before connecting)`);
  expect(calls).toEqual(['hooks.example.com']);
  expect(receiver.connections).toBe(0);
});

test('a name that resolves to a public and a private address is refused, in either order', async () => {
  for (const addresses of [[PUBLIC_IP, '127.0.0.1'], ['127.0.0.1', PUBLIC_IP], [PUBLIC_IP, '2606:4700::1', 'fd00::1']]) {
    const { lookup, calls } = scriptedLookup(addresses);
    expect(await deliver({ lookup }), addresses.join()).toMatchObject({ ok: false, error: 'refusedAddress' });
    expect(calls).toHaveLength(1);
  }
  expect(receiver.connections).toBe(0);
});

test('DNS rebinding: public when checked, loopback when connecting, is refused by the check at connect time', async () => {
  const { lookup, calls } = scriptedLookup([PUBLIC_IP], ['127.0.0.1']);
  const result = await deliver({ lookup });
  expect(result).toMatchObject({ ok: false, error: 'refusedAddress' });
  expect(result.detail).toBe('hooks.example.com resolves to 127.0.0.1, which is not a public address (at connect time)');
  // The first answer passed the check before connecting; only the second lookup, the socket's
  // own, stood between the delivery and the loopback receiver.
  expect(calls).toEqual(['hooks.example.com', 'hooks.example.com']);
  expect(receiver.connections).toBe(0);
});

test('with allowPrivate a name resolving to loopback is delivered over http, through the guarded lookup', async () => {
  const { lookup, calls } = scriptedLookup(['127.0.0.1']);
  const result = await deliver({ url: `http://receiver.test:${receiver.port}/hook`, allowPrivate: true, lookup });
  expect(result).toMatchObject({ ok: true, status: 204 });
  expect(receiver.received[0]).toMatchObject({ verified: true, headers: { host: `receiver.test:${receiver.port}` } });
  expect(calls).toEqual(['receiver.test', 'receiver.test']);
});

test('with allowPrivate the metadata services stay refused, by name or by address', async () => {
  const { lookup } = scriptedLookup(['169.254.169.254']);
  expect(await deliver({ url: 'http://metadata.google.internal/computeMetadata/v1/', allowPrivate: true, lookup })).toMatchObject({ error: 'refusedAddress' });
  expect(await deliver({ url: 'http://169.254.169.254/latest/meta-data/', allowPrivate: true, lookup })).toMatchObject({ error: 'refusedAddress' });
  const rebinding = scriptedLookup(['127.0.0.1'], ['fd00:ec2::254']);
  const result = await deliver({ url: 'http://receiver.test/', allowPrivate: true, lookup: rebinding.lookup });
  expect(result).toMatchObject({ error: 'refusedAddress', detail: expect.stringContaining('at connect time') });
});

test('the guarded lookup answers as node asks: all addresses, or the first of a family', async () => {
  const { lookup } = scriptedLookup(['2606:4700::1111', PUBLIC_IP]);
  const ask = (options: object) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      guardedLookup({ allowPrivate: false, resolve: lookup })('hooks.example.com', options, (error, address, family) => resolve({ error, address, family })),
    );
  expect(await ask({ all: true })).toMatchObject({ error: null, address: [{ address: '2606:4700::1111', family: 6 }, { address: PUBLIC_IP, family: 4 }] });
  expect(await ask({})).toMatchObject({ error: null, address: '2606:4700::1111', family: 6 });
  expect(await ask({ family: 4 })).toMatchObject({ error: null, address: PUBLIC_IP, family: 4 });
  expect(await ask({ family: 'IPv6', all: true })).toMatchObject({ error: null, address: [{ address: '2606:4700::1111' }] });
  const only4 = scriptedLookup([PUBLIC_IP]);
  const none = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
    guardedLookup({ allowPrivate: false, resolve: only4.lookup })('hooks.example.com', { family: 6 }, (error) => resolve(error)),
  );
  expect(none).toMatchObject({ code: 'ENOTFOUND' });
  const refused = scriptedLookup(['10.0.0.1']);
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
    guardedLookup({ allowPrivate: false, resolve: refused.lookup })('hooks.example.com', { all: true }, (e) => resolve(e)),
  );
  expect(error).toBeInstanceOf(RefusedAddressError);
  expect(error).toMatchObject({ hostname: 'hooks.example.com', address: '10.0.0.1' });
});

/** A self-signed certificate for receiver.test, made here: no key is kept in the repository. */
function selfSignedCertificate(): { key: string; cert: string } | undefined {
  try {
    const pem = execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=receiver.test', '-days', '1', '-keyout', '-', '-out', '-'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return { key: pem.match(/-----BEGIN PRIVATE KEY-----[^]*?-----END PRIVATE KEY-----/)![0], cert: pem.match(/-----BEGIN CERTIFICATE-----[^]*?-----END CERTIFICATE-----/)![0] };
  } catch {
    return undefined;
  }
}

const certificate = selfSignedCertificate();

test.skipIf(!certificate)('https goes through the guarded lookup, names the host for TLS, and verifies the certificate', async () => {
  const servernames: string[] = [];
  let requests = 0;
  const SNICallback = (servername: string, done: (error: Error | null) => void) => {
    servernames.push(servername);
    done(null);
  };
  const server: TlsServer = createTlsServer({ ...certificate!, SNICallback }, (_, response) => {
    requests++;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const { lookup, calls } = scriptedLookup(['127.0.0.1']);
    const result = await deliver({ url: `https://receiver.test:${port}/hook`, allowPrivate: true, lookup });
    // The certificate is nobody's: the attempt fails as any TLS failure does, and sends nothing.
    expect(result).toMatchObject({ ok: false, error: 'connection', detail: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(calls).toEqual(['receiver.test', 'receiver.test']);
    expect(servernames).toEqual(['receiver.test']);
    expect(requests).toBe(0);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
