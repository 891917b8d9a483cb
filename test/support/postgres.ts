/**
 * The PostgreSQL suites' server and stores. The server comes from the global setup
 * (scripts/test-global-setup.ts): SVC_TEST_POSTGRES_URL, or a throwaway cluster. Without one
 * the suites skip (the setup said why, once); under CI=true they fail instead, never skip.
 *
 * Each store gets a schema of its own in the one test database, so suites and tests running at
 * once never see each other's rows; a closed store's schema is emptied for the next one.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject, test } from 'vitest';
import { openPostgresStore } from '../../src/service/store/postgres';
import type { Store } from '../../src/service/store/store';

export const POSTGRES_URL: string | undefined = inject('postgresUrl') || undefined;
const REQUIRED = process.env.CI === 'true';
const MISSING = 'no PostgreSQL server: CI must install Debian\'s postgresql (.ci/run does), or set SVC_TEST_POSTGRES_URL';

/** `describe` for a PostgreSQL suite: skipped without a server, failing under CI=true. */
export function describePostgres(name: string, body: () => void): void {
  if (POSTGRES_URL) describe(name, body);
  else if (REQUIRED) describe(name, () => test('has a PostgreSQL server', () => { throw new Error(MISSING); }));
  else describe.skip(name, body);
}

let admin: pg.Pool | undefined;

/** A new, empty schema of the test database; its URL selects it (search_path). Dropped by `drop`. */
export async function newPostgresSchema(): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  if (!POSTGRES_URL) throw new Error(MISSING);
  admin ??= new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
  const schema = `t_${process.pid}_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { url, schema, drop: async () => void (await admin!.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)) };
}

/**
 * Schemas of this process whose stores are closed, emptied and migrated already: the next store
 * takes one. Migrating a new schema and dropping it cost about half a second a store, which
 * hundreds of tests a file paid; emptying the tables costs a few milliseconds. The global setup
 * drops every test schema at the end of the run.
 */
const emptied: Array<{ url: string; schema: string }> = [];

/** Each schema's emptying statement, by schema: its tables and sequences never change once migrated. */
const emptyings = new Map<string, string>();

/**
 * Empties a schema's tables and restarts its ids, as `TRUNCATE … RESTART IDENTITY` would, in one
 * round trip. DELETE with the foreign keys' triggers off (`session_replication_role`, the admin
 * is the cluster's superuser) rather than TRUNCATE: TRUNCATE makes every table's files anew, 140
 * ms a store here, which the PostgreSQL half of the member suites paid on every test; a few
 * rows' DELETE costs a few milliseconds.
 */
async function emptyingOf(schema: string): Promise<string> {
  const known = emptyings.get(schema);
  if (known) return known;
  const tables = await admin!.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_version'`, [schema]);
  const sequences = await admin!.query<{ name: string }>(
    `SELECT quote_literal(quote_ident(schemaname) || '.' || quote_ident(sequencename)) AS name FROM pg_sequences WHERE schemaname = $1`, [schema]);
  const statement = [
    'BEGIN',
    'SET LOCAL session_replication_role = replica',
    ...tables.rows.map((t) => `DELETE FROM ${schema}.${t.name}`),
    // Each sequence as new: its next value its first.
    `SELECT ${sequences.rows.map((q) => `setval(${q.name}, 1, false)`).join(', ') || '1'}`,
    'COMMIT',
  ].join(';\n');
  emptyings.set(schema, statement);
  return statement;
}

/** A fresh, empty PostgreSQL store in a schema no other open store uses. */
export async function newPostgresStore(options: { max?: number } = {}): Promise<Store> {
  const reused = emptied.pop();
  const { url, schema } = reused ?? (await newPostgresSchema());
  const store = await openPostgresStore(url, options);
  let closed = false;
  return {
    ...store,
    async close() {
      // A second close must not hand the schema out twice.
      if (closed) return;
      closed = true;
      await store.close();
      await admin!.query(await emptyingOf(schema));
      emptied.push({ url, schema });
    },
  };
}

/**
 * Every foreign key and index of the client's schema as PostgreSQL would write it again, and
 * whether each key holds for every row: what a bulk load sets aside must come back as this was.
 */
export async function keysAndIndexes(client: pg.Client): Promise<{ keys: unknown[]; indexes: unknown[] }> {
  const keys = await client.query(
    `SELECT conrelid::regclass::text AS t, conname AS name, pg_get_constraintdef(oid) AS def, convalidated AS valid
     FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace ORDER BY 1, 2`);
  // indexdef names the table with its schema: left out, so two schemas compare.
  const indexes = await client.query(
    `SELECT indexname AS name, replace(indexdef, ' ON ' || schemaname || '.', ' ON ') AS def FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1`);
  return { keys: keys.rows, indexes: indexes.rows };
}
