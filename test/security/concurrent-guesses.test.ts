/**
 * Audit item 2 of issue 12: the sign-in limit held for guesses sent one after another, but was
 * checked before the slow hash and counted after it, so 60 guesses sent at once were all
 * checked and the right password was then accepted. Now an attempt counts from its start.
 * And the hashing queue of the whole process is bounded: past it, 429 with Retry-After at once.
 */
import { expect, test } from 'vitest';
import { DEMO_FIXTURE, FIXTURES } from '../../mock-server/fixtures';
import { loadFixtures } from '../../mock-server/load-fixtures';
import { createServiceApp } from '../../src/service/app';
import { boundedQueue, BusyError } from '../../src/service/auth/bounded-queue';
import { createPasswordHasher, TEST_SCRYPT, type PasswordHasher, type ScryptFunction } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { createMemoryStore } from '../../src/service/store/memory';

const MINUTE = 60_000;
const ada = DEMO_FIXTURE.members.find((m) => m.key === 'ada')!;

/** A hasher whose checks take a while (so requests overlap) and are counted. */
function slowCountingHasher(delayMs: number, scrypt: ScryptFunction = portableScrypt): PasswordHasher & { verifications: number } {
  const inner = createPasswordHasher(scrypt, TEST_SCRYPT);
  const counter = {
    verifications: 0,
    hash: (password: string) => inner.hash(password),
    async verify(password: string, encoded: string) {
      counter.verifications++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.verify(password, encoded);
    },
  };
  return counter;
}

async function world(passwords: PasswordHasher & { verifications: number }) {
  let now = Date.parse('2026-06-01T12:00:00Z');
  const store = createMemoryStore();
  await loadFixtures(store, createPasswordHasher(portableScrypt, TEST_SCRYPT), FIXTURES, now);
  const app = await createServiceApp({ store, passwords, clock: () => now });
  const request = (path: string, init: { method: string; body: unknown; token?: string }) =>
    app.request(`/member/v1/sites/demo${path}`, {
      method: init.method,
      headers: { 'content-type': 'application/json', ...(init.token && { authorization: `Bearer ${init.token}` }) },
      body: JSON.stringify(init.body),
    });
  const signIn = (email: string, password: string) => request('/sessions', { method: 'POST', body: { email, password } });
  return { app, signIn, request, advance: (ms: number) => (now += ms) };
}

test('60 concurrent wrong guesses for one e-mail: at most 5 are checked, the rest 429, and the right password waits for the window', async () => {
  const passwords = slowCountingHasher(30);
  const { signIn, advance } = await world(passwords);
  const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(ada.email, `wrong guess ${i}`)));
  const statuses = answers.map((r) => r.status);
  expect(passwords.verifications).toBeLessThanOrEqual(5);
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(55);
  for (const answer of answers.filter((r) => r.status === 429)) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

  const checked = passwords.verifications;
  const refused = await signIn(ada.email, ada.password);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
  expect(passwords.verifications).toBe(checked);

  advance(15 * MINUTE + 1000);
  expect((await signIn(ada.email, ada.password)).status).toBe(201);
});

test('concurrent wrong current passwords on PUT /me/password are counted before they are checked too', async () => {
  const passwords = slowCountingHasher(30);
  const { signIn, request } = await world(passwords);
  const { token } = (await (await signIn(ada.email, ada.password)).json()) as { token: string };
  const before = passwords.verifications;
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      request('/me/password', { method: 'PUT', token, body: { password: `wrong ${i}`, newPassword: 'a brand new password' } }),
    ),
  );
  expect(passwords.verifications - before).toBeLessThanOrEqual(5);
  expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(25);
  // The right current password is refused as well until the window passes.
  const right = await request('/me/password', { method: 'PUT', token, body: { password: ada.password, newPassword: 'a brand new password' } });
  expect(right.status).toBe(429);
});

test('200 concurrent sign-ins for 200 e-mails: the hashing queue stays bounded and the rest are told to come back', async () => {
  const limits = { concurrent: 2, maxWaiting: 8 };
  const queue = boundedQueue(limits);
  let inQueue = 0;
  let mostInQueue = 0;
  // The portable scrypt behind a queue like the server's (node-scrypt.ts), with its occupancy watched.
  const queuedScrypt: ScryptFunction = async (...args) => {
    inQueue++;
    mostInQueue = Math.max(mostInQueue, inQueue);
    try {
      return await queue(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return portableScrypt(...args);
      });
    } finally {
      inQueue--;
    }
  };
  const passwords = slowCountingHasher(0, queuedScrypt);
  const { signIn } = await world(passwords);
  await signIn('warm-up@demo.localhost', 'makes the decoy hash first');
  const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => signIn(`visitor${i}@demo.localhost`, 'a guess')));
  const statuses = answers.map((r) => r.status);
  expect(mostInQueue).toBeLessThanOrEqual(limits.concurrent + limits.maxWaiting + 1);
  expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  const busy = answers.filter((r) => r.status === 429);
  expect(busy.length).toBeGreaterThanOrEqual(200 - 3 * (limits.concurrent + limits.maxWaiting));
  for (const answer of busy) {
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await answer.json()).errors[0].code).toBe('rateLimited');
  }
});

test('the bounded queue runs at most `concurrent` at once and refuses past `maxWaiting` with BusyError at once', async () => {
  const queue = boundedQueue({ concurrent: 2, maxWaiting: 3 });
  let running = 0;
  let most = 0;
  const release: Array<() => void> = [];
  const work = () =>
    queue(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running--;
      return 'done';
    });
  const accepted = Array.from({ length: 5 }, work);
  await expect(work()).rejects.toBeInstanceOf(BusyError);
  // Let the work finish, a step at a time.
  const settle = setInterval(() => {
    for (const finish of release.splice(0)) finish();
  }, 1);
  await expect(Promise.all(accepted)).resolves.toEqual(['done', 'done', 'done', 'done', 'done']);
  clearInterval(settle);
  expect(most).toBe(2);
});
