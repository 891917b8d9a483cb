/**
 * Signatures as a site owner checks them: delivered to a real receiver that verifies with the
 * `standardwebhooks` package's Webhook class, and, for many bodies, against that class directly.
 */
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { deliverWebhook, newWebhookSecret, signWebhook, WEBHOOK_USER_AGENT, webhookHeaders } from '../../src/service/webhooks';
import { type Receiver, startReceiver } from './receiver';

let receiver: Receiver;
const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({ type: 'member.created', data: { id: 'mem_1', email: 'ada@example.com', name: 'Ada Lovelace — «ü»' } });

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.secret = undefined;
});

function deliver(headers: Record<string, string>, sent = body) {
  return deliverWebhook({ url: `${receiver.url}/hooks/svc`, allowPrivate: true, headers, body: sent });
}

test('a signed delivery verifies at the receiver, with every header the specification names', async () => {
  const secret = newWebhookSecret();
  receiver.secret = secret;
  const result = await deliver(webhookHeaders({ id: 'msg_2Zt4kG8a', timestamp: now(), body, secrets: [secret] }));
  expect(result).toMatchObject({ ok: true, status: 204 });
  const [received] = receiver.received;
  expect(received).toMatchObject({ method: 'POST', path: '/hooks/svc', body, verified: true });
  expect(received!.headers).toMatchObject({
    'webhook-id': 'msg_2Zt4kG8a',
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'content-length': String(Buffer.byteLength(body)),
  });
  expect(received!.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
  expect(received!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
});

test('a body changed by one byte fails verification', async () => {
  const secret = newWebhookSecret();
  receiver.secret = secret;
  const headers = webhookHeaders({ id: 'msg_1', timestamp: now(), body, secrets: [secret] });
  const result = await deliver(headers, body.replace('mem_1', 'mem_2'));
  expect(result).toMatchObject({ ok: false, status: 400, answer: 'No matching signature found' });
  expect(receiver.received[0]!.verified).toBe(false);
});

test('a timestamp outside the receiver tolerance (5 minutes) fails verification, either way', async () => {
  const secret = newWebhookSecret();
  receiver.secret = secret;
  const old = await deliver(webhookHeaders({ id: 'msg_1', timestamp: now() - 6 * 60, body, secrets: [secret] }));
  const ahead = await deliver(webhookHeaders({ id: 'msg_1', timestamp: now() + 6 * 60, body, secrets: [secret] }));
  expect(old).toMatchObject({ ok: false, status: 400, answer: 'Message timestamp too old' });
  expect(ahead).toMatchObject({ ok: false, status: 400, answer: 'Message timestamp too new' });
  // Inside the tolerance it passes: it is the age that fails, not the signature.
  const recent = await deliver(webhookHeaders({ id: 'msg_1', timestamp: now() - 4 * 60, body, secrets: [secret] }));
  expect(recent).toMatchObject({ ok: true, status: 204 });
});

test('signed with two secrets during a rotation, a delivery verifies with either one alone', async () => {
  const [old, next] = [newWebhookSecret(), newWebhookSecret()];
  const headers = webhookHeaders({ id: 'msg_rot', timestamp: now(), body, secrets: [old, next] });
  expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
  for (const known of [old, next]) {
    receiver.secret = known;
    expect(await deliver(headers)).toMatchObject({ ok: true, status: 204 });
  }
  receiver.secret = newWebhookSecret();
  expect(await deliver(headers)).toMatchObject({ ok: false, status: 400 });
  expect(receiver.received.map((r) => r.verified)).toEqual([true, true, false]);
});

test('the signature is the one the reference library computes, for any id, time and body', () => {
  const secret = newWebhookSecret();
  const webhook = new Webhook(secret);
  fc.assert(
    fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), fc.integer({ min: 0, max: 2 ** 32 }), fc.string({ unit: 'grapheme' }), (id, timestamp, text) => {
      expect(signWebhook({ id, timestamp, body: text, secrets: [secret] })).toBe(webhook.sign(id, new Date(timestamp * 1000), text));
    }),
  );
});

test('for any body, the reference library verifies it and refuses it with one character changed', () => {
  const secret = newWebhookSecret();
  const webhook = new Webhook(secret);
  fc.assert(
    fc.property(fc.string({ unit: 'binary', minLength: 1 }), fc.nat(), (text, at) => {
      const headers = webhookHeaders({ id: 'msg_p', timestamp: now(), body: text, secrets: [secret] });
      expect(() => webhook.verify(text, headers, { jsonParse: false })).not.toThrow();
      const i = at % text.length;
      const changed = text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1);
      expect(() => webhook.verify(changed, headers, { jsonParse: false })).toThrow('No matching signature found');
    }),
    // The reference library's SHA-256 is plain JavaScript: 50 bodies say as much as 100, in half the time.
    { numRuns: 50 },
  );
});

test.each([
  ['an empty id', { id: '' }, /webhook id/],
  ['an id with a dot, which would blur the signed text', { id: 'msg.1' }, /webhook id/],
  ['an id with a line break', { id: 'msg\r\n1' }, /webhook id/],
  ['a timestamp in milliseconds with a fraction', { timestamp: 1.5 }, /whole unix seconds/],
  ['no secret', { secrets: [] }, /at least one secret/],
  ['a secret not in the whsec_ form', { secrets: ['hunter2'] }, /whsec_/],
])('signing refuses %s', (_, change, reason) => {
  expect(() => signWebhook({ id: 'msg_1', timestamp: 1_700_000_000, body, secrets: [newWebhookSecret()], ...change })).toThrow(reason);
});
