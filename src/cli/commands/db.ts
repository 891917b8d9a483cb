/**
 * `svc db copy --from A --to B`: moves a whole installation between databases (a SQLite file and
 * a PostgreSQL URL, either way, or two of a kind). See src/service/store/copy/copy-database.ts.
 * `svc db backup`: ./db-backup.ts.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { copyDatabase, CopyRefusedError } from '../../service/store/copy/copy-database';
import { postgresTables } from '../../service/store/copy/postgres-tables';
import { sqliteTables } from '../../service/store/copy/sqlite-tables';
import type { TableIO } from '../../service/store/copy/table-io';
import { describeDatabase, isPostgresUrl } from '../../service/store/open';
import { UsageError } from '../config';
import type { Io } from '../io';
import { DB_BACKUP_USAGE, dbBackupCommand } from './db-backup';

export const DB_USAGE = ['svc db copy --from PATH_OR_URL --to PATH_OR_URL [--sample N]   (the target must be empty)', DB_BACKUP_USAGE];

export async function dbCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'backup') return dbBackupCommand(rest, env, io);
  if (sub !== 'copy') throw new UsageError(sub === undefined ? 'db needs a subcommand: copy or backup' : `unknown db subcommand ${sub}`);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, sample: { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError(`db copy takes no arguments, got ${positionals[0]}`);
  if (!values.from || !values.to) throw new UsageError('db copy needs --from and --to');
  if (sameDatabase(values.from, values.to)) throw new UsageError('db copy needs two different databases');
  const sample = Number(values.sample ?? 100);
  if (!/^\d+$/.test(values.sample ?? '100') || sample > 100_000) throw new UsageError('--sample must be a whole number up to 100000');
  if (isMemory(values.from) || isMemory(values.to)) throw new UsageError('db copy moves data between databases that outlive it: not :memory:');
  if (!isPostgresUrl(values.from) && !existsSync(values.from)) throw new UsageError(`--from ${values.from}: no such database file`);

  const source = await open(values.from);
  let target: TableIO | undefined;
  try {
    target = await open(values.to);
    io.err(`copying ${source.label} to ${target.label}`);
    const started = performance.now();
    let lastReport = 0;
    const reports = await copyDatabase(source, target, {
      sample,
      onProgress: (table, copied, total) => {
        if (performance.now() - lastReport < 1000 && copied < total) return;
        lastReport = performance.now();
        io.err(`${table}: ${copied.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} rows`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const rows = reports.reduce((sum, r) => sum + r.rows, 0);
    io.err(`copied ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s; every table's count and ${reports.reduce((s, r) => s + r.sampled, 0)} sampled rows compare equal`);
    io.out(JSON.stringify({ from: describeDatabase(values.from), to: describeDatabase(values.to), seconds: Number(seconds.toFixed(1)), tables: Object.fromEntries(reports.map((r) => [r.table, r.rows])) }));
    return 0;
  } catch (error) {
    if (error instanceof CopyRefusedError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await target?.close();
    await source.close();
  }
}

/** The same URL, or two names of one file. */
const sameDatabase = (a: string, b: string) => (isPostgresUrl(a) || isPostgresUrl(b) ? a === b : resolve(a) === resolve(b));
const isMemory = (database: string) => database === ':memory:' || database === '' || /^file:(:memory:|.*mode=memory)/.test(database);
const open = (database: string): Promise<TableIO> => (isPostgresUrl(database) ? postgresTables(database) : Promise.resolve(sqliteTables(database)));
