/**
 * `svc serve`'s logger: pino on stderr (stdout carries what a script reads, such as the demo's
 * key), JSON lines where stderr is no terminal (production, a supervisor, a container), one
 * readable line each in a terminal (pino-pretty). SVC_LOG_LEVEL picks the level (`info` by
 * default; `warn` drops the access lines; `silent`, everything). The service's own messages go
 * through it too (setLogSink); the command's announcements stay plain lines for people.
 */
import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { setLogSink } from '../service/diagnostics';
import { UsageError } from './config';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function serviceLogger(env: NodeJS.ProcessEnv): Logger {
  const level = env.SVC_LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new UsageError(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${level}`);
  const logger = process.stderr.isTTY
    ? pino({ level }, prettyStream()({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname' }))
    : pino({ level, base: { pid: process.pid } }, pino.destination({ dest: 2, sync: true }));
  logServiceThrough(logger);
  return logger;
}

/** The service's own messages (src/service/diagnostics.ts) through `logger`, beside its access lines, from now on. */
export function logServiceThrough(logger: Logger): void {
  setLogSink({
    info: (message) => logger.info(message),
    error: (message, error) => logger.error(error instanceof Error ? { err: error } : {}, message),
  });
}

/** pino-pretty, loaded for a terminal only: a supervisor's or a test's `svc serve` writes JSON and does without it. */
const prettyStream = (): typeof PinoPretty => createRequire(import.meta.url)('pino-pretty');
