/** Serves the app under node:http. Returns once listening; `close()` stops taking requests. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** What the server calls per request: the app's `fetch`, possibly wrapped (static-files.ts). */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export function listen(fetch: FetchHandler, port: number, hostname: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        close: () => new Promise((done) => (server as Server).close(() => done())),
      });
    }) as Server;
    server.once('error', reject);
  });
}
