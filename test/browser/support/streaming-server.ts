/**
 * A small web server for pages whose HTML arrives in pieces, as from a slow network or a
 * server that flushes early: a page's HTML is cut at every `<!--chunk-->` and, with
 * `?pause=<ms>` in its address, each piece is written and flushed after that pause, so the
 * browser parses (and paints) the page a piece at a time. Without `pause` the page is sent
 * whole. Files (the built widget) may be held back with `?delay=<ms>`, as a slow download.
 * Requests under /member/ go to `api` (the service app, in the same process).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CHUNK_MARK = '<!--chunk-->';

export interface StreamingServerOptions {
  /** The HTML of a page by its path (`/flicker.html`) and query; undefined answers 404. */
  page(path: string, query: URLSearchParams): string | undefined;
  /** Static files by path: [file on disk, content type]. Read on every request (no cache). */
  files?: Record<string, [string, string]>;
  /** Answers every request whose path starts with /member/. */
  api?: (request: IncomingMessage, response: ServerResponse) => void;
}

export interface StreamingServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request's path and query, in order of arrival. */
  served: string[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function writeChunks(response: ServerResponse, html: string, pauseMs: number): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  if (pauseMs <= 0) return void response.end(html);
  response.flushHeaders();
  const chunks = html.split(CHUNK_MARK);
  for (const [i, chunk] of chunks.entries()) {
    if (response.destroyed) return;
    if (i > 0) await sleep(pauseMs);
    response.write(chunk);
  }
  response.end();
}

export async function startStreamingServer(options: StreamingServerOptions): Promise<StreamingServer> {
  const served: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://page.test');
    served.push(url.pathname + url.search);
    if (url.pathname.startsWith('/member/') && options.api) return options.api(request, response);
    const file = options.files?.[url.pathname];
    if (file) {
      const body = readFileSync(file[0]);
      const send = () => response.writeHead(200, { 'content-type': file[1], 'cache-control': 'no-store' }).end(body);
      const delay = Number(url.searchParams.get('delay') ?? 0);
      return void (delay > 0 ? setTimeout(send, delay) : send());
    }
    const html = options.page(url.pathname === '/' ? '/index.html' : url.pathname, url.searchParams);
    if (html === undefined) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    void writeChunks(response, html, Number(url.searchParams.get('pause') ?? 0));
  });
  // Every piece leaves at once, not when Nagle's algorithm decides.
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
