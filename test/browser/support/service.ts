/**
 * The real service for the browser suites: `svc sites create` makes the test site on a temporary
 * SQLite file, an optional `setup` fills it through the store (plans, fields, content: the CLI
 * has no command for them), then `svc serve` runs on a free port (cheap scrypt: SVC_SCRYPT=test).
 *
 * Both run in the test's worker, through the CLI's own code (`main` for the command, and
 * `startServing`, the part of `svc serve` before it waits for a signal, with the settings
 * `readServeSettings` makes of the same flags and environment). A `svc serve` child cost the
 * ~37 services of the browser suites a second of CPU each to start; test/cli runs it as a child.
 * Its log lines (pino's JSON) and what it says on stderr go to `log`, its stdout lines to `out`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { readServeSettings } from '../../../src/cli/commands/serve-setup';
import { startServing } from '../../../src/cli/commands/serve';
import { logServiceThrough } from '../../../src/cli/logger';
import { setLogSink } from '../../../src/service/diagnostics';
import type { SiteRecord } from '../../../src/service/store/records';
import { openSqliteStore } from '../../../src/service/store/sqlite';
import type { Store } from '../../../src/service/store/store';
import { run, svc } from '../../support/svc-process';
import { SITE_DOMAIN } from './chromium';

export { run, svc };

export const SUBDOMAIN = 'shop';
/**
 * Every browser in the suite signs up, signs in and asks for mail from 127.0.0.1, many members a
 * file: more than the default limits per client address allow (test/security/signup-limits.test.ts
 * and test/security/client-limits.test.ts prove those limits).
 */
const SUITE_PER_ADDRESS = '1000/1m';

export interface RunningService {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The service's SQLite file. */
  db: string;
  /** Everything the service logged and said on stderr, for failure messages. */
  log: string[];
  /**
   * Runs `use` on the test site through the store, on a connection of its own, closed after it.
   * The service reads the site on every request, so a setting changed here counts at once.
   */
  withStore<T>(use: (store: Store, site: SiteRecord) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /**
   * Fills the new site before the service starts (plans, sign-up fields, content, settings the
   * CLI has no command for): runs on the SQLite file right after `svc sites create`, through the
   * store; the store is closed when it is done, before `svc serve`.
   */
  setup?: (store: Store, site: SiteRecord) => Promise<void> | void;
  /** The temporary directory's prefix (`svc-browser-` when not given), to tell the files' services apart. */
  tempPrefix?: string;
  /** Environment for `svc serve` on top of the defaults (e.g. `SVC_SCRYPT: 'production'`). */
  env?: Record<string, string>;
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), options.tempPrefix ?? 'svc-browser-'));
  const db = join(dir, 'svc.db');
  const env = { ...SUITE_ENV, SVC_DB: db };
  try {
    await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Shop', '--domain', SITE_DOMAIN, '--db', db], env);
    if (options.setup) await withSite(db, options.setup);
    // The site exists, so serve seeds no demo data.
    const serving = await serve({ db, demo: false }, { ...env, ...options.env }, dir);
    return { ...serving, db, withStore: (use) => withSite(db, use) };
  } catch (error) {
    // Nothing is left behind when the site, the setup or the start fails.
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Opens the SQLite file as a store (a second connection beside the service's), hands over the test site, and closes it. */
async function withSite<T>(db: string, use: (store: Store, site: SiteRecord) => Promise<T> | T): Promise<T> {
  const store = openSqliteStore(db);
  try {
    const site = await store.getSiteBySubdomain(SUBDOMAIN);
    if (!site) throw new Error(`no site ${SUBDOMAIN} in ${db}`);
    return await use(store, site);
  } finally {
    await store.close();
  }
}

export interface DemoService extends Omit<RunningService, 'withStore'> {
  /** The Admin API key (all scopes) `svc serve` printed when it seeded the demo site. */
  adminKey: string;
}

/**
 * `svc serve --demo` on an empty database, as `npm start` on a fresh machine: it seeds the demo site
 * (subdomain `demo`, the member `ada@demo.localhost` / `demo-password`) and prints an Admin API key.
 * `extraEnv` goes on top of the defaults (the owner console's tests set `SVC_ADMIN_RATE_LIMIT`).
 */
export async function startDemoService(tempPrefix = 'svc-demo-', extraEnv: Record<string, string> = {}): Promise<DemoService> {
  const dir = mkdtempSync(join(tmpdir(), tempPrefix));
  const db = join(dir, 'svc.db');
  const serving = await serve({ db, demo: true }, { ...SUITE_ENV, SVC_DB: db, ...extraEnv }, dir);
  // The key goes out before "serving on" (serve-setup.ts's announce), once.
  const adminKey = serving.out.find((line) => line.startsWith('svc_admin_'));
  if (!adminKey) {
    await serving.stop();
    throw new Error(`svc serve --demo printed no Admin API key:\n${serving.log.join('\n')}`);
  }
  return { ...serving, db, adminKey };
}

/** The environment every service of the suite gets (on top of this process's, as a child's would be). */
const SUITE_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  SVC_SCRYPT: 'test',
  SVC_SIGNUP_RATE_LIMIT: SUITE_PER_ADDRESS,
  SVC_SIGNIN_RATE_LIMIT: SUITE_PER_ADDRESS,
  SVC_MAIL_RATE_LIMIT: SUITE_PER_ADDRESS,
};

/**
 * `svc serve [--demo] --db DB` in this process, with `env` on top of this process's environment,
 * once it serves; `stop()` is its graceful stop (as SIGTERM's), then `dir` goes.
 */
async function serve(flags: { db: string; demo: boolean }, env: Record<string, string>, dir: string) {
  const log: string[] = [];
  const out: string[] = [];
  const settings = readServeSettings(flags, { ...process.env, ...env });
  // pino's lines into `log` rather than onto the worker's stderr (serviceLogger writes to fd 2),
  // and the service's own messages with them (the last service's, while it runs).
  const lines = new Writable({
    write(chunk, _, done) {
      log.push(String(chunk).trimEnd());
      done();
    },
  });
  const logger = pino({ level: settings.logger.level }, lines);
  logServiceThrough(logger);
  // The sink is the process's: once the service stops, the console has it again, as suites that
  // share this worker expect (test/cli/in-process-log.test.ts).
  const done = () => {
    setLogSink();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const serving = await startServing({ ...settings, logger }, { out: (line) => out.push(line), err: (line) => log.push(line) });
    let stopped: Promise<void> | undefined;
    const stop = () => (stopped ??= serving.stop().finally(done));
    return { url: serving.url, port: Number(new URL(serving.url).port), log, out, stop };
  } catch (error) {
    done();
    throw new Error(`svc serve did not start: ${(error as Error).message}\n${log.join('\n')}`, { cause: error });
  }
}
