/**
 * The PostgreSQL database of request-cost.ts: the seeded SQLite file copied once with `svc db
 * copy` into database `svc_bench_<N>` of a server, and every run on a fresh clone of it (`CREATE
 * DATABASE … TEMPLATE`, a file copy inside the server), so the copy stays as seeded.
 *
 * The server is the one `--pg postgres://…` names (a role that may create databases), or else a
 * cluster of the bench's own under bench/.cache/postgres/, started on a free loopback port for
 * the run and stopped after it (Debian's server binaries; as root the cluster belongs to the
 * `postgres` user). No server binaries and no URL, or no PostgreSQL store in the tree yet: the
 * PostgreSQL rows are skipped with the reason.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, postgresBinDir } from '../../scripts/lib/postgres-cluster';
import { run } from './children';

export interface PostgresDb {
  /** The run's clone. */
  url: string;
  /** The bench's own cluster's postmaster (its backends are its children); undefined for a --pg server. */
  pid: number | undefined;
  /** Drops the clone and stops the bench's own cluster (a clean-up step: synchronous). */
  stop(): void;
}

export interface PostgresOptions {
  repoRoot: string;
  /** The seeded SQLite file to copy from (read only by the copy). */
  sqlitePath: string;
  members: number;
  /** A server URL given with --pg; its path's database is only used to connect. */
  given: string | undefined;
  log(line: string): void;
}

const COMPLETE = 'svc bench copy, complete';

/** The database, or why there is none. */
export async function preparePostgres(options: PostgresOptions): Promise<PostgresDb | string> {
  if (!existsSync(join(options.repoRoot, 'src/service/store/postgres/index.ts'))) return 'no PostgreSQL store in this tree (src/service/store/postgres/index.ts)';
  let server: { url: string; pid?: number; stop(): void };
  if (options.given !== undefined) server = { url: options.given, stop: () => undefined };
  else {
    const started = await startOwnCluster(join(options.repoRoot, 'bench/.cache/postgres'), options.log);
    if (typeof started === 'string') return started;
    server = started;
  }
  const at = (database: string) => {
    const url = new URL(server.url);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const admin = new pg.Client({ connectionString: server.url });
  try {
    await admin.connect();
    const seeded = `svc_bench_${options.members}`;
    const found = await admin.query<{ comment: string | null }>(
      'SELECT shobj_description(oid, \'pg_database\') AS comment FROM pg_database WHERE datname = $1',
      [seeded],
    );
    if (found.rows[0]?.comment !== COMPLETE) {
      if (found.rows.length) await admin.query(`DROP DATABASE ${seeded}`);
      await admin.query(`CREATE DATABASE ${seeded}`);
      options.log(`copying ${options.sqlitePath} into PostgreSQL database ${seeded} (once; later runs reuse it)`);
      const started = performance.now();
      await run(process.execPath, [join(options.repoRoot, 'bin/svc.js'), 'db', 'copy', '--from', options.sqlitePath, '--to', at(seeded)], {
        cwd: options.repoRoot,
        label: '[copy] ',
      });
      await admin.query(`COMMENT ON DATABASE ${seeded} IS '${COMPLETE}'`);
      options.log(`copied in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    const clone = 'svc_bench_run';
    await admin.query(`DROP DATABASE IF EXISTS ${clone}`);
    await admin.query(`CREATE DATABASE ${clone} TEMPLATE ${seeded}`);
    // Fresh statistics for the planner, as a server that has run a while has them.
    const cloneClient = new pg.Client({ connectionString: at(clone) });
    await cloneClient.connect();
    await cloneClient.query('ANALYZE');
    await cloneClient.end();
    return {
      url: at(clone),
      pid: server.pid,
      stop: () => {
        try {
          if (options.given !== undefined) {
            execFileSync('psql', [server.url, '-qc', `DROP DATABASE IF EXISTS ${clone}`], { stdio: 'ignore' });
          }
        } finally {
          server.stop();
        }
      },
    };
  } catch (error) {
    server.stop();
    return `PostgreSQL preparation failed: ${(error as Error).message}`;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** The bench's own cluster in `dir` (created on first use), started on a free port. */
async function startOwnCluster(dir: string, log: (line: string) => void): Promise<{ url: string; pid: number; stop(): void } | string> {
  const bin = postgresBinDir();
  if (!bin) return 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin, and no --pg URL';
  const asRoot = userInfo().uid === 0;
  const owner = (id: '-u' | '-g') => Number(execFileSync('id', [id, 'postgres'], { encoding: 'utf8' }).trim());
  const pgRun = (program: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : join(bin, program), asRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    if (asRoot) chownSync(dir, owner('-u'), owner('-g'));
    log(`creating the bench's PostgreSQL cluster in ${dir}`);
    pgRun('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  }
  const port = await freePort();
  // Not durable (the copy can be made again), as the test clusters; otherwise the server's defaults.
  const settings = { listen_addresses: '127.0.0.1', port, unix_socket_directories: dir, max_connections: 200, fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };
  const flags = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ');
  try {
    pgRun('pg_ctl', ['start', '-D', data, '-w', '-t', '120', '-l', join(dir, 'server.log'), '-o', flags]);
  } catch (error) {
    return `the bench's PostgreSQL cluster did not start (see ${join(dir, 'server.log')}): ${(error as Error).message.split('\n')[0]}`;
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // postmaster.pid's first line; as root the file is the postgres user's, readable by us.
    pid: Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: () => {
      if (stopped) return;
      stopped = true;
      pgRun('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
    },
  };
}
