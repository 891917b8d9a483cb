/** Settings from the environment (documented in the README), checked once at start. */
import { parseRateLimit, type RateLimit } from '../service/http/rate-limit';
import { PRODUCTION_SCRYPT, TEST_SCRYPT, type ScryptCost } from '../service/auth/passwords';
import { parseTrustProxy } from '../service/http/client-address';
import { DEFAULT_SIGNUPS_PER_ADDRESS } from '../service/member/signup-limits';
import { DEFAULT_MAILS_PER_ADDRESS, DEFAULT_SIGN_INS_PER_ADDRESS } from '../service/member/client-limits';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The action of a command's table that `name` names (`svc members block`: `block`); a usage error listing them all when none. */
export function actionNamed<T>(actions: Readonly<Record<string, T>>, command: string, name: string | undefined): T {
  if (name === undefined || !Object.hasOwn(actions, name)) throw new UsageError(`unknown ${command} action ${name ?? '(none)'}; one of ${Object.keys(actions).join(', ')}`);
  return actions[name]!;
}

export const DEFAULT_DB = 'data/svc.db';
export const DEFAULT_ADMIN_RATE_LIMIT = '120/60s';

/** The most `svc serve --workers` starts: more processes than this only contend for the one database. */
export const MAX_WORKERS = 64;

/** `svc serve --workers N`: a whole number of processes, 1 (the default: no cluster) to MAX_WORKERS. */
export function workersFlag(text: string): number {
  const workers = /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(workers >= 1 && workers <= MAX_WORKERS)) throw new UsageError(`--workers takes a whole number from 1 to ${MAX_WORKERS}, got ${JSON.stringify(text)}`);
  return workers;
}

export function dbPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.SVC_DB ?? DEFAULT_DB;
}

export interface ServeConfig {
  port: number;
  host: string;
  rateLimit: RateLimit | undefined;
  /** Sign-ups per client address (SVC_SIGNUP_RATE_LIMIT, default 20/15m); `off` for none. */
  signupRateLimit: RateLimit | 'off';
  /** Sign-in attempts per client address (SVC_SIGNIN_RATE_LIMIT, default 30/15m); `off` for none. */
  signinRateLimit: RateLimit | 'off';
  /** Requested mails per client address (SVC_MAIL_RATE_LIMIT, default 20/60m); `off` for none. */
  mailRateLimit: RateLimit | 'off';
  /** Reverse proxies in front whose X-Forwarded-For is believed (SVC_TRUST_PROXY, default 0). */
  trustedProxies: number;
  scrypt: ScryptCost;
  /**
   * After SIGTERM or SIGINT, how long GET /readyz answers 503 while everything else is still
   * served, before the server stops taking connections (SVC_STOP_DELAY_MS, default 0): time for a
   * load balancer to take the process out first.
   */
  stopDelayMs: number;
}

export function serveConfig(env: NodeJS.ProcessEnv): ServeConfig {
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`PORT must be 0-65535, got ${env.PORT}`);
  const rate = parseRateLimit(env.SVC_ADMIN_RATE_LIMIT ?? DEFAULT_ADMIN_RATE_LIMIT);
  if (rate === undefined) {
    throw new UsageError(`SVC_ADMIN_RATE_LIMIT must look like 120/60s (requests/window) or be off, got ${env.SVC_ADMIN_RATE_LIMIT}`);
  }
  // `test` makes password hashing ~1000x cheaper, for test suites only: never in production.
  const scrypt = env.SVC_SCRYPT === undefined || env.SVC_SCRYPT === 'production' ? PRODUCTION_SCRYPT : env.SVC_SCRYPT === 'test' ? TEST_SCRYPT : undefined;
  if (!scrypt) throw new UsageError(`SVC_SCRYPT must be production (the default) or test, got ${env.SVC_SCRYPT}`);
  const signupRateLimit = clientRate(env, 'SVC_SIGNUP_RATE_LIMIT', DEFAULT_SIGNUPS_PER_ADDRESS, '20/15m (sign-ups per client address/window)');
  const signinRateLimit = clientRate(env, 'SVC_SIGNIN_RATE_LIMIT', DEFAULT_SIGN_INS_PER_ADDRESS, '30/15m (sign-in attempts per client address/window)');
  const mailRateLimit = clientRate(env, 'SVC_MAIL_RATE_LIMIT', DEFAULT_MAILS_PER_ADDRESS, '20/60m (mails asked for per client address/window)');
  const trustedProxies = parseTrustProxy(env.SVC_TRUST_PROXY);
  if (trustedProxies === undefined) {
    throw new UsageError(`SVC_TRUST_PROXY must be the number of reverse proxies in front (0-9; true means 1), got ${env.SVC_TRUST_PROXY}`);
  }
  const stopDelayMs = Number(env.SVC_STOP_DELAY_MS ?? 0);
  if (!/^\d{1,6}$/.test(env.SVC_STOP_DELAY_MS ?? '0') || stopDelayMs > 600_000) {
    throw new UsageError(`SVC_STOP_DELAY_MS must be the milliseconds to answer /readyz 503 before stopping (0-600000), got ${env.SVC_STOP_DELAY_MS}`);
  }
  return { port, host: env.HOST ?? '127.0.0.1', rateLimit: rate === 'off' ? undefined : rate, signupRateLimit, signinRateLimit, mailRateLimit, trustedProxies, scrypt, stopDelayMs };
}

/** A limit per client address from the environment: `fallback` when unset, `off` for none. */
function clientRate(env: NodeJS.ProcessEnv, name: string, fallback: RateLimit, shape: string): RateLimit | 'off' {
  const text = env[name];
  const rate = text === undefined ? fallback : parseRateLimit(text);
  if (rate === undefined) throw new UsageError(`${name} must look like ${shape} or be off, got ${text}`);
  return rate;
}
