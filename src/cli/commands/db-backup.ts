/**
 * `svc db backup --to FILE`: a consistent copy of a SQLite database while `svc serve` runs, by
 * SQLite's online backup (better-sqlite3's `backup`: pages copied in steps, writers never
 * blocked for long, and a write made meanwhile restarts the step, so the copy is one moment's).
 * The copy is owner-only from its first byte (it holds members' data, sessions' hashes and the
 * mail outbox's live links) and never written over an existing file. It is a database `svc serve
 * --db FILE` opens as it is: restoring is stopping the service, putting the file in place of the
 * database (without the old -wal and -shm), and starting it. PostgreSQL has pg_dump for this.
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { describeDatabase, isPostgresUrl } from '../../service/store/open';
import { dbPath, UsageError } from '../config';
import type { Io } from '../io';

export const DB_BACKUP_USAGE = 'svc db backup --to FILE [--db PATH]   (a SQLite database, also while svc serve runs; an owner-only copy, never over an existing file)';

export async function dbBackupCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { to: { type: 'string' }, db: { type: 'string' } } });
  if (positionals.length > 0) throw new UsageError(`db backup takes no arguments, got ${positionals[0]}`);
  if (!values.to) throw new UsageError('db backup needs --to FILE');
  const database = dbPath(values.db, env);
  if (isPostgresUrl(database)) throw new UsageError('db backup copies a SQLite database; back up PostgreSQL with pg_dump (README, "Backups")');
  if (database === ':memory:' || database.startsWith('file:')) throw new UsageError('db backup copies a database file, not an in-memory one');
  if (!existsSync(database)) throw new UsageError(`${database}: no such database file`);
  if (existsSync(values.to)) {
    io.err(`${values.to} exists already: a backup never writes over a file`);
    return 1;
  }
  // Owner-only before SQLite writes a page into it ('wx': made here, or refused).
  closeSync(openSync(values.to, 'wx', 0o600));
  const started = performance.now();
  const source = new Database(database, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(values.to);
  } finally {
    source.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const bytes = statSync(values.to).size;
  io.err(`backed up ${describeDatabase(database)} to ${values.to}: ${bytes.toLocaleString('en-US')} bytes in ${seconds.toFixed(1)} s`);
  io.out(JSON.stringify({ from: describeDatabase(database), to: values.to, bytes, seconds: Number(seconds.toFixed(1)) }));
  return 0;
}
