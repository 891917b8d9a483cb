/**
 * Writing many rows: all or nothing, fast when every row is good, and when one is not, the store
 * error the one-row method would throw for it.
 */
import type Database from 'better-sqlite3';
import { ConflictError, type MissingReferenceError } from '../errors';
import { UNIQUE_FIELDS, type Value, isConstraint } from '../sql-rows';
import type { WriteCount } from './kept-reads';

/**
 * Rows to a statement in multiRowInsert. The demo seed's 274,000 invoices and 63,000 cards (100,000
 * members) took 1.06 s of CPU at 100 a statement, 1.46 s at one (each batch one transaction either
 * way); 10 to 200 measured alike.
 */
const BATCH_ROWS = 100;
/** The broken rules insertBatch answers by writing the rows one at a time. */
const CONSTRAINTS = [
  'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_NOTNULL',
  'SQLITE_CONSTRAINT_CHECK',
];

export function batchWriters(db: Database.Database, sql: (text: string) => Database.Statement, count: WriteCount) {
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
      count.writes++;
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
      count.writes++;
      run(rows);
    } catch (error) {
      if (!isConstraint(error, ...CONSTRAINTS)) throw error;
      insertAll(rows, insert, missing);
    }
  }

  return { insertAll, multiRowInsert, insertBatch };
}
