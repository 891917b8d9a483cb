/**
 * `svc webhooks …` on a SQLite file, in this process: endpoints added (the secret printed once),
 * listed, rotated, enabled, removed; deliveries listed and replayed; every bad argument a clear
 * error that changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { ROTATION_OVERLAP_MS } from '../../src/cli/commands/webhooks';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';
import { webhookMessage } from '../../src/service/webhooks/messages';
import { runSvc } from '../support/svc-main';

let dir: string;
let db: string;
const svc = (...args: string[]) => runSvc(['webhooks', ...args, '--db', db], {});
const withDb = async <T>(use: (store: Store) => Promise<T>): Promise<T> => {
  const store = await openSqliteStore(db);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  db = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  expect((await runSvc(['sites', 'create', '--subdomain', 'shop', '--db', db], {})).code).toBe(0);
});

test('add prints the secret once on stdout; list shows the endpoint without it', async () => {
  const added = await svc('add', '--site', 'shop', '--url', 'https://hooks.example.com/svc', '--events', 'payment.succeeded,member.created');
  expect(added.code).toBe(0);
  expect(added.out).toHaveLength(1);
  expect(added.out[0]).toMatch(/^whsec_[A-Za-z0-9+/]{43}=?$/);
  expect(added.err).toMatch(/endpoint 1 added: https:\/\/hooks\.example\.com\/svc \(member\.created, payment\.succeeded\)/);
  expect(added.err).toMatch(/shown once/);
  const endpoint = await withDb(async (store) => (await store.listWebhookEndpoints((await store.getSiteBySubdomain('shop'))!.id))[0]!);
  expect(endpoint).toMatchObject({ url: 'https://hooks.example.com/svc', events: ['member.created', 'payment.succeeded'], allowPrivate: false, secret: added.out[0], source: 'cli' });
  const listed = await svc('list', '--site', 'shop');
  expect(listed.code).toBe(0);
  expect(listed.out).toEqual([`1\thttps://hooks.example.com/svc\tmember.created,payment.succeeded\tenabled`]);
  expect(listed.out.join('\n')).not.toContain('whsec_');
});

test.each([
  [['--url', 'http://hooks.example.com/'], /must start with https:\/\/.*--allow-private/],
  [['--url', 'https://127.0.0.1/hook'], /127\.0\.0\.1, which is not a public address.*--allow-private/],
  [['--url', 'https://169.254.169.254/latest', '--allow-private'], /169\.254\.169\.254, which is not a public address$/],
  // --allow-private would not take cloud metadata: the error does not suggest it.
  [['--url', 'https://169.254.169.254/latest'], /169\.254\.169\.254, which is not a public address$/],
  [['--url', 'ftp://hooks.example.com/'], /must start with https:\/\/$/],
  [['--url', 'https://user:secret@hooks.example.com/'], /user name or password/],
  [['--url', 'not a url'], /is not a URL/],
  [['--url', 'https://hooks.example.com/', '--events', 'member.created,member.deleted'], /unknown member\.deleted; the events are member\.created/],
  [['--url', 'https://hooks.example.com/', '--events', ','], /at least one event/],
  [[], /needs --url/],
])('add %j is refused with a clear error and adds nothing', async (args, message) => {
  const run = await svc('add', '--site', 'shop', ...args);
  expect(run.code).toBe(2);
  // The error is the first line; the usage lines follow it.
  expect(run.err.split('\n')[0]).toMatch(message);
  expect(run.err).not.toContain('secret@');
  expect(run.out).toEqual([]);
  expect(await withDb(async (store) => store.listWebhookEndpoints((await store.getSiteBySubdomain('shop'))!.id))).toEqual([]);
});

test('--allow-private takes a receiver on this machine over http', async () => {
  const added = await svc('add', '--site', 'shop', '--url', 'http://127.0.0.1:8080/hook', '--allow-private');
  expect(added.code).toBe(0);
  expect((await svc('list', '--site', 'shop')).out[0]).toMatch(/private addresses allowed/);
});

test('an unknown site, action or id is an error', async () => {
  expect((await svc('list', '--site', 'nope')).err).toMatch(/no site nope/);
  expect((await svc('frobnicate', '--site', 'shop')).code).toBe(2);
  expect((await svc('add', '--url', 'https://hooks.example.com/')).err).toMatch(/needs --site/);
  expect((await svc('remove', '--site', 'shop', '7')).err).toMatch(/no endpoint 7 on this site/);
  expect((await svc('remove', '--site', 'shop', '07')).code).toBe(2);
  expect((await svc('replay', '--site', 'shop', '1')).err).toMatch(/no delivery 1/);
});

test('rotate-secret prints a new secret; the old one signs for 24 hours more', async () => {
  const old = (await svc('add', '--site', 'shop', '--url', 'https://hooks.example.com/')).out[0]!;
  const before = Date.now();
  const rotated = await svc('rotate-secret', '--site', 'shop', '1');
  expect(rotated.code).toBe(0);
  expect(rotated.out[0]).toMatch(/^whsec_/);
  expect(rotated.out[0]).not.toBe(old);
  const endpoint = await withDb(async (store) => (await store.getWebhookEndpoint((await store.getSiteBySubdomain('shop'))!.id, 1))!);
  expect(endpoint.secret).toBe(rotated.out[0]);
  expect(endpoint.previousSecret).toBe(old);
  expect(endpoint.previousSecretUntil).toBeGreaterThanOrEqual(before + ROTATION_OVERLAP_MS);
  expect(endpoint.previousSecretUntil).toBeLessThanOrEqual(Date.now() + ROTATION_OVERLAP_MS);
  expect((await svc('list', '--site', 'shop')).out[0]).toMatch(/old secret valid until/);
});

test('deliveries lists newest first, --failed narrows, replay queues the same message again; remove takes them all', async () => {
  await svc('add', '--site', 'shop', '--url', 'https://hooks.example.com/');
  const messageIds = await withDb(async (store) => {
    const site = (await store.getSiteBySubdomain('shop'))!;
    const messages = [1, 2].map((n) => webhookMessage(site.id, 'member.created', Date.now(), { member: { id: n, email: `m${n}@example.com`, status: 'approved', createdAt: new Date().toISOString() } }));
    expect(await store.queueWebhooks(messages)).toBe(2);
    const [first] = await store.claimWebhookDeliveries(Date.now(), 10, 60_000);
    await store.finishWebhookAttempt(first!.id, first!.leaseUntil, { at: Date.now(), durationMs: 12, ok: false, status: 500, answer: 'no' }, { next: { failed: true } });
    return messages.map((m) => m.publicId);
  });
  const all = await svc('deliveries', '--site', 'shop');
  expect(all.out).toHaveLength(2);
  expect(all.out[0]).toMatch(new RegExp(`^2\\tmember\\.created\\t${messageIds[1]}\\tendpoint 1\\tpending\\t0 attempts; not attempted yet; due now$`));
  expect(all.out[1]).toMatch(new RegExp(`^1\\tmember\\.created\\t${messageIds[0]}\\tendpoint 1\\tfailed\\t1 attempt; last \\S+ 500 12 ms$`));
  // Each attempt with what the receiver answered; none yet for the pending one.
  expect((await svc('attempts', '--site', 'shop', '1')).out).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z\t500\t12 ms\tfailed\t"no"$/)]);
  const none = await svc('attempts', '2');
  expect([none.out, none.err]).toEqual([[], 'delivery 2 has not been attempted yet']);
  expect((await svc('attempts', '--site', 'shop', '9')).err).toMatch(/no delivery 9 on this site/);
  const failed = await svc('deliveries', '--site', 'shop', '--failed');
  expect(failed.out.map((l) => l.split('\t')[0])).toEqual(['1']);
  const replayed = await svc('replay', '--site', 'shop', '1');
  expect(replayed.code).toBe(0);
  expect(replayed.out).toEqual(['3']);
  expect(replayed.err).toContain(`${messageIds[0]} to endpoint 1 again, with the same webhook-id`);
  expect((await svc('deliveries', '--site', 'shop', '--limit', '1')).out[0]).toMatch(new RegExp(`^3\\tmember\\.created\\t${messageIds[0]}\\t.*replay of 1$`));
  const removed = await svc('remove', '--site', 'shop', '1');
  expect(removed.code).toBe(0);
  expect((await svc('deliveries', '--site', 'shop')).out).toEqual([]);
});

test('enable turns a disabled endpoint back on', async () => {
  await svc('add', '--site', 'shop', '--url', 'https://hooks.example.com/');
  await withDb(async (store) => {
    const site = (await store.getSiteBySubdomain('shop'))!;
    await store.updateWebhookEndpoint(site.id, 1, { disabledAt: Date.now(), disabledReason: 'every delivery failed since then' });
  });
  expect((await svc('list', '--site', 'shop')).out[0]).toMatch(/disabled since .*: every delivery failed since then \(svc webhooks enable\)/);
  expect((await svc('enable', '--site', 'shop', '1')).code).toBe(0);
  expect((await svc('list', '--site', 'shop')).out[0]).toMatch(/\tenabled$/);
});

test('without --site: list and deliveries cover every site, each line led by its subdomain; an id finds its own site', async () => {
  expect((await runSvc(['sites', 'create', '--subdomain', 'blog', '--db', db], {})).code).toBe(0);
  await svc('add', '--site', 'shop', '--url', 'https://hooks.example.com/shop');
  await svc('add', '--site', 'blog', '--url', 'https://hooks.example.com/blog');
  expect((await svc('list')).out).toEqual(['shop\t1\thttps://hooks.example.com/shop\tall events\tenabled', 'blog\t2\thttps://hooks.example.com/blog\tall events\tenabled']);
  const rotated = await svc('rotate-secret', '2');
  expect(rotated.code).toBe(0);
  const blog = await withDb(async (store) => (await store.getWebhookEndpoint((await store.getSiteBySubdomain('blog'))!.id, 2))!);
  expect(blog.secret).toBe(rotated.out[0]);
  expect((await svc('remove', '9')).err).toMatch(/^no endpoint 9$/m);
  expect((await svc('replay', '1')).err).toMatch(/^no delivery 1$/m);
  expect((await svc('remove', '1')).code).toBe(0);
  expect((await svc('list')).out).toEqual([expect.stringMatching(/^blog\t2\thttps:\/\/hooks\.example\.com\/blog\tall events\tenabled; old secret valid until /)]);
  expect((await svc('add', '--url', 'https://hooks.example.com/x')).err).toMatch(/needs --site/);
});
