/**
 * examples/admin-api/members-report.ts as a site owner runs it: a real `svc serve` on a seeded
 * SQLite file, the script as a child process with SVC_URL and SVC_ADMIN_KEY, its report read
 * back and checked against the store.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { CHILD_NODE_OPTIONS } from '../support/svc-process';

const SCRIPT = join(repoRoot, 'examples/admin-api/members-report.ts');
const MEMBERS = 250;

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a child to its end, with the environment given on top of this one (minus the script's own settings). */
function runNode(args: string[], env: Record<string, string>): Promise<Exited> {
  const { SVC_URL: _url, SVC_ADMIN_KEY: _key, ...inherited } = process.env;
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function svc(...args: string[]): Promise<string> {
  const result = await runNode([join(repoRoot, 'bin/svc.js'), ...args], { SVC_SCRYPT: 'test' });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} exited with ${result.code}:\n${result.stderr}`);
  return result.stdout.trim();
}

/** `svc serve` on a free port; resolves once it is listening. */
async function serve(db: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [...CHILD_NODE_OPTIONS, join(repoRoot, 'bin/svc.js'), 'serve', '--db', db], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr }).on('line', (line) => {
      log.push(line);
      const match = /serving on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('close', (code) => reject(new Error(`svc serve exited with ${code}:\n${log.join('\n')}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const report = (url: string, key: string, ...args: string[]) => runNode(['--import', 'tsx', SCRIPT, ...args], { SVC_URL: url, SVC_ADMIN_KEY: key });

/** What the report should say, read from the database rather than through the API. */
async function fromStore(db: string) {
  const store = openSqliteStore(db);
  try {
    const site = (await store.getSiteBySubdomain('demo'))!;
    const members = (await store.listMembers(site.id, {}, { limit: 100_000 })).items;
    const memberships = (await store.listMemberships(site.id, {}, { limit: 100_000 })).items;
    const byStatus = (rows: { status: string }[]) => {
      const counts: Record<string, number> = {};
      for (const { status } of rows) counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    };
    return { members: members.length, memberStatuses: byStatus(members), memberships: memberships.length };
  } finally {
    await store.close();
  }
}

let dir: string;
let db: string;
let fullKey: string;
let membersOnlyKey: string;
let noPlansKey: string;
let service: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-members-report-'));
  db = join(dir, 'svc.db');
  await svc('seed', '--members', String(MEMBERS), '--seed', '1', '--db', db);
  fullKey = await svc('keys', 'create', '--site', 'demo', '--scopes', 'read.members,read.memberships,read.plans', '--db', db);
  membersOnlyKey = await svc('keys', 'create', '--site', 'demo', '--scopes', 'read.members', '--db', db);
  noPlansKey = await svc('keys', 'create', '--site', 'demo', '--scopes', 'read.members,read.memberships', '--db', db);
  service = await serve(db, { SVC_ADMIN_RATE_LIMIT: 'off' });
});

afterAll(async () => {
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

test('--json reports every member, by status and month, and every membership by status and named plan', async () => {
  const run = await report(service.url, fullKey, '--json');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout);
  const expected = await fromStore(db);
  expect(expected.members).toBe(MEMBERS);
  expect(result.site).toMatchObject({ subdomain: 'demo', name: 'Demo Academy' });
  expect(result.members.total).toBe(expected.members);
  expect(result.members.byStatus).toEqual(expected.memberStatuses);
  expect(sum(result.members.byStatus)).toBe(result.members.total);
  expect(Object.keys(result.members.joinedByMonth)).toHaveLength(6);
  expect(sum(result.members.joinedByMonth)).toBeLessThanOrEqual(result.members.total);
  expect(result.memberships.total).toBe(expected.memberships);
  expect(sum(result.memberships.byStatus)).toBe(result.memberships.total);
  const byPlan: { planId: number; name?: string; count: number }[] = result.memberships.byPlan;
  expect(byPlan.reduce((n, p) => n + p.count, 0)).toBe(result.memberships.total);
  // Plans /plans does not list (the archived one) are named too, read by id.
  expect(byPlan.every((p) => typeof p.name === 'string')).toBe(true);
  expect(byPlan.map((p) => p.name)).toContain('Founders 2024');
  expect(result.pages).toEqual({
    members: Math.ceil(result.members.total / 100),
    memberships: Math.ceil(result.memberships.total / 100),
    plans: 1,
  });
  expect(result.rateLimitWaits).toBe(0);

  // The text report says the same in a few lines.
  const text = await report(service.url, fullKey);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain(`Members: ${MEMBERS}`);
  expect(text.stdout).toContain(`Memberships: ${expected.memberships}`);
  expect(text.stdout).toMatch(/Founders 2024 +\d+/);
  expect(text.stdout.split('\n').length).toBeLessThan(40);
});

test('over the rate limit it waits as Retry-After says, says so, and still counts everything', async () => {
  const limited = await serve(db, { SVC_ADMIN_RATE_LIMIT: '2/1s' });
  try {
    const run = await report(limited.url, fullKey, '--json');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    const expected = await fromStore(db);
    expect(result.members.total).toBe(expected.members);
    expect(sum(result.members.byStatus)).toBe(expected.members);
    expect(result.memberships.total).toBe(expected.memberships);
    expect(result.pages.members).toBe(Math.ceil(expected.members / 100));
    expect(result.rateLimitWaits).toBeGreaterThanOrEqual(1);
    expect(run.stderr).toMatch(/rate limited on \/\S+; waiting 1 s/);
    expect(run.stderr.trim().split('\n')).toHaveLength(result.rateLimitWaits);
  } finally {
    await limited.stop();
  }
});

test('no key exits 2 saying what to set; a wrong key or no service exits 1 with one line naming why', async () => {
  const missing = await report(service.url, '');
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/SVC_ADMIN_KEY/);
  expect(missing.stdout).toBe('');

  const wrong = await report(service.url, 'svc_admin_not-a-real-key');
  expect(wrong.code).toBe(1);
  expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
  expect(wrong.stderr).toMatch(/401 accessDenied/);
  expect(wrong.stdout).toBe('');

  const closed = await serve(db, { SVC_ADMIN_RATE_LIMIT: 'off' });
  await closed.stop();
  const unreachable = await report(closed.url, fullKey);
  expect(unreachable.code).toBe(1);
  expect(unreachable.stderr).toMatch(/^members-report: cannot reach .*ECONNREFUSED/);
  expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
});

test('a key with fewer scopes still reports what it may read and says what it left out', async () => {
  const run = await report(service.url, membersOnlyKey, '--json');
  expect(run.code, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(result.members.total).toBe(MEMBERS);
  expect(result.memberships).toEqual({ leftOut: expect.stringMatching(/read\.memberships/) });
  expect(result.pages).toEqual({ members: Math.ceil(MEMBERS / 100) });

  const text = await report(service.url, membersOnlyKey);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain(`Members: ${MEMBERS}`);
  expect(text.stdout).toMatch(/Memberships: left out, the key lacks the read\.memberships scope/);

  // Without read.plans the memberships are counted by plan id.
  const noPlans = JSON.parse((await report(service.url, noPlansKey, '--json')).stdout);
  expect(noPlans.memberships.total).toBe((await fromStore(db)).memberships);
  expect(noPlans.memberships.byPlan.every((p: { name?: string }) => p.name === undefined)).toBe(true);
  expect(noPlans.memberships.planNames).toMatch(/read\.plans/);
  expect(noPlans.pages).toEqual({ members: Math.ceil(MEMBERS / 100), memberships: Math.ceil(noPlans.memberships.total / 100) });
  expect((await report(service.url, noPlansKey)).stdout).toMatch(/^  plan \d+ +\d+$/m);
});
