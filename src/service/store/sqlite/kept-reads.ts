/**
 * Reads kept until the data they come from changes, so a kept answer is always the answer the
 * data gives now.
 */
import type Database from 'better-sqlite3';
import { DefinitionCache } from '../definition-cache';

/** Writes through this connection, counted: a kept aggregate is stale once the count moves. */
export interface WriteCount {
  writes: number;
}

/**
 * Aggregates over a whole site (site metrics, members per plan) take a few hundred ms at a
 * million members and block the event loop meanwhile. They are kept until the database changes:
 * through this connection (`count.writes`) or any other (`PRAGMA data_version`).
 */
export function keptUntilChanged(db: Database.Database, count: WriteCount) {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const aggregates = new Map<string, { version: string; value: unknown }>();
  return function untilChanged<T>(key: string, compute: () => T): T {
    const version = `${dataVersion.get() as number}:${count.writes}`;
    const hit = aggregates.get(key);
    if (hit?.version === version) return hit.value as T;
    if (aggregates.size >= 1000) aggregates.clear();
    const value = compute();
    aggregates.set(key, { version, value });
    return value;
  };
}

/**
 * A site's definition (sites, plans, sign-up fields, API keys) is kept until its version moves:
 * schema triggers move it on every write to those tables, by any connection, so one cheap read
 * tells whether what is kept is still what the data says (../definition-cache). Nothing is kept
 * from inside a transaction, whose reads may yet be rolled back.
 */
export function keptDefinitions(db: Database.Database) {
  const definitionVersion = db.prepare('SELECT version FROM definition_version').pluck();
  const definitions = new DefinitionCache();
  let keptAt = -1;
  return function definition<T>(key: string, read: () => T): T {
    if (db.inTransaction) return read();
    const version = definitionVersion.get() as number;
    if (version !== keptAt) {
      definitions.clear();
      keptAt = version;
    }
    const kept = definitions.get<T>(key);
    return kept !== undefined ? kept : definitions.keep(key, read());
  };
}
