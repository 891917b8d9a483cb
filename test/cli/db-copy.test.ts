/**
 * `svc db copy --from A --to B` (src/cli/commands/db.ts, src/service/store/copy/): a whole
 * installation moved table by table, ids, hashes and secrets as they are. A seeded SQLite file
 * goes to PostgreSQL and back, and every row of every table comes back equal; the copies serve
 * the keys, cursors, sessions and passwords of the original, and their next ids follow the
 * original's last ones. What the copy refuses (a target with rows, a missing or in-memory source,
 * one database twice, a schema it does not know) it refuses before writing anything.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { BOOKKEEPING_TABLES, COPIED_TABLES } from '../../src/service/store/copy/tables';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../src/service/store/postgres/migrations';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/service/store/sqlite/migrations';
import { describePostgres, keysAndIndexes, newPostgresSchema } from '../support/postgres';
import { expectOk, seedInstallation, withService, type SeededInstallation } from '../support/seeded-installation';
import { sqliteColumns, sqliteFile, sqliteRows, type TableRows } from '../support/sqlite-contents';
import { runSvc } from '../support/svc-main';

/** Tables each store keeps for itself, not data: SQLite's AUTOINCREMENT counters, PostgreSQL's schema version. */
const SQLITE_BOOKKEEPING = (table: string) => table.startsWith('sqlite_') || BOOKKEEPING_TABLES.includes(table);
const POSTGRES_BOOKKEEPING = new Set(['schema_version', ...BOOKKEEPING_TABLES]);
const GENERATED_ID_TABLES = COPIED_TABLES.filter((t) => t.generatedId).map((t) => t.name);

const copy = (from: string, to: string, ...more: string[]) => runSvc(['db', 'copy', '--from', from, '--to', to, ...more], {});

let dir = '';
let source: SeededInstallation;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-db-copy-'));
  source = await seedInstallation(join(dir, 'source.db'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A new path for this test's SQLite file. */
let fileNumber = 0;
const newFile = (name: string) => join(dir, `${++fileNumber}-${name}.db`);

/** Table by table, so that a failure names the table and shows its rows. */
function expectSameRows(actual: TableRows, expected: TableRows): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const table of Object.keys(expected)) expect(actual[table], table).toEqual(expected[table]);
}

/** The last id the source handed out in each generated-id table: its sequence, or its highest row. */
function lastIds(rows: TableRows): Map<string, number> {
  const sequences = new Map(rows.sqlite_sequence!.map(([name, seq]) => [name as string, seq as number]));
  return new Map(GENERATED_ID_TABLES.map((table) => {
    const ids = rows[table]!.map((row) => row[0] as number);
    return [table, Math.max(0, sequences.get(table) ?? 0, ...ids)];
  }));
}

/** Ids in the copy that the source never had: rows written after the copy. */
function newIds(sourceRows: TableRows, table: string, ids: number[]): number[] {
  const known = new Set(sourceRows[table]!.map((row) => row[0] as number));
  return ids.filter((id) => !known.has(id));
}

// ---------------------------------------------------------------------------------------------
// The table list against both schemas.

test('COPIED_TABLES lists exactly the tables of a migrated SQLite database, each by its primary key, parents first', () => {
  const path = newFile('schema');
  const db = new Database(path);
  try {
    for (const step of SQLITE_MIGRATIONS) db.exec(step);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[])
      .filter((t) => !SQLITE_BOOKKEEPING(t))
      .sort();
    expect(COPIED_TABLES.map((t) => t.name).sort()).toEqual(tables);
    const position = new Map(COPIED_TABLES.map((t, i) => [t.name, i]));
    for (const { name, key, generatedId } of COPIED_TABLES) {
      const columns = db.prepare('SELECT name, type, pk FROM pragma_table_info(?)').all(name) as Array<{ name: string; type: string; pk: number }>;
      const primaryKey = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      expect(key, `${name}: rows are read in the order of its primary key`).toEqual(primaryKey);
      const rowid = primaryKey.length === 1 && columns.find((c) => c.name === primaryKey[0])!.type.toUpperCase() === 'INTEGER';
      expect(generatedId, `${name}: generatedId is whether SQLite generates its id`).toBe(rowid && primaryKey[0] === 'id');
      const parents = db.prepare('SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)').pluck().all(name) as string[];
      for (const parent of parents.filter((p) => p !== name)) {
        expect(position.get(parent), `${name} references ${parent}, which must be copied before it`).toBeLessThan(position.get(name)!);
      }
    }
  } finally {
    db.close();
  }
});

// ---------------------------------------------------------------------------------------------
// SQLite to SQLite, and what the copy refuses.

test('a SQLite copy of the seeded source has every table with rows, and every row equal', async () => {
  for (const { name } of COPIED_TABLES) expect(source.rows[name]!.length, `${name} has rows in the source`).toBeGreaterThan(0);
  const target = newFile('copy');
  const result = await copy(source.db, target);
  expect(result.code, result.err).toBe(0);
  const report = JSON.parse(result.out[0]!) as { tables: Record<string, number> };
  expect(report.tables).toEqual(Object.fromEntries(COPIED_TABLES.map(({ name }) => [name, source.rows[name]!.length])));
  expectSameRows(sqliteRows(target), source.rows);
  expectSameRows(sqliteRows(source.db), source.rows);
});

test('a target with rows is refused (exit 1), and nothing in it changes', async () => {
  const target = newFile('taken');
  await expectOk(runSvc(['sites', 'create', '--subdomain', 'taken', '--db', target], {}));
  const before = sqliteFile(target);
  const result = await copy(source.db, target);
  expect(result.code).toBe(1);
  expect(result.err).toMatch(/not empty \(table sites has rows\)/);
  expect(result.out).toEqual([]);
  expect(sqliteFile(target)).toEqual(before);
});

test('a missing source file, :memory: on either side, or one database twice: exit 2, no target made', async () => {
  const target = newFile('never');
  for (const [from, to] of [
    [join(dir, 'no-such.db'), target],
    [':memory:', target],
    [source.db, ':memory:'],
    ['file::memory:', target],
    [source.db, source.db],
    // One file by two names.
    [source.db, source.db.replace(/\/([^/]+)$/, '/./$1')],
  ] as const) {
    const result = await copy(from, to);
    expect(result.code, `${from} → ${to}`).toBe(2);
    expect(result.err).toContain('usage:');
    expect(result.out).toEqual([]);
  }
  for (const argv of [['db'], ['db', 'move'], ['db', 'copy', '--from', source.db], ['db', 'copy', '--from', source.db, '--to', target, '--sample', 'all']]) {
    expect((await runSvc(argv, {})).code, argv.join(' ')).toBe(2);
  }
  expect(existsSync(target)).toBe(false);
  expect(existsSync(join(dir, 'no-such.db'))).toBe(false);
});

test('a target of a newer build: exit 1, "newer than this build", the target as it was', async () => {
  const target = newFile('newer');
  const made = new Database(target);
  made.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 1}`);
  made.close();
  const before = sqliteFile(target);
  const result = await copy(source.db, target);
  expect(result.code).toBe(1);
  expect(result.err).toMatch(/newer than this build/);
  expect(sqliteFile(target)).toEqual(before);
});

test('a source of a newer build: exit 1, and no target is made', async () => {
  const newer = newFile('newer-source');
  const made = new Database(newer);
  made.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 1}`);
  made.close();
  const target = newFile('never');
  const result = await copy(newer, target);
  expect(result.code).toBe(1);
  expect(result.err).toMatch(/newer than this build/);
  expect(existsSync(target)).toBe(false);
});

test('an empty target at an older schema version is migrated first, then filled', async () => {
  const target = newFile('older');
  const made = new Database(target);
  for (const step of SQLITE_MIGRATIONS.slice(0, 3)) made.exec(step);
  made.pragma('user_version = 3');
  made.close();
  const result = await copy(source.db, target);
  expect(result.code, result.err).toBe(0);
  expect(sqliteFile(target).version).toBe(SQLITE_MIGRATIONS.length);
  expectSameRows(sqliteRows(target), source.rows);
});

test('a target whose tables differ from this build\'s (an extra column, an unknown table): exit 1 naming it, nothing written', async () => {
  for (const [change, message] of [
    ['ALTER TABLE plans ADD COLUMN discount INTEGER', /table plans differs/],
    ['CREATE TABLE coupons (id INTEGER PRIMARY KEY, code TEXT)', /tables svc db copy does not know: coupons/],
  ] as const) {
    const target = newFile('different');
    await expectOk(runSvc(['migrate', '--db', target], {}));
    const db = new Database(target);
    db.exec(change);
    db.close();
    const before = sqliteFile(target);
    const result = await copy(source.db, target);
    expect(result.code, change).toBe(1);
    expect(result.err).toMatch(message);
    expect(sqliteFile(target)).toEqual(before);
  }
});

test('a copy that fails part-way (a late table refuses its rows) leaves the target empty', async () => {
  const target = newFile('half');
  await expectOk(runSvc(['migrate', '--db', target], {}));
  const db = new Database(target);
  // The last table copied: everything before it is written by the time it fails.
  const late = COPIED_TABLES.at(-1)!.name;
  expect(source.rows[late]!.length).toBeGreaterThan(0);
  db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON ${late} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
  db.close();
  const result = await copy(source.db, target);
  expect(result.code).toBe(1);
  expect(result.err).toMatch(/refused by the test/);
  const after = sqliteRows(target);
  for (const { name } of COPIED_TABLES) expect(after[name], name).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// PostgreSQL.

describePostgres('PostgreSQL', () => {
  let schemas: Array<{ url: string; drop(): Promise<void> }> = [];
  let clients: pg.Client[] = [];
  beforeEach(() => {
    schemas = [];
    clients = [];
  });
  afterEach(async () => {
    for (const client of clients) await client.end();
    for (const schema of schemas) await schema.drop();
  });

  async function newSchema(): Promise<{ url: string; client: pg.Client }> {
    const schema = await newPostgresSchema();
    schemas.push(schema);
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    clients.push(client);
    return { url: schema.url, client };
  }

  test('COPIED_TABLES lists exactly the tables of a migrated PostgreSQL schema, each with SQLite\'s columns in SQLite\'s order', async () => {
    const { url, client } = await newSchema();
    await expectOk(runSvc(['migrate', '--db', url], {}));
    const tables = (await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = current_schema()')).rows
      .map((r) => r.tablename)
      .filter((t) => !POSTGRES_BOOKKEEPING.has(t))
      .sort();
    expect(COPIED_TABLES.map((t) => t.name).sort()).toEqual(tables);

    const sqlite = newFile('columns');
    await expectOk(runSvc(['migrate', '--db', sqlite], {}));
    const columnsOf = sqliteColumns(sqlite);
    for (const { name } of COPIED_TABLES) {
      const columns = (await client.query<{ attname: string }>(
        'SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum', [name])).rows
        .map((r) => r.attname);
      expect(columns, name).toEqual(columnsOf.get(name));
    }
  });

  test('SQLite → PostgreSQL → SQLite: every row of every table comes back equal; both copies serve what the original did, and their ids go on from its last', async () => {
    for (const { name } of COPIED_TABLES) expect(source.rows[name]!.length, `${name} has rows in the source`).toBeGreaterThan(0);
    const last = lastIds(source.rows);
    // The precondition of "ids go on from the last, not the highest": a deleted last row.
    const tokens = source.rows.member_tokens!.map((row) => row[0] as number);
    expect(last.get('member_tokens')).toBeGreaterThan(Math.max(...tokens));

    const { url, client } = await newSchema();
    const migrated = await newSchema();
    await expectOk(runSvc(['migrate', '--db', migrated.url], {}));
    const there = await copy(source.db, url);
    expect(there.code, there.err).toBe(0);
    // The keys and indexes the copy set aside are back as migrations made them.
    expect(await keysAndIndexes(client)).toEqual(await keysAndIndexes(migrated.client));
    const counts = Object.fromEntries(COPIED_TABLES.map(({ name }) => [name, source.rows[name]!.length]));
    expect((JSON.parse(there.out[0]!) as { tables: unknown }).tables).toEqual(counts);
    const back = newFile('back');
    const backAgain = await copy(url, back);
    expect(backAgain.code, backAgain.err).toBe(0);
    expect((JSON.parse(backAgain.out[0]!) as { tables: unknown }).tables).toEqual(counts);

    // Every row, every column, and the AUTOINCREMENT sequences too.
    expectSameRows(sqliteRows(back), source.rows);

    // Both copies work as the original did, and write new rows above every id it handed out.
    const postgresIds = async (table: string) => (await client.query(`SELECT id FROM ${table}`)).rows.map((r) => Number(r.id));
    const sqliteIds = async (table: string) => sqliteRows(back)[table]!.map((row) => row[0] as number);
    for (const [copyDb, ids] of [[url, postgresIds], [back, sqliteIds]] as const) {
      await servesAsBefore(copyDb);
      for (const table of GENERATED_ID_TABLES) {
        const added = newIds(source.rows, table, await ids(table));
        expect(added.filter((id) => id <= last.get(table)!), `${copyDb}: ${table} ids after the copy above ${last.get(table)}`).toEqual([]);
        if (EXERCISED.includes(table)) expect(added.length, `${copyDb}: new rows in ${table}`).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  test('a PostgreSQL target with rows is refused (exit 1), and nothing in it changes', async () => {
    const { url, client } = await newSchema();
    await expectOk(runSvc(['sites', 'create', '--subdomain', 'taken', '--db', url], {}));
    const result = await copy(source.db, url);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/not empty \(table sites has rows\)/);
    expect((await client.query('SELECT subdomain FROM sites')).rows).toEqual([{ subdomain: 'taken' }]);
    expect(Number((await client.query('SELECT count(*) FROM members')).rows[0].count)).toBe(0);
  });

  test('a PostgreSQL target of a newer build: exit 1, "newer than this build", not one table made', async () => {
    const { url, client } = await newSchema();
    await client.query('CREATE TABLE schema_version (version integer NOT NULL)');
    await client.query('INSERT INTO schema_version VALUES ($1)', [POSTGRES_MIGRATIONS.length + 1]);
    const result = await copy(source.db, url);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/newer than this build/);
    expect((await client.query('SELECT tablename FROM pg_tables WHERE schemaname = current_schema()')).rows).toEqual([{ tablename: 'schema_version' }]);
  });
});

/** The generated-id tables servesAsBefore writes to: each must get a row above the source's last id. */
const EXERCISED = ['members', 'sessions', 'member_events', 'mail_outbox', 'member_tokens', 'payment_methods', 'api_keys'];

/**
 * On a copy: the Admin API key and a cursor handed out before it, a session, a picture, a changed password;
 * then new rows in EXERCISED (a sign-up, a card, a reset link, a key).
 */
async function servesAsBefore(database: string): Promise<void> {
  await withService(database, async (api) => {
    const page = await api.admin(source.adminKey, '/members', { 'x-items-after': '5', 'x-cursor': source.cursor });
    expect(page.status, `${database}: the Admin API key and cursor of the original`).toBe(200);
    expect(await page.json()).toEqual(source.pageAfterCursor);
    const me = (await (await api.expect(200, 'GET', '/me', undefined, source.session.token)).json()) as { id: number; profileImageUrl: string };
    expect(me.id).toBe(source.session.memberId);
    // The member's picture, at the same address, with the same bytes.
    expect(new URL(me.profileImageUrl).pathname).toBe(source.picture.path);
    const picture = await api.get(source.picture.path);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect(new Uint8Array(await picture.arrayBuffer())).toEqual(source.picture.bytes);
    await api.expect(201, 'POST', '/sessions', source.changedPassword);
    await api.expect(200, 'GET', '/me/metadata', undefined, source.session.token).then(async (r) =>
      expect(await r.json()).toEqual({ newsletter: { issues: [39, 40], format: 'html' } }));

    const newcomer = await api.signUp({ email: `newcomer@example.com`, password: 'newcomer password' });
    await api.saveCard('4242424242424242', newcomer.token);
    await api.expect(202, 'POST', '/password-reset', { email: source.changedPassword.email });
  });
  await expectOk(runSvc(['keys', 'create', '--site', 'demo', '--scopes', 'read.members', '--db', database], {}));
}
