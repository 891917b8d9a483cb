/** Settings from the environment (documented in the README), checked once at start. */
import { parseRateLimit, type RateLimit } from '../service/admin/rate-limit';
import { PRODUCTION_SCRYPT, TEST_SCRYPT, type ScryptCost } from '../service/auth/passwords';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const DEFAULT_DB = 'data/svc.db';
export const DEFAULT_ADMIN_RATE_LIMIT = '120/60s';

export function dbPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.SVC_DB ?? DEFAULT_DB;
}

export interface ServeConfig {
  port: number;
  host: string;
  rateLimit: RateLimit | undefined;
  scrypt: ScryptCost;
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
  return { port, host: env.HOST ?? '127.0.0.1', rateLimit: rate === 'off' ? undefined : rate, scrypt };
}
