/**
 * Serves the app under node:http. Returns once listening; `close()` stops taking connections and
 * resolves once the requests under way are answered.
 */
import type { Server, ServerResponse } from 'node:http';
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
  /**
   * Stops taking connections and resolves once every connection has closed and every request's
   * handler has returned, also one whose client went away meanwhile: the store may close then.
   */
  close(): Promise<void>;
}

export function listen(fetch: FetchHandler, port: number, hostname: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    // Handlers under way: a client that disconnects ends its connection, not its handler, which
    // may still be reading or writing the store.
    let handling = 0;
    let drained: (() => void) | undefined;
    const handler = (request: Request, env: HttpBindings | Http2Bindings) => {
      const answer = fetch(request, { remoteAddress: env.incoming.socket.remoteAddress });
      // An answer made at once is done; only one still being made is counted (and node-server
      // keeps its fast path for the former).
      if (!(answer instanceof Promise)) return answer;
      handling++;
      return answer.finally(() => {
        if (--handling === 0) drained?.();
      });
    };
    let closing = false;
    const answering = new Set<ServerResponse>();
    const server = serve({ fetch: handler, port, hostname }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        // Graceful: no new connections, idle keep-alive ones closed now, the rest once answered.
        close: () =>
          new Promise((done) => {
            closing = true;
            for (const response of answering) if (!response.headersSent) response.shouldKeepAlive = false;
            server.close(() => (handling === 0 ? done() : (drained = done)));
            server.closeIdleConnections();
          }),
      });
    }) as Server;
    // Once closing, a connection is not kept alive after its answer: `Connection: close`, or
    // closed when idle for an answer whose headers had gone already.
    server.on('request', (_request, response: ServerResponse) => {
      if (closing) response.shouldKeepAlive = false;
      answering.add(response);
      response.once('close', () => answering.delete(response));
      response.once('finish', () => closing && server.closeIdleConnections());
    });
    server.once('error', reject);
  });
}
