/**
 * The frame every reference server of the bench shares: a node:http server on HOST/PORT (env,
 * default 127.0.0.1 and a free port) that answers with `handle`, in one process or, with
 * `--workers N`, in N node:cluster workers sharing the port (the same way `svc serve --workers`
 * runs), so a 2-worker row compares like with like. Prints `[name] serving on URL` on stderr once
 * every worker listens; SIGTERM/SIGINT stop it.
 */
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ServeOptions {
  /** Log prefix: `[name] serving on …`. */
  name: string;
  /** Called once per process that answers requests (each worker, or the one process). */
  start(): Handler | Promise<Handler>;
  /** The ready line's extra words, after the URL. */
  describe?: string;
}

/** The command line every reference server takes: `--workers N` and its own options. */
export function serverArgs(options: NonNullable<ParseArgsConfig['options']>) {
  const parsed = parseArgs({ options: { ...options, workers: { type: 'string', default: '1' } } });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`--workers must be an integer ≥ 1, got ${String(values.workers)}`);
  return { values, workers };
}

export async function serveReference(options: ServeOptions, workers: number): Promise<void> {
  const port = Number(process.env.PORT ?? 0);
  const host = process.env.HOST ?? '127.0.0.1';
  if (workers > 1 && cluster.isPrimary) return primary(options, workers);
  const handler = await options.start();
  const server = createServer((req, res) => {
    try {
      handler(req, res);
    } catch (error) {
      fail(res, error);
    }
  });
  server.listen(port, host, () => {
    const { address, port: bound } = server.address() as AddressInfo;
    if (cluster.isWorker) process.send!({ listening: `http://${address}:${bound}` });
    else process.stderr.write(`[${options.name}] serving on http://${address}:${bound}${options.describe ? ` (${options.describe})` : ''}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if (cluster.isWorker) process.once('disconnect', stop);
}

/** Answers 500 with the error's message: a reference server that fails must fail the bench. */
export function fail(res: ServerResponse, error: unknown): void {
  process.stderr.write(`[reference] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
  res.end(String(error));
}

function primary(options: ServeOptions, workers: number): void {
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork();
    worker.on('message', (message: { listening?: string }) => {
      if (message.listening === undefined || ++listening < workers) return;
      process.stderr.write(`[${options.name}] serving on ${message.listening} (${workers} workers${options.describe ? `, ${options.describe}` : ''})\n`);
    });
  }
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) process.stderr.write(`[${options.name}] worker ${worker.process.pid} exited (${signal ?? code})\n`);
  });
  let stopping = false;
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 500).unref();
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
