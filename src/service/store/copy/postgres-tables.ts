/** `svc db copy` on PostgreSQL: one connection of the store's pool, one transaction on it. */
import type pg from 'pg';
import { connectPostgres, copyRows, insertRows, type Param } from '../postgres/connection';
import { describeDatabase } from '../open';
import { after, keyEquals, type Cell, type TableIO, type TableRow } from './table-io';
import { setAsideForLoad } from '../postgres/bulk-load';
import { BOOKKEEPING_TABLES, COPIED_TABLES } from './tables';

/** `?` to `$n`, as the store's connection numbers them. */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

export async function postgresTables(url: string): Promise<TableIO> {
  const conn = await connectPostgres(url, { max: 1 });
  const client: pg.PoolClient = await conn.pool.connect();
  const rows = async (text: string, ...params: Param[]) =>
    (await client.query({ text: numbered(text), values: params as unknown[], rowMode: 'array' })).rows as TableRow[];
  const one = async (text: string, ...params: Cell[]) => (await rows(text, ...params))[0]?.[0];
  // Writes go straight through this client: it is already inside the transaction beginWrite opened.
  const tx = {
    run: async (text: string, ...params: Param[]) => (await client.query(numbered(text), params as unknown[])).rowCount ?? 0,
    copy: (into: string, rows: ReadonlyArray<readonly Param[]>) => copyRows(client, into, rows),
    raw: rows,
  };
  /** Makes again the keys and indexes beginWrite set aside; undefined outside a write. */
  let restoreForLoad: (() => Promise<void>) | undefined;
  return {
    label: describeDatabase(url),
    async tables() {
      return (await rows(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_version'`))
        .map((r) => r[0] as string)
        .filter((table) => !BOOKKEEPING_TABLES.includes(table));
    },
    async columns(table) {
      return (await rows(
        `SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(?) AND attnum > 0 AND NOT attisdropped ORDER BY attnum`, table))
        .map((r) => r[0] as string);
    },
    async count(table) {
      return Number(await one(`SELECT count(*) FROM ${table}`));
    },
    async read(table, columns, key, afterKey, limit) {
      const where = afterKey ? `WHERE ${after(key)}` : '';
      return rows(`SELECT ${columns.join(', ')} FROM ${table} ${where} ORDER BY ${key.join(', ')} LIMIT ?`, ...(afterKey ?? []), limit);
    },
    async find(table, columns, key, values) {
      return (await rows(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${keyEquals(key)}`, ...values))[0];
    },
    async sampleKeys(table, key, n) {
      return rows(`SELECT ${key.join(', ')} FROM ${table} ORDER BY random() LIMIT ?`, n);
    },
    async lastId(table) {
      const sequence = (await one(`SELECT pg_get_serial_sequence(?, 'id')`, table)) as string | null;
      const max = Number(await one(`SELECT coalesce(max(id), 0) FROM ${table}`));
      if (!sequence) return max;
      const [last, called] = (await rows(`SELECT last_value, is_called FROM ${sequence}`))[0]!;
      return Math.max(max, called ? Number(last) : 0);
    },
    async beginRead() {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    },
    async beginWrite() {
      await client.query('BEGIN');
      // As a bulk load (../postgres/bulk-load): keys checked and indexes built once, at the end, not row by row.
      restoreForLoad = await setAsideForLoad(tx, COPIED_TABLES.map((t) => t.name));
    },
    async write(table, columns, batch) {
      // One after another: a pg client runs one query at a time (concurrent calls are deprecated).
      await insertRows(tx, `${table} (${columns.join(', ')})`, batch);
    },
    async continueIds(table, lastId) {
      if (lastId > 0) await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2)`, [table, lastId]);
    },
    async commit() {
      await restoreForLoad?.();
      restoreForLoad = undefined;
      await client.query('COMMIT');
    },
    async rollback() {
      restoreForLoad = undefined;
      await client.query('ROLLBACK');
    },
    async close() {
      client.release();
      await conn.close();
    },
  };
}
