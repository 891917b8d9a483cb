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
import { openPostgresStore, openPostgresStoreOver } from '../../src/service/store/postgres';
import { connectPostgres, type PostgresConnection } from '../../src/service/store/postgres/connection';
import { shareDefinitionListener, type SharedDefinitionListener } from '../../src/service/store/postgres/definition-listener';
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
const emptied: Array<{ url: string; schema: string; pool?: PostgresConnection; listener?: SharedDefinitionListener }> = [];

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
  // The schema's pool and definition listener are kept from store to store (connecting and
  // checking the migrations were about 19 ms a store, the listener's connection 28), but for a
  // store that asks for a pool of its own size.
  let { pool, listener } = reused ?? {};
  if (options.max === undefined) {
    pool ??= await connectPostgres(url);
    listener ??= await shareDefinitionListener(url);
  }
  const store = options.max === undefined ? await openPostgresStoreOver(pool!, listener!) : await openPostgresStore(url, options);
  let closed = false;
  const wrapped: Store = {
    ...store,
    async close() {
      // A second close must not hand the schema out twice.
      if (closed) return;
      closed = true;
      await store.close();
      await admin!.query(await emptyingOf(schema));
      emptied.push({ url, schema, pool, listener });
    },
  };
  schemas.set(wrapped, schema);
  return wrapped;
}

/** Each open store's schema, for seedPostgresStore. */
const schemas = new WeakMap<Store, string>();

/** Whether the store is one of newPostgresStore's. */
export const isPostgresStore = (store: Store): boolean => schemas.has(store);

/** What seedPostgresStore keeps, by key: the statement that copies its template schema's rows into another schema, and what the seeding answered. */
const templates = new Map<string, Promise<{ restore: string; seeded: unknown }>>();

/**
 * Fills a new store from newPostgresStore with the rows `seed` writes, which must be the same for
 * the same `key` (the member suites' fixtures at their fixed time). The first store of a key is
 * seeded by `seed` and its rows copied to a template schema; every later one gets them copied back
 * in one round trip, with its ids going on where the seeded ones did, and `seed`'s answer again.
 * Writing the fixtures through the store was about 55 ms a store, on ~460 member tests a run.
 */
export async function seedPostgresStore<T>(store: Store, key: string, seed: () => Promise<T>): Promise<T> {
  const schema = schemas.get(store);
  if (!schema) throw new Error('seedPostgresStore takes a store from newPostgresStore');
  const known = templates.get(key);
  if (known) {
    const { restore, seeded } = await known;
    await admin!.query(restore.replaceAll(`"${TARGET}"`, schema));
    return structuredClone(seeded) as T;
  }
  const made = (async () => {
    const seeded = await seed();
    return { ...(await copyToTemplate(schema)), seeded };
  })();
  templates.set(key, made);
  try {
    return structuredClone((await made).seeded) as T;
  } catch (error) {
    templates.delete(key);
    throw error;
  }
}

/** Where a restoring statement names the schema it fills, replaced as it runs. */
const TARGET = 'svc_seed_target';

/** Copies a schema's rows to a new template schema (dropped with the test schemas); answers the statement that fills another schema from it. */
async function copyToTemplate(schema: string): Promise<{ restore: string }> {
  const { schema: template } = await newPostgresSchema();
  const tables = await admin!.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_version'`, [schema]);
  const sequences = await admin!.query<{ name: string; last: string | null }>(
    `SELECT quote_ident(sequencename) AS name, last_value::text AS last FROM pg_sequences WHERE schemaname = $1`, [schema]);
  await admin!.query(tables.rows.map((t) => `CREATE TABLE ${template}.${t.name} AS TABLE ${schema}.${t.name}`).join(';\n'));
  const target = `"${TARGET}"`;
  const restore = [
    'BEGIN',
    // The foreign keys' triggers off while the rows go in, as emptying does (the admin is a superuser).
    'SET LOCAL session_replication_role = replica',
    ...tables.rows.map((t) => `INSERT INTO ${target}.${t.name} SELECT * FROM ${template}.${t.name}`),
    `SELECT ${sequences.rows.filter((q) => q.last !== null).map((q) => `setval('${target}.${q.name}', ${q.last}, true)`).join(', ') || '1'}`,
    'COMMIT',
  ].join(';\n');
  return { restore };
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
