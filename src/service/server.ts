/** Serves the app under node:http. Returns once listening; `close()` stops taking requests. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export function listen(app: Hono, port: number, hostname: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        close: () => new Promise((done) => (server as Server).close(() => done())),
      });
    }) as Server;
    server.once('error', reject);
  });
}
