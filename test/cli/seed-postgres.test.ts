/**
 * `svc seed` on PostgreSQL. Into an installation without members it is a bulk load (the member
 * tables' keys and non-unique indexes set aside and made again at the end, one transaction);
 * into one with members, batch by batch as before. Either way the data is what SQLite gets for
 * the same seed, and the schema is as the migrations made it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { describePostgres, keysAndIndexes, newPostgresSchema } from '../support/postgres';
import { expectOk } from '../support/seeded-installation';
import { runSvc } from '../support/svc-main';

describePostgres('svc seed on PostgreSQL', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function schema() {
    const created = await newPostgresSchema();
    cleanups.push(created.drop);
    const client = new pg.Client({ connectionString: created.url });
    await client.connect();
    cleanups.push(() => client.end());
    return { url: created.url, client };
  }
  /** The seed's counts, its time left out. */
  async function seed(db: string, members: number, seedNumber: number) {
    const run = await expectOk(runSvc(['seed', '--members', String(members), '--seed', String(seedNumber), '--db', db], {}));
    const { seconds: _seconds, ...counts } = JSON.parse(run.out[0]!) as Record<string, number>;
    return counts;
  }

  test('a new installation is loaded in one go, then grown batch by batch: the same rows as SQLite for the same seeds, keys and indexes as migrated', async () => {
    const target = await schema();
    const migrated = await schema();
    await expectOk(runSvc(['migrate', '--db', migrated.url], {}));
    const dir = mkdtempSync(join(tmpdir(), 'svc-seed-pg-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const sqlite = join(dir, 'svc.db');

    const loaded = await seed(target.url, 120, 5);
    expect(loaded).toEqual(await seed(sqlite, 120, 5));
    expect(loaded.memberships).toBeGreaterThan(100);
    expect(await keysAndIndexes(target.client)).toEqual(await keysAndIndexes(migrated.client));

    const grown = await seed(target.url, 40, 6);
    expect(grown).toEqual(await seed(sqlite, 40, 6));
    expect(await keysAndIndexes(target.client)).toEqual(await keysAndIndexes(migrated.client));
    const count = async (table: string) => Number((await target.client.query(`SELECT count(*) FROM ${table}`)).rows[0].count);
    expect(await count('members')).toBe(160);
    expect(await count('memberships')).toBe(loaded.memberships! + grown.memberships!);
    expect(await count('invoices')).toBe(loaded.invoices! + grown.invoices!);
    // Every invoice is its member's, in its membership's site, as the keys now check.
    const strays = await target.client.query(
      `SELECT count(*)::int AS n FROM invoices i LEFT JOIN memberships m ON m.id = i.membership_id
       WHERE i.membership_id IS NOT NULL AND (m.member_id IS DISTINCT FROM i.member_id OR m.site_id IS DISTINCT FROM i.site_id)`);
    expect(strays.rows[0].n).toBe(0);
  }, 60_000);
});
