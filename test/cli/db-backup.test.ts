/**
 * `svc db backup --to FILE` (issue 30): a copy of the SQLite database taken while `svc serve`
 * runs and members sign up, owner-only, never over a file; restored by serving the copy, where a
 * member signed up before the backup logs in.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { runSvc } from '../support/svc-main';
import { run, startServe } from '../support/svc-process';

const dir = mkdtempSync(join(tmpdir(), 'svc-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ORIGIN = { origin: 'https://shop.example', 'content-type': 'application/json' };
const signUp = (url: string, email: string) =>
  fetch(`${url}/member/v1/sites/shop/members`, { method: 'POST', headers: ORIGIN, body: JSON.stringify({ email, password: 'a long enough password' }) });

test('backed up while serving and signing members up; the copy is owner-only, and serving it is the restore', async () => {
  const db = join(dir, 'live.db');
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', SVC_LOG_LEVEL: 'warn', SVC_SIGNUP_RATE_LIMIT: 'off', SVC_MAIL_RATE_LIMIT: 'off' };
  await run(['sites', 'create', '--subdomain', 'shop', '--name', 'Shop', '--domain', 'shop.example'], env);
  const serve = await startServe([], env);
  const backup = join(dir, 'backup.db');
  try {
    expect((await signUp(serve.url, 'before@shop.example')).status).toBe(201);
    // Members keep signing up while the backup runs.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const res = await signUp(serve.url, `during-${written++}@shop.example`);
        if (res.status !== 201) throw new Error(`a sign-up failed: ${res.status} ${await res.text()}`);
      }
    })();
    const result = await runSvc(['db', 'backup', '--to', backup], env);
    writing = false;
    await writer;
    expect(result.code, result.err).toBe(0);
    expect(JSON.parse(result.out[0]!)).toMatchObject({ to: backup, bytes: statSync(backup).size });
    expect(written).toBeGreaterThan(0);
  } finally {
    expect(await serve.stop()).toBe(0);
  }
  expect(statSync(backup).mode & 0o777).toBe(0o600);
  const copy = openSqliteStore(backup);
  try {
    expect(await copy.findMemberLogin(1, 'before@shop.example')).toMatchObject({ status: 'approved' });
  } finally {
    await copy.close();
  }
  // The restore: the copy served as the database.
  const restored = await startServe([], { ...env, SVC_DB: backup });
  try {
    const login = await fetch(`${restored.url}/member/v1/sites/shop/sessions`, { method: 'POST', headers: ORIGIN, body: JSON.stringify({ email: 'before@shop.example', password: 'a long enough password' }) });
    expect(login.status).toBe(201);
  } finally {
    expect(await restored.stop()).toBe(0);
  }
});

test('never over an existing file (exit 1, the file untouched); PostgreSQL, memory, a missing database or --to are usage errors (exit 2)', async () => {
  const db = join(dir, 'small.db');
  const env = { SVC_DB: db };
  await run(['sites', 'create', '--subdomain', 'shop'], env);
  const taken = join(dir, 'taken.db');
  writeFileSync(taken, 'mine');
  const refused = await runSvc(['db', 'backup', '--to', taken], env);
  expect([refused.code, refused.err]).toEqual([1, `${taken} exists already: a backup never writes over a file`]);
  expect(readFileSync(taken, 'utf8')).toBe('mine');
  for (const [args, message] of [
    [['db', 'backup'], /needs --to FILE/],
    [['db', 'backup', '--to', join(dir, 'a.db'), '--db', 'postgres://u@127.0.0.1:1/x'], /pg_dump/],
    [['db', 'backup', '--to', join(dir, 'b.db'), '--db', ':memory:'], /not an in-memory one/],
    [['db', 'backup', '--to', join(dir, 'c.db'), '--db', join(dir, 'nope.db')], /no such database file/],
  ] as const) {
    const result = await runSvc([...args], env);
    expect(result.code, args.join(' ')).toBe(2);
    expect(result.err).toMatch(message);
  }
});
