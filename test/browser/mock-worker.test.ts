/**
 * The mock server for static pages (mock-server/browser.ts, built by `npm run build`): a page
 * served by a plain file server, no service anywhere, signs a fixture member in through the
 * real widget and the real service app running inside MSW's service worker.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO_FIXTURE } from '../../mock-server/fixtures';
import { launchChromium, skipBrowserTests } from './support/chromium';
import { recordEventsIn } from './support/widget-page';
import { browserTest } from './support/suite';

const root = join(import.meta.dirname, '..', '..');
const FILES: Record<string, [string, string]> = {
  '/': ['test/browser/pages-mock/index.html', 'text/html; charset=utf-8'],
  '/mock-server.js': ['dist/mock-server.js', 'text/javascript'],
  '/mockServiceWorker.js': ['dist/mockServiceWorker.js', 'text/javascript'],
  '/scripts/widgets.js': ['dist/widgets.js', 'text/javascript'],
};

let browser: Browser | undefined;
let server: Server | undefined;
let origin = '';
/** Requests that reached the file server: the member API must never be among them. */
const served: string[] = [];

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      served.push(path);
      const file = FILES[path];
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': file[1], 'cache-control': 'no-store' }).end(readFileSync(join(root, file[0])));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    // localhost: service workers need a secure context, and loopback by name is one.
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
}

browserTest('a static page signs in, reads metadata and signs out against the mock server, with no service running', async () => {
  const context = await browser!.newContext();
  await recordEventsIn(context);
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'Service.member.logout'));

  const ada = DEMO_FIXTURE.members.find((m) => m.key === 'ada')!;
  const member = await page.evaluate(({ email, password }) => window.Service.login({ email, password }), ada);
  expect(member.email).toBe(ada.email);
  expect(member.memberships.map((m) => m.publicPlanId).sort()).toEqual(['community', 'monthly']);
  expect(member.customSignupFields).toHaveLength(DEMO_FIXTURE.signupFields.length);

  const metadata = await page.evaluate(() => window.Service.updateMemberMetadata({ visits: 1 }));
  expect(metadata).toEqual({ theme: 'dark', visits: 1 });
  await page.evaluate(() => window.Service.logout());

  const types = await page.evaluate(() => window.__events.map((e) => e.type));
  expect(types).toEqual(['Service.ready', 'Service.member.logout', 'Service.member.info', 'Service.member.logout']);
  expect(served.filter((path) => path.startsWith('/member/'))).toEqual([]);
  await context.close();
});
