/**
 * One SQLite connection as the store uses it: opened and migrated (open-database.ts), statements
 * prepared once and keyset pages (statements.ts), reads kept until the data changes
 * (kept-reads.ts), all-or-nothing batches that report broken rules as store errors (batches.ts).
 * ./index builds the Store on top of it.
 */
import type Database from 'better-sqlite3';
import { MissingReferenceError } from '../errors';
import type { Value } from '../sql-rows';
import { batchWriters } from './batches';
import { keptDefinitions, keptUntilChanged, type WriteCount } from './kept-reads';
import { openDatabase } from './open-database';
import { statementsOf } from './statements';

export type SqliteConnection = ReturnType<typeof connect>;

export function connect(path: string) {
  const db = openDatabase(path);
  const count: WriteCount = { writes: 0 };
  const statements = statementsOf(db);
  const { first } = statements;
  const write = (statement: Database.Statement, ...params: Value[]): Database.RunResult => {
    count.writes++;
    return statement.run(...params);
  };

  const noSite = (siteId: number) =>
    first('SELECT 1 FROM sites WHERE id = ?', siteId) !== undefined ? undefined : new MissingReferenceError('siteId', `site ${siteId} does not exist`);
  const noRow = (table: string, field: string, siteId: number, id: number) =>
    first(`SELECT 1 FROM ${table} WHERE site_id = ? AND id = ?`, siteId, id) !== undefined
      ? undefined
      : new MissingReferenceError(field, `${field} ${id} does not exist in site ${siteId}`);

  return {
    db,
    ...statements,
    untilChanged: keptUntilChanged(db, count),
    definition: keptDefinitions(db),
    write,
    ...batchWriters(db, statements.sql, count),
    noSite,
    noRow,
  };
}
