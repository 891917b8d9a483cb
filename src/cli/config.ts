/** Settings from the environment (documented in the README), checked once at start. */
import { parseRateLimit, type RateLimit } from '../service/admin/rate-limit';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const DEFAULT_DB = 'data/svc.db';
export const DEFAULT_ADMIN_RATE_LIMIT = '120/60s';

export function dbPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.SVC_DB ?? DEFAULT_DB;
}

export function serveConfig(env: NodeJS.ProcessEnv): { port: number; host: string; rateLimit: RateLimit | undefined } {
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`PORT must be 0-65535, got ${env.PORT}`);
  const rate = parseRateLimit(env.SVC_ADMIN_RATE_LIMIT ?? DEFAULT_ADMIN_RATE_LIMIT);
  if (rate === undefined) {
    throw new UsageError(`SVC_ADMIN_RATE_LIMIT must look like 120/60s (requests/window) or be off, got ${env.SVC_ADMIN_RATE_LIMIT}`);
  }
  return { port, host: env.HOST ?? '127.0.0.1', rateLimit: rate === 'off' ? undefined : rate };
}
