/**
 * Audit item 4 of issue 12: sign-up answered 409 `emailTaken` fast and without limit, so anyone
 * could list which e-mails are members. Sign-up attempts are now limited per e-mail and per
 * client address; X-Forwarded-For is believed only as far as SVC_TRUST_PROXY says.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES } from '../../mock-server/fixtures';
import { loadFixtures } from '../../mock-server/load-fixtures';
import { createServiceApp } from '../../src/service/app';
import { createPasswordHasher, TEST_SCRYPT } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { clientAddress, parseTrustProxy } from '../../src/service/http/client-address';
import { SIGNUPS_PER_EMAIL } from '../../src/service/member/signup-limits';
import { createMemoryStore } from '../../src/service/store/memory';
import { startService, SUBDOMAIN, type RunningService } from '../browser/support/service';

const MINUTE = 60_000;
const TAKEN = 'ada@demo.localhost';

async function world(options: { perAddress?: { limit: number; windowMs: number } | 'off'; trustedProxies?: number } = {}) {
  let now = Date.parse('2026-06-01T12:00:00Z');
  const store = createMemoryStore();
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  await loadFixtures(store, passwords, FIXTURES, now);
  const app = await createServiceApp({
    store,
    passwords,
    clock: () => now,
    signupRateLimit: options.perAddress ?? { limit: 3, windowMs: 15 * MINUTE },
    trustedProxies: options.trustedProxies ?? 0,
  });
  /** A sign-up as the server hands it over: the socket's address beside the Request. */
  const signUp = (email: string, remoteAddress: string | undefined, headers: Record<string, string> = {}) =>
    app.fetch(
      new Request('http://svc.test/member/v1/sites/demo/members', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email, password: 'a long enough password', customFields: { 3: 'developer', 5: true } }),
      }),
      remoteAddress === undefined ? undefined : { remoteAddress },
    );
  return { signUp, advance: (ms: number) => (now += ms) };
}

const fresh = (() => {
  let n = 0;
  return () => `newcomer${++n}@demo.localhost`;
})();

test('sign-ups per client address: past the limit 429 rateLimited with Retry-After, taken e-mails counted alike; another address goes on', async () => {
  const { signUp, advance } = await world();
  expect((await signUp(fresh(), '203.0.113.7')).status).toBe(201);
  expect((await signUp(TAKEN, '203.0.113.7')).status).toBe(409);
  expect((await signUp(fresh(), '203.0.113.7')).status).toBe(201);
  const refused = await signUp(TAKEN, '203.0.113.7');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect((await refused.json()).errors[0]).toMatchObject({ code: 'rateLimited', path: 'base' });
  // A new member is refused as well: the answer no longer depends on who is a member.
  expect((await signUp(fresh(), '203.0.113.7')).status).toBe(429);
  expect((await signUp(fresh(), '198.51.100.2')).status).toBe(201);
  advance(15 * MINUTE);
  expect((await signUp(fresh(), '203.0.113.7')).status).toBe(201);
});

test(`sign-up attempts per e-mail: ${SIGNUPS_PER_EMAIL.limit} in ${SIGNUPS_PER_EMAIL.windowMs / MINUTE} minutes, from any number of addresses`, async () => {
  const { signUp, advance } = await world({ perAddress: 'off' });
  for (let i = 0; i < SIGNUPS_PER_EMAIL.limit; i++) expect((await signUp(TAKEN, `192.0.2.${i + 1}`)).status).toBe(409);
  const refused = await signUp(TAKEN, '192.0.2.99');
  expect(refused.status).toBe(429);
  expect((await refused.json()).errors[0]).toMatchObject({ code: 'rateLimited', path: 'email' });
  // With no address at all (inside MSW), the limit per e-mail still holds.
  expect((await signUp(TAKEN, undefined)).status).toBe(429);
  advance(SIGNUPS_PER_EMAIL.windowMs);
  expect((await signUp(TAKEN, '192.0.2.100')).status).toBe(409);
});

test('with no trusted proxy, a forged X-Forwarded-For changes nothing: the socket address is counted', async () => {
  const { signUp } = await world();
  for (let i = 0; i < 3; i++) expect((await signUp(fresh(), '127.0.0.1', { 'x-forwarded-for': `10.9.9.${i}` })).status).toBe(201);
  expect((await signUp(fresh(), '127.0.0.1', { 'x-forwarded-for': '10.9.9.200' })).status).toBe(429);
});

test('behind one trusted proxy, the right-most X-Forwarded-For entry is the client; entries the client wrote are ignored', async () => {
  const { signUp } = await world({ trustedProxies: 1 });
  const proxy = '10.0.0.5';
  for (let i = 0; i < 3; i++) expect((await signUp(fresh(), proxy, { 'x-forwarded-for': `1.1.1.${i}, 203.0.113.7` })).status).toBe(201);
  expect((await signUp(fresh(), proxy, { 'x-forwarded-for': '8.8.8.8, 203.0.113.7' })).status).toBe(429);
  // Another client behind the same proxy has its own allowance.
  expect((await signUp(fresh(), proxy, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(201);
});

test('clientAddress and SVC_TRUST_PROXY parsing', () => {
  const request = (xff?: string) => new Request('http://svc.test/', xff === undefined ? {} : { headers: { 'x-forwarded-for': xff } });
  const socket = { remoteAddress: '10.0.0.5' };
  expect(clientAddress(request('1.2.3.4'), socket, 0)).toBe('10.0.0.5');
  expect(clientAddress(request(), socket, 1)).toBe('10.0.0.5');
  expect(clientAddress(request('9.9.9.9, 1.2.3.4'), socket, 1)).toBe('1.2.3.4');
  expect(clientAddress(request('9.9.9.9, 1.2.3.4, 10.0.0.4'), socket, 2)).toBe('1.2.3.4');
  expect(clientAddress(request('1.2.3.4'), socket, 3)).toBe('1.2.3.4');
  expect(clientAddress(request(' , '), socket, 1)).toBe('10.0.0.5');
  expect(clientAddress(request(), undefined, 0)).toBeUndefined();
  expect([undefined, '', 'false', 'off', '0'].map(parseTrustProxy)).toEqual([0, 0, 0, 0, 0]);
  expect(['true', 'on', '1', '2'].map(parseTrustProxy)).toEqual([1, 1, 1, 2]);
  expect(['yes', '-1', '10', '1.5'].map(parseTrustProxy)).toEqual([undefined, undefined, undefined, undefined]);
});

describe('svc serve', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ tempPrefix: 'svc-signups-', env: { SVC_SIGNUP_RATE_LIMIT: '3/10m' } });
  });
  afterAll(async () => {
    await service?.stop();
  });

  test('counts sign-ups by the connection\'s address (SVC_SIGNUP_RATE_LIMIT=3/10m)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${service.url}/member/v1/sites/${SUBDOMAIN}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.1.${i}` },
        body: JSON.stringify({ email: `visitor${i}@shop.example`, password: 'a long enough password' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(service.log.join('\n')).toMatch(/X-Forwarded-For, but SVC_TRUST_PROXY is not set/);
  });
});
