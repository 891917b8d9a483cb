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

/**
 * A common strict Content-Security-Policy, as issue 30 names it: scripts from the site and the
 * service, requests to the service, styles from the site alone (no 'unsafe-inline' anywhere).
 */
export const strictPolicy = (widgetSrc: string): string => {
  const service = new URL(widgetSrc).origin;
  return `default-src 'self'; script-src 'self' ${service}; connect-src ${service}; style-src 'self'`;
};

const installScript = (widgetSrc: string) => `window.Service = { subdomain: 'shop', cookieDomain: 'shop.example' };
var script = document.createElement('script');
script.src = ${JSON.stringify(widgetSrc)};
document.head.append(script);
`;

/** `widgetSrc` replaces `{{WIDGET_SRC}}` in every page. */
export async function startPageServer(widgetSrc: string): Promise<PageServer> {
  const pages = new Map(
    readdirSync(PAGES_DIR)
      .filter((name) => name.endsWith('.html'))
      .map((name) => [`/${name}`, readFileSync(join(PAGES_DIR, name), 'utf8').replaceAll('{{WIDGET_SRC}}', widgetSrc)]),
  );
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page.test').pathname;
    // The install code as a file of the site's own, for the page under a strict policy.
    if (path === '/install-shop.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(installScript(widgetSrc));
      return;
    }
    if (path === '/site.css') {
      response.writeHead(200, { 'content-type': 'text/css' }).end('body{font-family:serif}');
      return;
    }
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
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...(path === '/strict-csp.html' && { 'content-security-policy': strictPolicy(widgetSrc) }) }).end(page);
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
