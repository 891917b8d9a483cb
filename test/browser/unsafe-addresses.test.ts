/**
 * Addresses the widget must not follow, in real Chromium (security audit: "the widget follows
 * unsafe plan URLs"). The store holds what the service's validation would never let in, written
 * straight to the SQLite file by `setup`: a plan whose welcomeUrl is `javascript:window.__ran=1`,
 * and an after-registration redirect to `/\t/evil.example` (which Chromium resolves to
 * http://evil.example/). A member signs up to the plan through the modal: the script never runs
 * and the page stays; /member/plans sends nobody to evil.example. Then the widget's address check
 * (src/widget/modal/web-address.ts, bundled here with esbuild) answers, on a page of the site, as
 * the browser's own URL parser would have it.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { NewPlan } from '../../src/service/store/records';
import { launchChromium, OUTSIDE_HOST, skipBrowserTests } from './support/chromium';
import { createMember } from './support/members';
import { startPageServer, type PageServer } from './support/page-server';
import { startService, type RunningService } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

const PLAN_ID = 'unsafe01';
const OFF_SITE = '/\t/evil.example';

declare global {
  interface Window {
    __ran?: unknown;
    __stayed?: unknown;
  }
}

let browser: Browser | undefined;
let pages: PageServer | undefined;
let service: RunningService | undefined;
let checkScript = '';

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    service = await startService({
      tempPrefix: 'svc-unsafe-',
      async setup(store, site) {
        // Through the store, not definePlan: the service's validation would refuse the address.
        await store.createPlan({
          siteId: site.id,
          publicId: PLAN_ID,
          name: 'Unsafe',
          status: 'enabled',
          isPublic: true,
          colorCode: '#000000',
          createdAt: Date.now(),
          type: 'free',
          expiration: { mode: 'none' },
          welcomeUrl: 'javascript:window.__ran=1',
        } as NewPlan);
        await store.updateSite(site.id, { afterRegistration: { action: 'redirect', url: OFF_SITE } });
      },
    });
    pages = await startPageServer(`${service.url}/scripts/widgets.js`);
    const bundle = await build({
      stdin: {
        contents: "import { webAddress } from './src/widget/modal/web-address'; window.webAddress = webAddress;",
        resolveDir: join(import.meta.dirname, '..', '..'),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'iife',
    });
    checkScript = bundle.outputFiles[0]!.text;
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await service?.stop();
  });
}

/** A context whose pages record widget events, with a member logged in (through the widget, on a page of the site). */
async function loggedInContext(): Promise<BrowserContext> {
  const context = await browser!.newContext();
  await recordEventsIn(context);
  const member = await createMember(service!.url, pages!.url(HOST_A).replace(/\/$/, ''), { firstName: 'Eve', lastName: 'Target' });
  const start = new WidgetPage(await context.newPage());
  await start.page.goto(pages!.url(HOST_A));
  await start.waitForEvent('Service.ready');
  await start.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  await start.page.close();
  return context;
}

/** Opens the site's page at `?svcopen=<path>`; records the main frame's navigations from then on. */
async function openAt(context: BrowserContext, path: string) {
  const page = new WidgetPage(await context.newPage());
  const address = `${pages!.url(HOST_A)}?svcopen=${encodeURIComponent(path)}`;
  await page.page.goto(address);
  await page.waitForEvent('Service.ready');
  // The widget takes svcopen out of the address (history.replaceState), which is no navigation.
  const navigations: string[] = [];
  page.page.on('framenavigated', (frame) => {
    if (frame === page.page.mainFrame()) navigations.push(frame.url());
  });
  await page.page.evaluate(() => (window.__stayed = 1));
  const warnings = () => page.log.filter((line) => line.startsWith('console.warning: [Service] '));
  return { page, navigations, warnings };
}

browserTest('a plan whose welcomeUrl is javascript:window.__ran=1: signing up through the modal runs nothing, the page stays, one [Service] warning', async () => {
  const context = await loggedInContext();
  try {
    const { page, navigations, warnings } = await openAt(context, `/member/plans/${PLAN_ID}`);
    const dialog = page.page.getByRole('dialog', { name: 'Unsafe' });
    await dialog.waitFor({ state: 'visible', timeout: 5_000 });
    const before = page.page.url();
    await page.page.getByRole('button', { name: 'Join free' }).click();
    await page.waitForEvent('Service.conversion');
    await page.waitForEvent('Service.member.info', { count: 2 });
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    // A javascript: navigation is a queued task: give it every chance to run.
    await page.page.waitForTimeout(500);
    expect(await page.page.evaluate(() => window.__ran)).toBeUndefined();
    expect(await page.page.evaluate(() => window.__stayed)).toBe(1);
    expect(page.page.url()).toBe(before);
    expect(navigations).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain('javascript:');
  } finally {
    await context.close();
  }
});

browserTest('an after-registration redirect to "/\\t/evil.example": /member/plans, logged in, sends nobody to evil.example; one [Service] warning', async () => {
  const context = await loggedInContext();
  try {
    const outside: string[] = [];
    await context.route(`http://${OUTSIDE_HOST}*/**`, (route) => {
      outside.push(route.request().url());
      return route.fulfill({ status: 204 });
    });
    const { page, navigations, warnings } = await openAt(context, '/member/plans');
    const before = page.page.url();
    await expect.poll(() => navigations.length + outside.length + warnings().length, { timeout: 5_000 }).toBeGreaterThan(0);
    await page.page.waitForTimeout(500);
    expect(outside).toEqual([]);
    expect(navigations).toEqual([]);
    expect(page.page.url()).toBe(before);
    expect(await page.page.evaluate(() => window.__stayed)).toBe(1);
    expect(warnings()).toHaveLength(1);
    expect(await page.page.getByRole('dialog').count()).toBe(0);
  } finally {
    await context.close();
  }
});

/** Every address of the unit table (test/widget/modal/web-address.test.ts), with the verdict Chromium's parser implies. */
const KEPT = ['https://x.example/welcome', 'http://x.example/welcome', 'HTTPS://EXAMPLE.COM/', '/members/welcome?a=1#b', 'files/x.pdf', '?page=2'];
const REFUSED = [
  'javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)', ' javascript:alert(1)', '\u0000javascript:alert(1)',
  'data:text/html,x', 'vbscript:msgbox(1)', 'blob:http://a.shop.example/0b1c2d3e-0000-4000-8000-000000000000', 'file:///etc/passwd',
  '//evil.example/x', ' //evil.example', '/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '\\\\evil.example', '\\/evil.example',
  '/\\evil.example', '\u0001//evil.example', '',
];

browserTest('the address check on a page of the site: http(s) and same-site paths kept, everything else refused, as Chromium resolves them', async () => {
  const context = await browser!.newContext();
  try {
    const page = await context.newPage();
    await page.goto(pages!.url(HOST_A));
    await page.addScriptTag({ content: checkScript });
    const verdicts = await page.evaluate(
      (addresses) => {
        const check = (window as unknown as { webAddress(a: string): string | undefined }).webAddress;
        return addresses.map((a) => {
          let resolved = '';
          try {
            resolved = new URL(a, document.baseURI).href;
          } catch {
            resolved = '(no URL)';
          }
          return { a, kept: check(a) === a, resolved };
        });
      },
      [...KEPT, ...REFUSED],
    );
    expect(verdicts.filter((v) => KEPT.includes(v.a) !== v.kept)).toEqual([]);
    // The paths refused for leaving the site really do leave it in Chromium.
    for (const v of verdicts.filter((v) => /evil\.example/.test(v.a))) expect(new URL(v.resolved).hostname, JSON.stringify(v.a)).toBe('evil.example');
  } finally {
    await context.close();
  }
});
