/**
 * Audit findings of issue 26, replayed as the attacker ran them; each failed before its fix.
 * - Hashing floods: one client with 40 connections filled the process's hashing queue with
 *   guesses at random addresses (33,178 answers of 429) and a real member signed in 0 of 40 times.
 * - Code guessing had no limit per client.
 * - One member silenced a site's mail: 310 e-mail-change requests used up the site's 300 mails
 *   an hour, after which other members' resets answered 202 and queued nothing, unlogged.
 * The limits per client address are counted by the connection's address, as the server hands it
 * to the app (test/security/signup-limits.test.ts shows X-Forwarded-For is not believed).
 */
import { afterEach, expect, test, vi, type MockInstance } from 'vitest';
import { DEMO_FIXTURE, FIXTURES } from '../../mock-server/fixtures';
import { loadFixtures } from '../../mock-server/load-fixtures';
import { createServiceApp } from '../../src/service/app';
import { boundedQueue } from '../../src/service/auth/bounded-queue';
import { createPasswordHasher, TEST_SCRYPT, type ScryptFunction } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { DEFAULT_MAILS_PER_ADDRESS, DEFAULT_SIGN_INS_PER_ADDRESS, MAILS_PER_MEMBER } from '../../src/service/member/client-limits';
import { MAILS_PER_SITE } from '../../src/service/member/mail-flows';
import { CONCURRENT, MAX_WAITING } from '../../src/service/platform/node-scrypt';
import { createMemoryStore } from '../../src/service/store/memory';
import type { Store } from '../../src/service/store/store';

const ada = DEMO_FIXTURE.members.find((m) => m.key === 'ada')!;
const grace = DEMO_FIXTURE.members.find((m) => m.key === 'grace')!;
const ATTACKER = '203.0.113.7';
const MEMBER = '198.51.100.9';

afterEach(() => vi.restoreAllMocks());

/** A process as `svc serve` builds it (defaults for every limit), with the password hasher given. */
async function world(scrypt: ScryptFunction = portableScrypt) {
  let now = Date.parse('2026-06-01T12:00:00Z');
  const store = createMemoryStore();
  await loadFixtures(store, createPasswordHasher(portableScrypt, TEST_SCRYPT), FIXTURES, now);
  const app = await createServiceApp({ store, passwords: createPasswordHasher(scrypt, TEST_SCRYPT), clock: () => now });
  const call = (method: string, path: string, body: unknown, remoteAddress: string, token?: string) =>
    app.fetch(
      new Request(`http://svc.test/member/v1/sites/demo${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      }),
      { remoteAddress },
    );
  const post = (path: string, body: unknown, remoteAddress: string, token?: string) => call('POST', path, body, remoteAddress, token);
  return { store, call, post, now: () => now, advance: (ms: number) => (now += ms) };
}

const outboxSize = async (store: Store) => (await store.listMail(undefined, { limit: 1000 })).items.length;

test(`a flood of sign-ins from one client hashes at most ${DEFAULT_SIGN_INS_PER_ADDRESS.limit} passwords, and a member at another address signs in meanwhile`, async () => {
  // The process's real queue (CONCURRENT running, MAX_WAITING waiting) in front of a slow scrypt.
  const queue = boundedQueue({ concurrent: CONCURRENT, maxWaiting: MAX_WAITING });
  let hashes = 0;
  const slowScrypt: ScryptFunction = (...args) =>
    queue(async () => {
      hashes++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return portableScrypt(...args);
    });
  const { post } = await world(slowScrypt);
  // 200 guesses at once, each at another address, so no limit per e-mail holds them back.
  const flood = Promise.all(Array.from({ length: 200 }, (_, i) => post('/sessions', { email: `guess${i}@example.com`, password: 'a guess' }, ATTACKER)));
  const member = await post('/sessions', { email: ada.email, password: ada.password }, MEMBER);
  expect(member.status).toBe(201);
  const statuses = (await flood).map((r) => r.status);
  expect(statuses.filter((s) => s === 401)).toHaveLength(DEFAULT_SIGN_INS_PER_ADDRESS.limit);
  expect(statuses.filter((s) => s === 429)).toHaveLength(200 - DEFAULT_SIGN_INS_PER_ADDRESS.limit);
  // The flood's, the member's, and the decoy hash that unknown e-mails are checked against (made once).
  expect(hashes).toBe(DEFAULT_SIGN_INS_PER_ADDRESS.limit + 2);
});

test('sign-in attempts past the allowance are 429 rateLimited on base with Retry-After, before anything is checked; another client goes on', async () => {
  const { post } = await world();
  for (let i = 0; i < DEFAULT_SIGN_INS_PER_ADDRESS.limit; i++) {
    expect((await post('/sessions', { email: `guess${i}@example.com`, password: 'a guess' }, ATTACKER)).status).toBe(401);
  }
  const refused = await post('/sessions', { email: ada.email, password: ada.password }, ATTACKER);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect((await refused.json()).errors[0]).toMatchObject({ code: 'rateLimited', path: 'base' });
  expect((await post('/sessions', { email: ada.email, password: ada.password }, MEMBER)).status).toBe(201);
});

test('code checks count against the same allowance per client: past it 429, however many addresses the guesses spread over', async () => {
  const { post } = await world();
  for (let i = 0; i < DEFAULT_SIGN_INS_PER_ADDRESS.limit; i++) {
    const res = await post('/sessions', { email: `guess${i}@example.com`, code: '123456' }, ATTACKER);
    expect(res.status).toBe(401);
  }
  const refused = await post('/sessions', { email: 'guess-more@example.com', code: '123456' }, ATTACKER);
  expect(refused.status).toBe(429);
  expect((await refused.json()).errors[0]).toMatchObject({ code: 'rateLimited', path: 'base' });
  // Password attempts from that client are spent too; another client is not.
  expect((await post('/sessions', { email: ada.email, password: ada.password }, ATTACKER)).status).toBe(429);
  expect((await post('/sessions', { email: 'guess0@example.com', code: '123456' }, MEMBER)).status).toBe(401);
});

test(`requested mails per client address: ${DEFAULT_MAILS_PER_ADDRESS.limit} an hour, resets and codes together, then 429 and nothing queued`, async () => {
  const { store, post, advance } = await world();
  for (let i = 0; i < DEFAULT_MAILS_PER_ADDRESS.limit; i++) {
    const path = i % 2 === 0 ? '/password-reset' : '/sign-in-codes';
    // Members and strangers alike, so the 429 says nothing about who is a member.
    expect((await post(path, { email: i % 4 === 0 ? ada.email : `someone${i}@example.com` }, ATTACKER)).status).toBe(202);
  }
  const before = await outboxSize(store);
  for (const path of ['/password-reset', '/sign-in-codes']) {
    const refused = await post(path, { email: grace.email }, ATTACKER);
    expect(refused.status).toBe(429);
    expect((await refused.json()).errors[0]).toMatchObject({ code: 'rateLimited', path: 'base' });
  }
  expect(await outboxSize(store)).toBe(before);
  // Another client's reset goes out.
  expect((await post('/password-reset', { email: grace.email }, MEMBER)).status).toBe(202);
  expect(await outboxSize(store)).toBe(before + 1);
  advance(DEFAULT_MAILS_PER_ADDRESS.windowMs);
  expect((await post('/password-reset', { email: grace.email }, ATTACKER)).status).toBe(202);
});

test(`e-mail changes one member asks for: ${MAILS_PER_MEMBER.limit} an hour, from any number of client addresses; other members' mail still goes out`, async () => {
  const { store, post, call } = await world();
  const session = await (await post('/sessions', { email: ada.email, password: ada.password }, MEMBER)).json();
  const change = (i: number, address: string) => call('PUT', '/me/email', { email: `target${i}@example.com`, password: ada.password }, address, session.token);
  for (let i = 0; i < MAILS_PER_MEMBER.limit; i++) expect((await change(i, `192.0.2.${i + 1}`)).status).toBe(202);
  const before = await outboxSize(store);
  const refused = await change(99, '192.0.2.200');
  expect(refused.status).toBe(429);
  expect((await refused.json()).errors[0]).toMatchObject({ code: 'rateLimited', path: 'base' });
  expect(await outboxSize(store)).toBe(before);
  expect((await post('/password-reset', { email: grace.email }, MEMBER)).status).toBe(202);
  expect(await outboxSize(store)).toBe(before + 1);
});

/** Fills the demo site's hour with mail asked for, up to the site-wide cap. */
async function fillSiteCap(store: Store, now: number): Promise<void> {
  const site = (await store.getSiteBySubdomain('demo'))!;
  await store.queueMail(
    Array.from({ length: MAILS_PER_SITE }, (_, i) => ({
      siteId: site.id, kind: 'passwordReset', to: `earlier${i}@example.com`, subject: 'Reset', text: 'Reset', createdAt: now,
    })),
  );
}

const capLines = (logged: MockInstance) => logged.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('reached its cap'));

test('reaching the site-wide cap is said in the log, once an hour, and still answers 202', async () => {
  const { store, post, now, advance } = await world();
  await fillSiteCap(store, now());
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const before = await outboxSize(store);
  expect((await post('/password-reset', { email: ada.email }, MEMBER)).status).toBe(202);
  expect((await post('/sign-in-codes', { email: grace.email }, MEMBER)).status).toBe(202);
  expect(await outboxSize(store)).toBe(before);
  expect(capLines(logged)).toEqual([`[svc] site demo reached its cap of ${MAILS_PER_SITE} requested mails an hour: resets, codes and confirmations asked for are held back until the hour has passed`]);
  advance(3600_000 + 1);
  expect((await post('/password-reset', { email: ada.email }, MEMBER)).status).toBe(202);
  expect(await outboxSize(store)).toBe(before + 1);
});

test('the once-an-hour note is kept per store: another service in the same process, with a site of the same id, says it too', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  for (const { store, post, now } of [await world(), await world()]) {
    await fillSiteCap(store, now());
    expect((await post('/password-reset', { email: ada.email }, MEMBER)).status).toBe(202);
  }
  expect(capLines(logged)).toHaveLength(2);
});
