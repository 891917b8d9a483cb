/**
 * The typed Admin API client (src/client/admin-client.ts) against a real `svc serve` on a seeded
 * SQLite file, not a mock: lists page with the cursor headers to the same items the store holds,
 * filters reach the API as it reads them, a 429 is waited out as Retry-After says, and every
 * failure is an AdminApiError with the API's own code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { AdminApiError, adminClient } from '../../src/client/admin-client';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { runSvc } from '../support/svc-main';
import { startServe, type ServeProcess } from '../support/svc-process';

const dir = mkdtempSync(join(tmpdir(), 'svc-admin-client-'));
const db = join(dir, 'svc.db');
let serve: ServeProcess;
let limited: ServeProcess;
let fullKey: string;
let membersOnlyKey: string;

const svc = async (...argv: string[]) => {
  const result = await runSvc(argv, { SVC_DB: db });
  if (result.code !== 0) throw new Error(result.err);
  return result.out.at(-1)!;
};

beforeAll(async () => {
  await svc('seed', '--members', '120', '--seed', '3');
  fullKey = await svc('keys', 'create', '--site', 'demo', '--scopes', 'read.members,read.memberships,read.plans,read.memberEvents,read.contentViews');
  membersOnlyKey = await svc('keys', 'create', '--site', 'demo', '--scopes', 'read.members');
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_LOG_LEVEL: 'warn' };
  serve = await startServe([], { ...env, SVC_ADMIN_RATE_LIMIT: 'off' });
  limited = await startServe([], { ...env, SVC_ADMIN_RATE_LIMIT: '4/1s' });
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  await limited?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function inStore<T>(read: (store: ReturnType<typeof openSqliteStore>, siteId: number) => Promise<T>): Promise<T> {
  const store = openSqliteStore(db);
  try {
    return await read(store, (await store.getSiteBySubdomain('demo'))!.id);
  } finally {
    await store.close();
  }
}

test('members({ status }) pages through the whole list, 7 at a time, to the store’s members in id order', async () => {
  const client = adminClient({ baseUrl: serve.url, key: fullKey, pageSize: 7 });
  const approved = await all(client.members({ status: 'approved' }));
  const stored = await inStore((store, site) => store.listMembers(site, { status: 'approved' }, { limit: 10_000 }));
  expect(approved.map((m) => m.id)).toEqual(stored.items.map((m) => m.id));
  expect(approved.length).toBeGreaterThan(14);
  expect(new Set(approved.map((m) => m.status))).toEqual(new Set(['approved']));
});

test('filters as the API reads them: a plan’s memberships, a member’s events, a Date bound', async () => {
  const client = adminClient({ baseUrl: serve.url, key: fullKey });
  const plans = await all(client.plans());
  expect(plans.length).toBeGreaterThan(1);
  const plan = await client.plan(plans[0]!.id);
  expect(plan).toEqual(plans[0]);
  const ofPlan = await all(client.memberships({ planId: plan.id }));
  expect(ofPlan.length).toBeGreaterThan(0);
  expect(new Set(ofPlan.map((m) => m.planId))).toEqual(new Set([plan.id]));
  const member = ofPlan[0]!.memberId;
  const events = await all(client.memberEvents({ memberId: member }));
  expect(events.length).toBeGreaterThan(0);
  expect(new Set(events.map((e) => e.memberId))).toEqual(new Set([member]));
  const members = await all(client.members());
  const middle = members[Math.floor(members.length / 2)]!;
  const since = await all(client.members({ createdAfter: new Date(middle.createdAt) }));
  expect(since.every((m) => m.createdAt >= middle.createdAt)).toBe(true);
  expect(since.length).toBeLessThan(members.length);
  const site = await client.site();
  expect(site).toMatchObject({ subdomain: 'demo', metrics: { activeMemberCount: expect.any(Number) } });
});

test('a 429 is waited out as Retry-After says and the same page asked again; past maxRetries it fails rateLimited', async () => {
  const waits: number[] = [];
  const patient = adminClient({ baseUrl: limited.url, key: membersOnlyKey, pageSize: 20, onRateLimit: ({ seconds }) => waits.push(seconds) });
  const members = await all(patient.members());
  expect(members.map((m) => m.id)).toEqual((await all(adminClient({ baseUrl: serve.url, key: fullKey }).members())).map((m) => m.id));
  expect(waits.length).toBeGreaterThan(0);
  expect(waits.every((s) => s >= 1)).toBe(true);
  const impatient = adminClient({ baseUrl: limited.url, key: membersOnlyKey, pageSize: 1, maxRetries: 0 });
  const failure = await all(impatient.members()).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(AdminApiError);
  expect(failure).toMatchObject({ status: 429, code: 'rateLimited' });
}, 30_000);

test('failures are AdminApiError with the API’s code: a scope the key lacks, a plan that does not exist, a bad filter, no service', async () => {
  const narrow = adminClient({ baseUrl: serve.url, key: membersOnlyKey });
  await expect(all(narrow.memberships())).rejects.toMatchObject({ name: 'AdminApiError', status: 404, code: 'notFound' });
  const client = adminClient({ baseUrl: serve.url, key: fullKey });
  await expect(client.plan(999_999)).rejects.toMatchObject({ status: 404, code: 'notFound' });
  const bad = await all(client.members({ status: 'nobody' as never })).catch((error: unknown) => error as AdminApiError);
  expect(bad).toMatchObject({ status: 400, code: 'invalidParameter', errors: [expect.objectContaining({ path: 'status' })] });
  await expect(adminClient({ baseUrl: serve.url, key: 'svc_admin_not-a-key' }).site()).rejects.toMatchObject({ status: 401, code: 'accessDenied' });
  await expect(adminClient({ baseUrl: 'http://127.0.0.1:9', key: fullKey, timeoutMs: 2_000 }).site()).rejects.toMatchObject({ status: 0, code: 'networkError' });
});
