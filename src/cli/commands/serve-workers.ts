/**
 * `svc serve --workers N` (node:cluster): the primary brings the schema up to date, does the
 * first start (the demo seed) and forks N workers, which each open the store and serve HTTP on
 * the one port (the primary hands them connections in turn). What must happen once runs in the
 * primary: the demo key, said once; billing and the mail sender. Everything that must hold across
 * the workers lives in the store (rate limits, the sign-in throttle, the billing lease, the
 * outbox; decision 0025). A worker that dies is replaced; on SIGTERM or SIGINT the primary passes
 * SIGTERM on, each worker stops gracefully, and the primary exits once all of them have.
 */
import cluster, { type Worker } from 'node:cluster';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/paths';
import { openStore } from '../../service/store/open';
import type { Io } from '../io';
import { announce, firstStart, prepareWidget, startBackground, startHttp, stopSignal, type ServeSettings } from './serve-setup';

export async function servePrimary(settings: ServeSettings, count: number, args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const stopped = stopSignal();
  const widgetReady = await prepareWidget(io);
  // Opening migrates: once, here, before any worker opens the database.
  const store = await openStore(settings.database);
  let pool: WorkerPool;
  let start;
  try {
    start = await firstStart(store, settings);
    pool = await startWorkers(count, args, env, io);
  } catch (error) {
    await store.close();
    if (!(error instanceof WorkerStartError)) throw error;
    io.err(`cannot go on: ${error.message}`);
    return 1;
  }
  await announce(store, io, { url: pool.url, settings, start, widgetReady, workers: count });
  const background = startBackground(store, settings.mail, settings.env, io);
  const lost = await Promise.race([stopped.then(() => undefined), pool.lost]);
  if (lost) io.err(`cannot go on: ${lost}`);
  io.err('stopping: no new connections; the workers finish the requests under way');
  const [clean] = await Promise.all([pool.stop(), background.stop()]);
  await store.close();
  return clean && !lost ? 0 : 1;
}

/** A worker: the HTTP server on its own store connection, until the primary (or Ctrl-C) says stop. */
export async function serveWorker(settings: ServeSettings): Promise<number> {
  const stopped = stopSignal();
  const store = await openStore(settings.database);
  let server;
  try {
    server = await startHttp(store, settings);
  } catch (error) {
    await store.close();
    throw error;
  }
  await stopped;
  await server.close();
  await store.close();
  // The channel to the primary would keep this process alive; closed by us, it is no surprise.
  cluster.worker?.disconnect();
  return 0;
}

class WorkerStartError extends Error {
  override readonly name = 'WorkerStartError';
}

interface WorkerPool {
  url: string;
  /** Resolves, saying why, when a worker that died could not be replaced (its replacement did not start). */
  lost: Promise<string>;
  /** SIGTERM to every worker; resolves once all have exited: true when every one exited 0. */
  stop(): Promise<boolean>;
}

async function startWorkers(count: number, args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<WorkerPool> {
  // Workers run this very command again: `cluster.isWorker` sends them to serveWorker.
  cluster.setupPrimary({ exec: join(repoRoot, 'bin/svc.js'), args: ['serve', ...args] });
  let stopping = false;
  const live = new Set<Worker>();
  let clean = true;
  let allExited = () => undefined as void;
  let lose = (_why: string) => undefined as void;
  const lost = new Promise<string>((resolve) => (lose = resolve));

  /** Forks a worker; resolves with its address once it listens, rejects if it exits first. */
  const fork = (): Promise<string> => {
    const worker = cluster.fork(env);
    live.add(worker);
    const pid = worker.process.pid;
    return new Promise((resolve, reject) => {
      let listened = false;
      worker.once('listening', ({ address, port, addressType }) => {
        listened = true;
        io.err(`worker ${pid} listening`);
        resolve(`http://${addressType === 6 ? `[${address}]` : address}:${port}`);
      });
      worker.once('exit', (code, signal) => {
        live.delete(worker);
        const how = signal ? `was killed (${signal})` : `exited with ${code}`;
        if (stopping) {
          if (code !== 0) clean = false;
          if (live.size === 0) allExited();
        } else if (!listened) {
          reject(new WorkerStartError(`worker ${pid} ${how} before it listened`));
        } else {
          io.err(`worker ${pid} ${how}; starting another`);
          fork().catch((error: Error) => lose(error.message));
        }
      });
    });
  };

  const stop = async (): Promise<boolean> => {
    stopping = true;
    const exited = new Promise<void>((resolve) => (allExited = resolve));
    for (const worker of live) worker.process.kill('SIGTERM');
    if (live.size > 0) await exited;
    return clean;
  };

  const started = Array.from({ length: count }, fork);
  try {
    const [url] = await Promise.all(started);
    return { url: url!, lost, stop };
  } catch (error) {
    await Promise.allSettled(started);
    await stop();
    throw error;
  }
}
