/** Statements prepared once by their text, and the reads built on them: a first row, a keyset page. */
import type Database from 'better-sqlite3';
import type { Page, PageRequest } from '../queries';
import type { RawRow, Row, Value, Where } from '../sql-rows';

/** Prepared statements a connection keeps (each kind: rows as objects, rows as arrays). */
const MAX_STATEMENTS = 2000;

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

export function statementsOf(db: Database.Database) {
  const sql = preparedOnce((text) => db.prepare(text));
  const first = (text: string, ...params: Value[]): Row | undefined => sql(text).get(...params) as Row | undefined;
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

  return { sql, first, rawSql, firstRaw, page };
}
