/** Serves the app under node:http. Returns once listening; `close()` stops taking requests. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import type { Connection } from './http/client-address';

/**
 * What the server calls per request: the app's `fetch`, possibly wrapped (static-files.ts). The
 * connection goes beside the Request (the app's Hono env), for limits per client address.
 */
export type FetchHandler = (request: Request, connection?: Connection) => Response | Promise<Response>;

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export function listen(fetch: FetchHandler, port: number, hostname: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const handler = (request: Request, env: HttpBindings | Http2Bindings) => fetch(request, { remoteAddress: env.incoming.socket.remoteAddress });
    const server = serve({ fetch: handler, port, hostname }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        close: () => new Promise((done) => (server as Server).close(() => done())),
      });
    }) as Server;
    server.once('error', reject);
  });
}
