/**
 * Issue 16: the member API's limits hold across processes. Two apps, each on a connection of its
 * own to one SQLite file, stand for two processes of `svc serve --workers 2`: the guesses and
 * sign-ups sent to both at once count against one allowance, kept in the store. (Kept in each
 * app's memory, as before, every allowance would be doubled.)
 */
import { DEFAULT_MAILS_PER_ADDRESS, DEFAULT_SIGN_INS_PER_ADDRESS } from '../../src/service/member/client-limits';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, afterEach, expect, test } from 'vitest';
import { DEMO_FIXTURE, FIXTURES } from '../../mock-server/fixtures';
import { loadFixtures } from '../../mock-server/load-fixtures';
import { createServiceApp } from '../../src/service/app';
import { createPasswordHasher, TEST_SCRYPT, type PasswordHasher } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { SIGNUPS_PER_EMAIL } from '../../src/service/member/signup-limits';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';

const ada = DEMO_FIXTURE.members.find((m) => m.key === 'ada')!;
const NOW = Date.parse('2026-06-01T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'svc-shared-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const open: Store[] = [];
afterEach(async () => void (await Promise.all(open.splice(0).map((s) => s.close()))));

/** Password checks that wait for each other: every check started before any ends, and they are counted. */
function countingHasher(): PasswordHasher & { verifications: number; release(): void } {
  const inner = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const hasher = {
    verifications: 0,
    release,
    hash: (password: string) => inner.hash(password),
    async verify(password: string, encoded: string) {
      hasher.verifications++;
      await released;
      return inner.verify(password, encoded);
    },
  };
  return hasher;
}

/** Two "processes": apps over two connections to one database holding the demo fixtures. */
async function twoProcesses(passwords: PasswordHasher, signupRateLimit: { limit: number; windowMs: number } | 'off' = 'off'): Promise<Hono[]> {
  const file = join(dir, `shared-${++files}.db`);
  const first = openSqliteStore(file);
  open.push(first);
  await loadFixtures(first, createPasswordHasher(portableScrypt, TEST_SCRYPT), FIXTURES, NOW);
  const second = openSqliteStore(file);
  open.push(second);
  return Promise.all([first, second].map((store) => createServiceApp({ store, passwords, clock: () => NOW, signupRateLimit })));
}

const post = (app: Hono, path: string, body: unknown, remoteAddress?: string) =>
  app.fetch(
    new Request(`http://svc.test/member/v1/sites/demo${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    remoteAddress === undefined ? undefined : { remoteAddress },
  );

test('60 guesses for one e-mail sent at once to two processes: exactly 5 are checked, the other 55 are 429 before any hashing', async () => {
  const passwords = countingHasher();
  const apps = await twoProcesses(passwords);
  const answers = Promise.all(Array.from({ length: 60 }, (_, i) => post(apps[i % 2]!, '/sessions', { email: ada.email, password: `guess ${i}` })));
  // The refused answers come back while the checks wait; then the checks may end.
  const settled = await Promise.race([answers, new Promise<undefined>((resolve) => setImmediate(() => setImmediate(() => resolve(undefined))))]);
  expect(settled).toBeUndefined();
  passwords.release();
  const statuses = (await answers).map((r) => r.status);
  expect(passwords.verifications).toBe(5);
  expect(statuses.filter((s) => s === 401)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(55);
  // The right password is refused in either process until the window has passed.
  for (const app of apps) expect((await post(app, '/sessions', { email: ada.email, password: ada.password })).status).toBe(429);
});

test(`sign-ups for one e-mail through two processes: ${SIGNUPS_PER_EMAIL.limit} in all, not per process`, async () => {
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const apps = await twoProcesses(passwords);
  const statuses: number[] = [];
  for (let i = 0; i < 2 * SIGNUPS_PER_EMAIL.limit; i++) {
    statuses.push((await post(apps[i % 2]!, '/members', { email: ada.email, password: 'a long enough password', customFields: { 3: 'developer', 5: true } })).status);
  }
  expect(statuses).toEqual([...Array(SIGNUPS_PER_EMAIL.limit).fill(409), ...Array(SIGNUPS_PER_EMAIL.limit).fill(429)]);
});

test('sign-ups from one client address through two processes share SVC_SIGNUP_RATE_LIMIT', async () => {
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const apps = await twoProcesses(passwords, { limit: 3, windowMs: 15 * 60_000 });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    statuses.push((await post(apps[i % 2]!, '/members', { email: `new${i}@demo.localhost`, password: 'a long enough password', customFields: { 3: 'developer', 5: true } }, '203.0.113.7')).status);
  }
  expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
});

test('sign-in attempts and requested mails from one client address through two processes share one allowance (issue 26)', async () => {
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const apps = await twoProcesses(passwords);
  const signIns: number[] = [];
  for (let i = 0; i < DEFAULT_SIGN_INS_PER_ADDRESS.limit + 4; i++) {
    signIns.push((await post(apps[i % 2]!, '/sessions', { email: `guess${i}@demo.localhost`, password: 'a guess' }, '203.0.113.7')).status);
  }
  expect(signIns).toEqual([...Array(DEFAULT_SIGN_INS_PER_ADDRESS.limit).fill(401), 429, 429, 429, 429]);
  const mails: number[] = [];
  for (let i = 0; i < DEFAULT_MAILS_PER_ADDRESS.limit + 2; i++) {
    mails.push((await post(apps[i % 2]!, '/password-reset', { email: `someone${i}@demo.localhost` }, '203.0.113.7')).status);
  }
  expect(mails).toEqual([...Array(DEFAULT_MAILS_PER_ADDRESS.limit).fill(202), 429, 429]);
});
