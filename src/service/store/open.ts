/**
 * Opens the store a database setting names (`--db`, SVC_DB): a `postgres://` or
 * `postgresql://` URL selects PostgreSQL; anything else is a SQLite file (`:memory:` and
 * `file:` URIs included). Either is migrated to the newest schema on open. Node-only.
 */
import { openSqliteStore } from './sqlite';
import type { Store } from './store';

export const isPostgresUrl = (database: string): boolean => /^postgres(ql)?:\/\//i.test(database);

export interface OpenOptions {
  /** PostgreSQL: the most connections the pool opens (default 10). */
  maxConnections?: number;
}

export async function openStore(database: string, { maxConnections }: OpenOptions = {}): Promise<Store> {
  if (isPostgresUrl(database)) {
    // Loaded for a PostgreSQL URL only: its driver and store were about a tenth of `svc serve`'s
    // start on SQLite, which does without them.
    const { openPostgresStore } = await import('./postgres');
    return openPostgresStore(database, maxConnections === undefined ? {} : { max: maxConnections });
  }
  return openSqliteStore(database);
}

/** The database as logs may show it: a URL's password is left out. */
export function describeDatabase(database: string): string {
  if (!isPostgresUrl(database)) return database;
  try {
    const url = new URL(database);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'a PostgreSQL database (its URL does not parse)';
  }
}
