/**
 * One SQLite connection as the store uses it: opened and migrated, statements prepared once,
 * keyset pages, all-or-nothing batches that report broken rules as store errors, and
 * aggregates kept until the data changes. ./index builds the Store on top of it.
 */
import Database from 'better-sqlite3';
import { DefinitionCache } from '../definition-cache';
import { ConflictError, MissingReferenceError } from '../errors';
import type { Page, PageRequest } from '../queries';
import { migrate } from './migrations';
import { ownerOnlyDatabase } from './owner-only';
import { type RawRow, type Row, type Value, UNIQUE_FIELDS, Where, isConstraint } from '../sql-rows';

export type SqliteConnection = ReturnType<typeof connect>;

/**
 * Rows to a statement in multiRowInsert. The demo seed's 274,000 invoices and 63,000 cards (100,000
 * members) took 1.06 s of CPU at 100 a statement, 1.46 s at one (each batch one transaction either
 * way); 10 to 200 measured alike.
 */
const BATCH_ROWS = 100;
/** Prepared statements a connection keeps (each kind: rows as objects, rows as arrays). */
const MAX_STATEMENTS = 2000;
/** The broken rules insertBatch answers by writing the rows one at a time. */
const CONSTRAINTS = [
  'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_NOTNULL',
  'SQLITE_CONSTRAINT_CHECK',
];

/**
 * Statements prepared once, by their text. The texts are the store's own, but a page's filters
 * and size make many of them (decision 0027: the limit is written in), so past MAX_STATEMENTS the
 * cache starts over rather than grow for as long as the process runs.
 */
function preparedOnce(prepare: (text: string) => Database.Statement): (text: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (text) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= MAX_STATEMENTS) statements.clear();
      statements.set(text, (statement = prepare(text)));
    }
    return statement;
  };
}

export function connect(path: string) {
  ownerOnlyDatabase(path);
  const db = new Database(path, { timeout: 5000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 64 MiB page cache (default 2 MiB): index inserts in random key order, e.g. member e-mails
    // during a seed, ran ~1.8x faster with it in measurements.
    db.pragma('cache_size = -65536');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }

  const sql = preparedOnce((text) => db.prepare(text));
  const first = (text: string, ...params: Value[]): Row | undefined => sql(text).get(...params) as Row | undefined;
  const exists = (table: string, siteId: number, id: number): boolean =>
    first(`SELECT 1 FROM ${table} WHERE site_id = ? AND id = ?`, siteId, id) !== undefined;
  const siteExists = (id: number): boolean => first('SELECT 1 FROM sites WHERE id = ?', id) !== undefined;

  /*
   * Aggregates over a whole site (site metrics, members per plan) take a few hundred ms at a
   * million members and block the event loop meanwhile. They are kept until the database
   * changes: through this connection (`writes`) or any other (`PRAGMA data_version`), so a
   * cached answer is always the answer the data gives now.
   */
  let writes = 0;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const aggregates = new Map<string, { version: string; value: unknown }>();
  function untilChanged<T>(key: string, compute: () => T): T {
    const version = `${dataVersion.get() as number}:${writes}`;
    const hit = aggregates.get(key);
    if (hit?.version === version) return hit.value as T;
    if (aggregates.size >= 1000) aggregates.clear();
    const value = compute();
    aggregates.set(key, { version, value });
    return value;
  }
  /*
   * A site's definition (sites, plans, sign-up fields, API keys) is kept until its version moves:
   * schema triggers move it on every write to those tables, by any connection, so one cheap read
   * tells whether what is kept is still what the data says (../definition-cache). Nothing is kept
   * from inside a transaction, whose reads may yet be rolled back.
   */
  const definitionVersion = db.prepare('SELECT version FROM definition_version').pluck();
  const definitions = new DefinitionCache();
  let keptAt = -1;
  function definition<T>(key: string, read: () => T): T {
    if (db.inTransaction) return read();
    const version = definitionVersion.get() as number;
    if (version !== keptAt) {
      definitions.clear();
      keptAt = version;
    }
    const kept = definitions.get<T>(key);
    return kept !== undefined ? kept : definitions.keep(key, read());
  }
  const write = (statement: Database.Statement, ...params: Value[]): Database.RunResult => {
    writes++;
    return statement.run(...params);
  };

  /** Raw-mode statements (rows as arrays), cached apart: `raw()` is a mode of the statement. */
  const rawSql = preparedOnce((text) => db.prepare(text).raw(true));
  const firstRaw = (text: string, ...params: Value[]) => rawSql(text).get(...params) as RawRow | undefined;

  /**
   * A keyset page: fetches limit + 1 rows to learn whether more follow. The limit is written into
   * the statement, not bound: SQLite (3.53 here) plans with a bound LIMIT's value, so binding it
   * again expires the statement and every page was parsed and planned anew, about 8 µs of 12 for
   * a short page (decision 0027). One statement per page size and filter set (MAX_STATEMENTS).
   */
  function page<T>(select: string, idColumn: string, where: Where, req: PageRequest, map: (r: RawRow) => T): Page<T> {
    where.add(`${idColumn} > ?`, req.afterId ?? 0);
    if (!Number.isSafeInteger(req.limit) || req.limit < 0) throw new RangeError(`a page's limit must be a whole number, got ${req.limit}`);
    const rows = rawSql(`${select} WHERE ${where} ORDER BY ${idColumn} LIMIT ${req.limit + 1}`).all(...where.params) as RawRow[];
    const hasMore = rows.length > req.limit;
    return { items: (hasMore ? rows.slice(0, req.limit) : rows).map(map), hasMore };
  }

  /**
   * Inserts every row in one transaction, returning the new ids in input order. On a broken
   * rule it rolls back and throws the store error; `missing` names the bad reference of the
   * failing row (queried only then).
   */
  function insertAll<T>(
    rows: readonly T[],
    insert: (row: T) => Database.RunResult,
    missing: (row: T) => MissingReferenceError | undefined,
  ): number[] {
    let current = 0;
    const run = db.transaction(() => {
      const ids = new Array<number>(rows.length);
      for (current = 0; current < rows.length; current++) ids[current] = Number(insert(rows[current]!).lastInsertRowid);
      return ids;
    });
    try {
      writes++;
      return run();
    } catch (error) {
      if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
        const hit = UNIQUE_FIELDS.find(([column]) => error.message.includes(column));
        if (hit) throw new ConflictError(hit[1], `${hit[1]} is taken: ${error.message}`);
      }
      if (isConstraint(error, 'SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_NOTNULL')) {
        const reference = current < rows.length ? missing(rows[current]!) : undefined;
        if (reference) throw reference;
      }
      throw error;
    }
  }
  /**
   * Inserts rows many to a statement, `head` (`INSERT INTO t (columns)`) followed by up to
   * BATCH_ROWS rows of `columns` values each, in the caller's transaction: one call into SQLite
   * per BATCH_ROWS rows rather than per row. `values` writes a row's values into `params` from `at`.
   */
  function multiRowInsert<T>(head: string, columns: number, values: (row: T, params: Value[], at: number) => void) {
    const tuple = `(${Array(columns).fill('?').join(', ')})`;
    const text = (rows: number) => `${head} VALUES ${Array(rows).fill(tuple).join(', ')}`;
    const full = db.prepare(text(BATCH_ROWS));
    const params = new Array<Value>(BATCH_ROWS * columns);
    return (rows: readonly T[]): void => {
      let start = 0;
      for (; start + BATCH_ROWS <= rows.length; start += BATCH_ROWS) {
        for (let k = 0; k < BATCH_ROWS; k++) values(rows[start + k]!, params, k * columns);
        full.run(params);
      }
      const rest = rows.length - start;
      if (rest === 0) return;
      const last = new Array<Value>(rest * columns);
      for (let k = 0; k < rest; k++) values(rows[start + k]!, last, k * columns);
      sql(text(rest)).run(last);
    };
  }

  /**
   * Writes a batch with `write` (multi-row statements) in one transaction. On a broken rule it
   * rolls back and writes the rows one at a time with insertAll instead, in one transaction too:
   * that throws the store error of the first row the one-row method would reject (and, should
   * every row pass after all, writes them as the one-row method would).
   */
  function insertBatch<T>(
    rows: readonly T[],
    write: (rows: readonly T[]) => void,
    insert: (row: T) => Database.RunResult,
    missing: (row: T) => MissingReferenceError | undefined,
  ): void {
    if (rows.length === 0) return;
    const run = db.transaction(write);
    try {
      writes++;
      run(rows);
    } catch (error) {
      if (!isConstraint(error, ...CONSTRAINTS)) throw error;
      insertAll(rows, insert, missing);
    }
  }

  const noSite = (siteId: number) =>
    siteExists(siteId) ? undefined : new MissingReferenceError('siteId', `site ${siteId} does not exist`);
  const noRow = (table: string, field: string, siteId: number, id: number) =>
    exists(table, siteId, id) ? undefined : new MissingReferenceError(field, `${field} ${id} does not exist in site ${siteId}`);

  return { db, sql, first, rawSql, firstRaw, untilChanged, definition, write, page, insertAll, multiRowInsert, insertBatch, noSite, noRow };
}
