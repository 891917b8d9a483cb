/**
 * `svc migrate` (src/cli/commands/migrate.ts): brings a database to this build's schema and
 * prints where it stands as `{"version":N,"ran":K}`; a database of a newer build is left as it
 * is (exit 1), and so is everything when the arguments are wrong (exit 2).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../src/service/store/postgres/migrations';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/service/store/sqlite/migrations';
import { describePostgres, newPostgresSchema, POSTGRES_URL } from '../support/postgres';
import { runSvc } from '../support/svc-main';
import { svc } from '../support/svc-process';

let dir = '';
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const migrate = (database: string) => runSvc(['migrate', '--db', database], {});

/** What a SQLite file holds of its schema: its version and every table, index and trigger. */
function sqliteSchema(path: string): { version: number; objects: unknown[] } {
  const db = new Database(path, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      objects: db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all(),
    };
  } finally {
    db.close();
  }
}

/** `svc …` as a child process: its exit code and everything it wrote. */
async function svcProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = svc(args, {});
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

test('on a new SQLite file: every step runs once, printed as {"version":N,"ran":N}; again: {"version":N,"ran":0}', async () => {
  const db = join(dir, 'data', 'svc.db');
  const n = SQLITE_MIGRATIONS.length;
  const first = await migrate(db);
  expect(first).toMatchObject({ code: 0, out: [JSON.stringify({ version: n, ran: n })] });
  expect(first.err).toContain(`ran ${n} step(s), now at schema version ${n}`);
  const schema = sqliteSchema(db);
  expect(schema.version).toBe(n);
  expect(schema.objects).toContainEqual(expect.objectContaining({ type: 'table', name: 'members' }));

  const second = await migrate(db);
  expect(second).toMatchObject({ code: 0, out: [JSON.stringify({ version: n, ran: 0 })] });
  expect(second.err).toContain('nothing to do');
  expect(sqliteSchema(db)).toEqual(schema);
});

test('SVC_DB names the database when --db is not given', async () => {
  const db = join(dir, 'env.db');
  const result = await runSvc(['migrate'], { SVC_DB: db });
  expect(result).toMatchObject({ code: 0, out: [JSON.stringify({ version: SQLITE_MIGRATIONS.length, ran: SQLITE_MIGRATIONS.length })] });
  expect(sqliteSchema(db).version).toBe(SQLITE_MIGRATIONS.length);
});

test('a SQLite file at an older version runs only the steps it lacks', async () => {
  const db = join(dir, 'old.db');
  const old = new Database(db);
  for (const step of SQLITE_MIGRATIONS.slice(0, 3)) old.exec(step);
  old.pragma('user_version = 3');
  old.close();
  const n = SQLITE_MIGRATIONS.length;
  expect(await migrate(db)).toMatchObject({ code: 0, out: [JSON.stringify({ version: n, ran: n - 3 })] });
  expect(sqliteSchema(db).version).toBe(n);
});

test('a SQLite file of a newer build: exit 1, "newer than this build", nothing changed', async () => {
  const empty = join(dir, 'newer-empty.db');
  const made = new Database(empty);
  made.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 1}`);
  made.close();
  const current = join(dir, 'newer.db');
  expect((await migrate(current)).code).toBe(0);
  const bumped = new Database(current);
  bumped.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 1}`);
  bumped.close();

  for (const db of [empty, current]) {
    const before = sqliteSchema(db);
    const result = await migrate(db);
    expect(result.code, db).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err).toMatch(/newer than this build/);
    expect(sqliteSchema(db)).toEqual(before);
  }
  expect(sqliteSchema(empty).objects).toEqual([]);
});

test('a file that is not a SQLite database: exit 1, one line saying so', async () => {
  const db = join(dir, 'notes.db');
  writeFileSync(db, 'these are not the pages of a database, but they are long enough to be read as a header of one\n'.repeat(20));
  const result = await migrate(db);
  expect(result.code).toBe(1);
  expect(result.out).toEqual([]);
  expect(result.err).toMatch(/^cannot go on: .*not a database/);
});

test('bad arguments exit 2 with the usage lines, and no database is made', async () => {
  const db = join(dir, 'never.db');
  for (const argv of [
    ['migrate', 'now', '--db', db],
    ['migrate', '--db', db, '--force'],
    ['migrate', '--db'],
  ]) {
    const result = await runSvc(argv, { SVC_DB: db });
    expect(result.code, argv.join(' ')).toBe(2);
    expect(result.err).toContain('usage:');
    expect(result.out).toEqual([]);
  }
  expect(existsSync(db)).toBe(false);
});

test('an unreachable PostgreSQL server: exit 1 with one line naming why, no stack trace and no password', async () => {
  for (const url of ['postgres://svc:hunter2@127.0.0.1:1/svc', 'postgresql://svc:hunter2@nowhere.invalid/svc']) {
    const result = await svcProcess(['migrate', '--db', url]);
    expect(result.code, url).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[svc\] cannot go on: .*(ECONNREFUSED|ENOTFOUND)/);
    expect(result.stderr).not.toContain('hunter2');
  }
});

describePostgres('PostgreSQL', () => {
  let schema: Awaited<ReturnType<typeof newPostgresSchema>> | undefined;
  let client: pg.Client | undefined;
  beforeEach(async () => {
    schema = await newPostgresSchema();
    client = new pg.Client({ connectionString: schema.url });
    await client.connect();
  });
  afterEach(async () => {
    await client?.end();
    await schema?.drop();
  });

  /** The schema's tables (with their columns) and its recorded version. */
  async function postgresSchema(): Promise<{ version: number | undefined; columns: unknown[] }> {
    const columns = (await client!.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`)).rows;
    const hasVersion = columns.some((c) => (c as { table_name: string }).table_name === 'schema_version');
    const version = hasVersion ? (await client!.query('SELECT version FROM schema_version')).rows[0]?.version : undefined;
    return { version, columns };
  }

  test('on a new schema: {"version":N,"ran":N}, then {"version":N,"ran":0}', async () => {
    const n = POSTGRES_MIGRATIONS.length;
    const first = await migrate(schema!.url);
    expect(first).toMatchObject({ code: 0, out: [JSON.stringify({ version: n, ran: n })] });
    const after = await postgresSchema();
    expect(after.version).toBe(n);
    expect(after.columns).toContainEqual(expect.objectContaining({ table_name: 'members', column_name: 'email' }));
    expect(await migrate(schema!.url)).toMatchObject({ code: 0, out: [JSON.stringify({ version: n, ran: 0 })] });
    expect(await postgresSchema()).toEqual(after);
  });

  test('a schema of a newer build: exit 1, "newer than this build", nothing changed', async () => {
    expect((await migrate(schema!.url)).code).toBe(0);
    await client!.query('UPDATE schema_version SET version = $1', [POSTGRES_MIGRATIONS.length + 1]);
    const before = await postgresSchema();
    const result = await migrate(schema!.url);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err).toMatch(/newer than this build/);
    expect(await postgresSchema()).toEqual(before);
  });

  test('a newer version in an otherwise empty schema: exit 1, and not one table is created', async () => {
    await client!.query('CREATE TABLE schema_version (version integer NOT NULL)');
    await client!.query('INSERT INTO schema_version (version) VALUES ($1)', [POSTGRES_MIGRATIONS.length + 5]);
    const before = await postgresSchema();
    const result = await migrate(schema!.url);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/newer than this build/);
    expect(await postgresSchema()).toEqual(before);
  });

  test('a database the server does not have: exit 1 with one line, no stack trace', async () => {
    const url = new URL(POSTGRES_URL!);
    url.pathname = '/svc_no_such_database';
    const result = await svcProcess(['migrate', '--db', url.toString()]);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[svc\] cannot go on: .*svc_no_such_database/);
  });
});
