/**
 * `svc migrate`: brings the database to this build's schema and says where it stands. `svc serve`
 * and every other command migrate on open as well; this is the step an operator runs on its own,
 * before starting new processes, or to see that a database is current.
 */
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describeDatabase, isPostgresUrl } from '../../service/store/open';
import { MIGRATIONS as POSTGRES_MIGRATIONS, migratePostgres } from '../../service/store/postgres/migrations';
import { MIGRATIONS as SQLITE_MIGRATIONS, migrate } from '../../service/store/sqlite/migrations';
import { ownerOnlyDatabase } from '../../service/store/sqlite/owner-only';
import { dbPath, UsageError } from '../config';
import type { Io } from '../io';

export const MIGRATE_USAGE = ['svc migrate [--db PATH_OR_URL]   (prints {"version":N,"ran":K})'];

export async function migrateCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { db: { type: 'string' } } });
  if (positionals.length > 0) throw new UsageError(`migrate takes no arguments, got ${positionals[0]}`);
  const database = dbPath(values.db, env);
  const { version, ran } = isPostgresUrl(database) ? await migrateOnPostgres(database) : migrateOnSqlite(database);
  io.err(ran === 0 ? `${describeDatabase(database)} is at schema version ${version}: nothing to do` : `${describeDatabase(database)}: ran ${ran} step(s), now at schema version ${version}`);
  io.out(JSON.stringify({ version, ran }));
  return 0;
}

function migrateOnSqlite(path: string): { version: number; ran: number } {
  ownerOnlyDatabase(path);
  const db = new Database(path, { timeout: 5000 });
  try {
    return { ran: migrate(db), version: SQLITE_MIGRATIONS.length };
  } finally {
    db.close();
  }
}

async function migrateOnPostgres(url: string): Promise<{ version: number; ran: number }> {
  const client = new pg.Client({ connectionString: url, application_name: 'svc migrate' });
  await client.connect();
  try {
    return { ran: await migratePostgres(client), version: POSTGRES_MIGRATIONS.length };
  } finally {
    await client.end();
  }
}
