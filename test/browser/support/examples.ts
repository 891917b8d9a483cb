/**
 * The example pages' world (examples/, issue 6): one Chromium, the demo service as `npm start`
 * runs it (`svc serve` on an empty database), and the same pages with no service at all
 * (`npm run examples:mock`'s server, the mock service in MSW). A test runs once per mode.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startExamplesMockServer } from '../../../scripts/examples-mock';
import { repoRoot } from '../../../scripts/lib/paths';
import type { RunningServer } from '../../../src/service/server';
import { launchChromium, skipBrowserTests } from './chromium';
import { contextsClosedAfterEach, started } from './suite';
import { startDemoService, type DemoService } from './service';
import { recordEventsIn, WidgetPage } from './widget-page';

export type ExampleMode = 'service' | 'mock';
export const EXAMPLE_MODES: readonly ExampleMode[] = ['service', 'mock'];

/** Where the screenshot tests write (README, "Examples"); not committed. */
export const SCREENSHOT_DIR = join(repoRoot, 'test-results', 'examples');

/** The demo member, the same in both modes (src/service/seed/demo-login.ts, mock-server/fixtures.ts). */
export const ADA = { email: 'ada@demo.localhost', password: 'demo-password' } as const;

export interface ExamplePage extends WidgetPage {
  /** Console errors and uncaught exceptions so far; an example must have none. */
  errors(): string[];
}

export interface ExamplesSuite {
  readonly browser: Browser;
  /** `http://127.0.0.1:<port>` of each mode. */
  origin(mode: ExampleMode): string;
  /** The demo service (`service` mode): its Admin API key, its log. */
  readonly service: DemoService;
  /** A fresh context whose pages record widget events; closed after the test. */
  newContext(options?: { width?: number; height?: number }): Promise<BrowserContext>;
  /** Opens `examples/<file>` in `mode` and waits for `Service.ready`. */
  open(context: BrowserContext, mode: ExampleMode, file: string): Promise<ExamplePage>;
}

export function useExamplesSuite(): ExamplesSuite {
  let browser: Browser | undefined;
  let service: DemoService | undefined;
  let mock: RunningServer | undefined;
  const contexts = contextsClosedAfterEach();
  if (!skipBrowserTests) {
    beforeAll(async () => {
      browser = await launchChromium();
      [service, mock] = await Promise.all([startDemoService('svc-examples-'), startExamplesMockServer({ port: 0 })]);
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await mock?.close();
      await service?.stop();
    });
  }
  const suite: ExamplesSuite = {
    get browser() {
      return started(browser, 'Chromium');
    },
    get service() {
      return started(service, 'the demo service');
    },
    origin: (mode) => (mode === 'service' ? started(service, 'the demo service').url : started(mock, 'the examples mock server').url),
    async newContext(options = {}) {
      const context = await suite.browser.newContext(
        options.width ? { viewport: { width: options.width, height: options.height ?? 800 } } : {},
      );
      contexts.push(context);
      await recordEventsIn(context);
      return context;
    },
    async open(context, mode, file) {
      const page = examplePage(await context.newPage());
      await page.page.goto(`${suite.origin(mode)}/examples/${file}`);
      await page.waitForEvent('Service.ready', { timeout: 15_000 });
      return page;
    },
  };
  return suite;
}

/** A page with the widget's event record and the examples' error record. */
export function examplePage(raw: Page): ExamplePage {
  const page = new WidgetPage(raw) as ExamplePage;
  page.errors = () => page.log.filter((line) => line.startsWith('console.error:') || line.startsWith('pageerror:'));
  return page;
}

/** Fails with the page's log when it had a console error or an uncaught exception. */
export function expectNoErrors(page: ExamplePage): void {
  expect(page.errors(), page.log.join('\n')).toEqual([]);
}

/** Fills the open "Log in" dialog with Ada's e-mail and password, submits, and waits for it to close. */
export async function logInAsAdaInDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.waitFor();
  await dialog.getByLabel('E-mail').fill(ADA.email);
  await dialog.getByLabel('Password').fill(ADA.password);
  await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Clicks the page's own `#login-link` (a same-page `?svcopen=/member/sign_in` link), then logs in as Ada. */
export async function logInThroughLink(page: Page): Promise<void> {
  await page.locator('#login-link').click();
  await logInAsAdaInDialog(page);
}
