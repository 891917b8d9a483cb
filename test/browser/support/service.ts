/**
 * The real service as a child process: `svc sites create` makes the test site on a temporary
 * SQLite file, an optional `setup` fills it through the store (plans, fields, content: the CLI
 * has no command for them), then `svc serve` runs on a free port (cheap scrypt: SVC_SCRYPT=test).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SiteRecord } from '../../../src/service/store/records';
import { openSqliteStore } from '../../../src/service/store/sqlite';
import type { Store } from '../../../src/service/store/store';
import { run, servingUrl, svc } from '../../support/svc-process';
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
  /** Everything the service wrote to stderr, for failure messages. */
  log: string[];
  /** The `svc serve` process (to read its memory from /proc). */
  pid: number;
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
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', SVC_SIGNUP_RATE_LIMIT: SUITE_PER_ADDRESS, SVC_SIGNIN_RATE_LIMIT: SUITE_PER_ADDRESS, SVC_MAIL_RATE_LIMIT: SUITE_PER_ADDRESS };
  const log: string[] = [];
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');
  try {
    await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Shop', '--domain', SITE_DOMAIN, '--db', db], env);
    if (options.setup) await withSite(db, options.setup);
    // The site exists, so serve seeds no demo data.
    const serve = (child = svc(['serve', '--db', db], { ...env, ...options.env }));
    process.once('exit', killOnExit);
    const url = await servingUrl(serve, log);
    serve.stdout!.resume();
    return {
      url,
      port: Number(new URL(url).port),
      db,
      log,
      pid: serve.pid!,
      withStore: (use) => withSite(db, use),
      stop: () => stopServe(serve, dir, killOnExit),
    };
  } catch (error) {
    // Nothing is left behind when the site, the setup or the start fails.
    process.removeListener('exit', killOnExit);
    if (child && child.exitCode === null) child.kill('SIGKILL');
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
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test', SVC_SIGNUP_RATE_LIMIT: SUITE_PER_ADDRESS, SVC_SIGNIN_RATE_LIMIT: SUITE_PER_ADDRESS, SVC_MAIL_RATE_LIMIT: SUITE_PER_ADDRESS, ...extraEnv };
  const log: string[] = [];
  const serve = svc(['serve', '--demo', '--db', db], env);
  const killOnExit = () => serve.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = () => stopServe(serve, dir, killOnExit);
  try {
    let adminKey = '';
    createInterface({ input: serve.stdout! }).on('line', (line) => (adminKey ||= line.trim()));
    const url = await servingUrl(serve, log);
    // The key goes out before "serving on" (serve.ts), so it is here by now.
    if (!adminKey.startsWith('svc_admin_')) throw new Error(`svc serve printed no Admin API key:\n${log.join('\n')}`);
    return { url, port: Number(new URL(url).port), db, log, pid: serve.pid!, adminKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Stops `svc serve` the way Ctrl-C does and removes its temporary directory. */
async function stopServe(serve: ChildProcess, dir: string, killOnExit: () => void): Promise<void> {
  process.removeListener('exit', killOnExit);
  if (serve.exitCode === null) {
    const closed = new Promise((resolve) => serve.once('close', resolve));
    serve.kill('SIGTERM');
    await closed;
  }
  rmSync(dir, { recursive: true, force: true });
}
