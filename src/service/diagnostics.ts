/**
 * Every message the service writes for people goes through here. By default to the console with
 * one prefix: the same app also runs in a browser (the mock server) and in the test suites.
 * `svc serve` hands it pino instead (src/cli/logger.ts): JSON lines in production, readable in a
 * terminal, at SVC_LOG_LEVEL, beside one access line a request (./access-log.ts).
 */
export interface LogSink {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

const consoleSink: LogSink = {
  info: (message) => console.error(`[svc] ${message}`),
  error: (message, error) => console.error(`[svc] ${message}${error instanceof Error ? `: ${error.stack ?? error.message}` : ''}`),
};

let sink = consoleSink;

export const log: LogSink = {
  info: (message) => sink.info(message),
  error: (message, error) => sink.error(message, error),
};

/** Where `log` writes from now on (`svc serve`'s pino); none given: the console again. */
export function setLogSink(next?: LogSink): void {
  sink = next ?? consoleSink;
}
