/**
 * A bulk load on PostgreSQL (Store.bulkLoad, decision 0028): what pg_restore does. Each row's
 * foreign-key check is a query of the referenced table that also locks the referenced row (about
 * 45% of an insert into the member tables here), and each index takes an entry per row, which a
 * sorted build at the end makes for a fraction of the cost. So for a load the foreign keys and
 * the indexes of the member tables are set aside, the rows written, and the indexes built and
 * the keys added back (which checks every row at once, one join per key), all in one
 * transaction: nobody ever sees the tables without them, and a row that breaks a key fails the
 * whole load. Primary keys stay, and so do the unique indexes the primary key does not imply:
 * they decide what a write does (a ConflictError, ON CONFLICT).
 * Setting them aside locks each table and the tables it references until the load ends, so the
 * service waits meanwhile.
 */
import pg from 'pg';
import type { Param, PostgresConnection, Sql } from './connection';

/** The tables a bulk load fills: members and everything a member has or did. */
export const MEMBER_TABLES = [
  'members', 'signup_values', 'memberships', 'member_events', 'content_views', 'invoices', 'payment_methods',
  'sessions', 'member_metadata', 'member_tokens',
] as const;

/** A foreign key or index as PostgreSQL declares it, to be made again as it was. */
interface SetAside {
  table: string;
  name: string;
  /** The constraint's definition (ADD CONSTRAINT name …) or the whole CREATE INDEX statement. */
  definition: string;
}

/** What breaks a key added back: the row that has no match, named as PostgreSQL names it. */
export class BulkLoadReferenceError extends Error {
  override readonly name = 'BulkLoadReferenceError';
}

/**
 * Drops the foreign keys and the indexes that decide nothing of `tables`, in the caller's transaction;
 * answers a function that makes them again (the indexes first, so a key's check can use them)
 * in the same transaction, to be called before it commits.
 */
export async function setAsideForLoad(sql: Pick<Sql, 'raw' | 'run'>, tables: readonly string[]): Promise<() => Promise<void>> {
  const read = async (select: string, ...params: Param[]) =>
    (await sql.raw(select, ...params)).map(([table, name, definition]) => ({ table, name, definition }) as SetAside);
  const keys = await read(
    `SELECT conrelid::regclass::text, quote_ident(conname), pg_get_constraintdef(oid) FROM pg_constraint
     WHERE contype = 'f' AND conrelid = ANY(?::regclass[]) ORDER BY 1, 2`,
    tables,
  );
  // Non-unique indexes, and unique ones whose columns include the primary key's (as (site_id, id)):
  // the primary key alone keeps those unique. None that a constraint kept meanwhile relies on.
  const indexes = await read(
    `SELECT i.indrelid::regclass::text, i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i
     WHERE i.indrelid = ANY(?::regclass[]) AND NOT i.indisprimary
       AND (NOT i.indisunique OR EXISTS (
         SELECT 1 FROM pg_index p WHERE p.indrelid = i.indrelid AND p.indisprimary AND p.indkey::int2[] <@ i.indkey::int2[]))
       AND NOT EXISTS (
         SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND (c.contype <> 'f' OR c.conrelid <> ALL(?::regclass[])))
     ORDER BY 1, 2`,
    tables,
    tables,
  );
  for (const key of keys) await sql.run(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
  for (const index of indexes) await sql.run(`DROP INDEX ${index.name}`);
  return async () => {
    for (const index of indexes) await sql.run(index.definition);
    for (const key of keys) {
      try {
        await sql.run(`ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`);
      } catch (error) {
        if (!(error instanceof pg.DatabaseError && error.code === '23503')) throw error;
        throw new BulkLoadReferenceError(`the load wrote a row of ${key.table} that breaks ${key.name}: ${error.detail ?? error.message}`);
      }
    }
  };
}

/** Runs `work` as a bulk load: one transaction on one connection, the member tables' keys and indexes made at the end. */
export function bulkLoadOn<S, T>(conn: PostgresConnection, storeOn: (conn: PostgresConnection) => S, work: (store: S) => Promise<T>): Promise<T> {
  return conn.within(async (pinned) => {
    const restore = await setAsideForLoad(pinned, MEMBER_TABLES);
    const result = await work(storeOn(pinned));
    await restore();
    return result;
  });
}
