/**
 * One real-browser test file's world: the service (`svc serve` in the worker, support/service.ts),
 * the site's page server, one Chromium. Started in beforeAll, all closed in afterAll; every test
 * gets fresh browser contexts (cookies, storage) from `newContext()`, closed after it.
 */
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { afterAll, afterEach, beforeAll, test } from 'vitest';
import { launchChromium, skipBrowserTests, SITE_DOMAIN } from './chromium';
import { startPageServer, type PageServer } from './page-server';
import { startService, type RunningService, type ServiceOptions } from './service';
import { openWidgetPage, recordEventsIn, type WidgetPage } from './widget-page';

/** `test`, skipped (with a notice, see chromium.ts) where Chromium is missing outside CI. */
export const browserTest = test.skipIf(skipBrowserTests);

/** The site's subdomains, served by the page server. */
export const HOST_A = `a.${SITE_DOMAIN}`;
export const HOST_B = `b.${SITE_DOMAIN}`;

export interface BrowserSuite {
  readonly service: RunningService;
  readonly pages: PageServer;
  readonly browser: Browser;
  /** `http://<host>:<pagePort>` */
  origin(host: string): string;
  /** A fresh context (viewport, reduced motion…) whose pages record widget events; closed after the test. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Opens a page of the site and waits for `Service.ready`. */
  open(context: BrowserContext, host: string, page?: string): Promise<WidgetPage>;
}

/** What a suite's beforeAll started, or, when it did not, a failure that says so. */
export function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} did not start (see the beforeAll failure)`);
  return value;
}

/** The browser contexts a suite's tests open (push each): every one is closed after its test. */
export function contextsClosedAfterEach(): BrowserContext[] {
  const contexts: BrowserContext[] = [];
  if (!skipBrowserTests) afterEach(async () => void (await Promise.all(contexts.splice(0).map((context) => context.close()))));
  return contexts;
}

/** `options`: the service's own (a site set up through the store, a temp prefix), as startService takes them. */
export function useBrowserSuite(options: ServiceOptions = {}): BrowserSuite {
  let service: RunningService | undefined;
  let pages: PageServer | undefined;
  let browser: Browser | undefined;
  const contexts = contextsClosedAfterEach();

  if (!skipBrowserTests) {
    beforeAll(async () => {
      browser = await launchChromium(); // first: a missing Chromium fails before anything starts
      service = await startService(options);
      pages = await startPageServer(`${service.url}/scripts/widgets.js`);
    });
    afterAll(async () => {
      await browser?.close();
      await pages?.close();
      await service?.stop();
    });
  }

  const suite: BrowserSuite = {
    get service() {
      return started(service, 'the service');
    },
    get pages() {
      return started(pages, 'the page server');
    },
    get browser() {
      return started(browser, 'Chromium');
    },
    origin: (host) => suite.pages.url(host).replace(/\/$/, ''),
    async newContext(options) {
      const context = await suite.browser.newContext(options);
      contexts.push(context);
      await recordEventsIn(context);
      return context;
    },
    open: (context, host, page = '') => openWidgetPage(context, suite.pages.url(host, page)),
  };
  return suite;
}
