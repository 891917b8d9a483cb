import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { openStore } from '../../service/store/open';
import { workersFlag } from '../config';
import type { Io } from '../io';
import { announce, firstStart, prepareWidget, readServeSettings, startBackground, startHttp, stopSignal, type ServeSettings } from './serve-setup';
import { servePrimary, serveWorker } from './serve-workers';

export { BILLING_EVERY_MS, MAIL_EVERY_MS } from './serve-setup';

export const SERVE_USAGE = [
  'svc serve [--demo] [--workers N] [--db PATH]   (env PORT, HOST, SVC_DB, SVC_ADMIN_RATE_LIMIT, SVC_SIGNUP_RATE_LIMIT, SVC_SIGNIN_RATE_LIMIT, SVC_MAIL_RATE_LIMIT, SVC_TRUST_PROXY, SVC_STOP_DELAY_MS, SVC_SMTP_URL, SVC_MAIL_FROM, SVC_OUTBOX_DIR)',
];

/**
 * Serves until SIGINT/SIGTERM, then stops gracefully: no new connections, the requests under way
 * answered, then the store closed, exit 0. With --demo (what `npm start` runs), an empty database
 * gets the demo site first, with its published member login; without it nothing is created, so a
 * fresh production install has no account anyone knows the password of. `--workers N` (N > 1)
 * serves from N processes (./serve-workers); one, the default, is this process alone.
 */
export async function serveCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { db: { type: 'string' }, demo: { type: 'boolean', default: false }, workers: { type: 'string', default: '1' } },
  });
  const workers = workersFlag(values.workers);
  const settings = readServeSettings({ demo: values.demo, ...(values.db !== undefined && { db: values.db }) }, env);
  if (cluster.isWorker) return serveWorker(settings);
  if (workers > 1) return servePrimary(settings, workers, args, env, io);
  return serveAlone(settings, io);
}

/** One process: the HTTP server, the first start and the background work side by side. */
async function serveAlone(settings: ServeSettings, io: Io): Promise<number> {
  const stopped = stopSignal();
  const serving = await startServing(settings, io);
  await stopped;
  io.err('stopping: no new connections; finishing the requests under way');
  await serving.stop();
  return 0;
}

export interface Serving {
  /** `http://<host>:<port>`, as "serving on" says it. */
  url: string;
  /** The graceful stop: no new connections, the requests under way answered, the background work finished, the store closed. */
  stop(): Promise<void>;
}

/**
 * `svc serve` in this process until `stop()`: the store, the first start, the HTTP server, the
 * announcement and the background work, as one process serves them. serveAlone runs it until a
 * signal; the real-browser suites run it in their worker (test/browser/support/service.ts).
 */
export async function startServing(settings: ServeSettings, io: Io): Promise<Serving> {
  const widgetReady = await prepareWidget(io);
  const store = await openStore(settings.database);
  let server;
  let start;
  try {
    start = await firstStart(store, settings);
    server = await startHttp(store, settings);
  } catch (error) {
    await store.close();
    throw error;
  }
  try {
    await announce(store, io, { url: server.url, settings, start, widgetReady, workers: 1 });
  } catch (error) {
    // Nothing is left serving when the start fails, in a process that goes on (a test's).
    await server.close();
    await store.close();
    throw error;
  }
  const background = startBackground(store, settings.mail, settings.env, io);
  return {
    url: server.url,
    async stop() {
      await Promise.all([server.close(), background.stop()]);
      await store.close();
    },
  };
}
