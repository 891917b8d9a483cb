/**
 * The site's own web server: a tiny node:http server on another port that serves the HTML of
 * test/browser/pages/ with the install code pointing at the service. Chromium reaches it as
 * a.shop.example, b.shop.example or evil.example (all 127.0.0.1), so the pages are on other
 * origins than the service, as on a real site.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const PAGES_DIR = join(import.meta.dirname, '..', 'pages');

export interface PageServer {
  port: number;
  /** `http://<host>:<port>/<page>` */
  url(host: string, page?: string): string;
  close(): Promise<void>;
}

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="11" fill="#0f766e"/><path d="M7 12h10M12 7v10" stroke="#fff" stroke-width="3"/></svg>';

/** `widgetSrc` replaces `{{WIDGET_SRC}}` in every page. */
export async function startPageServer(widgetSrc: string): Promise<PageServer> {
  const pages = new Map(
    readdirSync(PAGES_DIR)
      .filter((name) => name.endsWith('.html'))
      .map((name) => [`/${name}`, readFileSync(join(PAGES_DIR, name), 'utf8').replaceAll('{{WIDGET_SRC}}', widgetSrc)]),
  );
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page.test').pathname;
    // The test site's logo (a theme's logoUrl, a path on the site).
    if (path === '/logo.svg') {
      response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO);
      return;
    }
    const page = pages.get(path === '/' ? '/index.html' : path);
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (host, page = '') => `http://${host}:${port}/${page}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
