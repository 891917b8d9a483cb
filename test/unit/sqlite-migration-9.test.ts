/**
 * SQLite migration 9 (issue 16): a database from before it gains the tables of the state every
 * process shares (rate cells, throttled keys, leases), keeps its rows, and the new tables work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, test } from 'vitest';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { MIGRATIONS } from '../../src/service/store/sqlite/migrations';

const dir = mkdtempSync(join(tmpdir(), 'svc-migration-9-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 0, 1);

test('a database at schema version 8 migrates to 9 and on: its rows stay, and limits and leases start empty and work', async () => {
  const file = join(dir, 'v8.db');
  const old = new Database(file);
  for (const step of MIGRATIONS.slice(0, 8)) old.exec(step);
  old.pragma('user_version = 8');
  old.prepare(`INSERT INTO sites (id, name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at)
    VALUES (1, 'Old', 'old', 'old.example.com', 'usd', 'en', 1, ?)`).run(T0);
  old.close();

  const store = openSqliteStore(file);
  expect(await store.getSite(1)).toMatchObject({ subdomain: 'old' });
  expect(await store.deleteExpiredLimits(T0)).toBe(0);
  expect(await store.takeRateToken('admin-key:1', T0, { limit: 1, windowMs: 1000 })).toEqual({ allowed: true });
  expect((await store.takeRateToken('admin-key:1', T0, { limit: 1, windowMs: 1000 })).allowed).toBe(false);
  expect(await store.beginThrottledAttempt('sign-in:1:ann@example.com', T0, { maxFailures: 1, windowMs: 1000, pendingMs: 1000 })).toEqual({ allowed: true });
  expect(await store.tryLease('billing-run', 'a', T0, 1000)).toBe(true);
  await store.close();

  const db = new Database(file);
  expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(db.prepare(`SELECT name FROM sqlite_schema WHERE name IN ('rate_cells', 'throttles', 'leases') ORDER BY name`).pluck().all()).toEqual([
    'leases', 'rate_cells', 'throttles',
  ]);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
});
