/**
 * The owner console's world (issue 32; test/browser/console*.test.ts): one Chromium and one
 * `svc serve --demo` per file, as `npm start` runs it, with the Admin API rate limit the file asks
 * for. Pages record Content-Security-Policy violations and console errors from their first
 * script on. The test reads the Admin API itself (`adminAll`), to hold the console's numbers
 * against it, and makes narrower keys with `svc keys create` on the service's database.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { repoRoot } from '../../../scripts/lib/paths';
import { runSvc } from '../../support/svc-main';
export { pageViolations } from './axe';
import { launchChromium, skipBrowserTests } from './chromium';
import { contextsClosedAfterEach, started } from './suite';
import { startDemoService, type DemoService } from './service';

/** Where the console's screenshots go, beside the examples' (README, "Examples"); not committed. */
export const CONSOLE_SCREENSHOT_DIR = join(repoRoot, 'test-results', 'console');

export interface ConsolePage {
  page: Page;
  /** CSP violations and console errors so far. */
  problems(): string[];
}

export interface ConsoleSuite {
  readonly browser: Browser;
  readonly service: DemoService;
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Opens /console/ in a new page of `context`, signs in with `key` (the demo's by default) and waits for the overview. */
  signIn(context: BrowserContext, key?: string): Promise<ConsolePage>;
  /** Every item of an Admin API list, paged with the cursor headers, read by the test itself. */
  adminAll<T>(path: string, key?: string): Promise<T[]>;
  adminGet<T>(path: string, key?: string): Promise<T>;
  /** `svc keys create --site demo --scopes …` on the service's database: the new key. */
  createKey(scopes: readonly string[]): Promise<string>;
}

export function useConsoleSuite(env: Record<string, string> = { SVC_ADMIN_RATE_LIMIT: 'off' }): ConsoleSuite {
  let browser: Browser | undefined;
  let service: DemoService | undefined;
  const contexts = contextsClosedAfterEach();
  if (!skipBrowserTests) {
    beforeAll(async () => {
      browser = await launchChromium();
      service = await startDemoService('svc-console-', env);
      mkdirSync(CONSOLE_SCREENSHOT_DIR, { recursive: true });
    }, 90_000);
    afterAll(async () => {
      await browser?.close();
      await service?.stop();
    });
  }

  /** A GET answered 2xx; a 429 waited out as its Retry-After says (the rate-limit suite reads under a limit too). */
  const adminFetch = async (path: string, key: string, headers: Record<string, string> = {}): Promise<Response> => {
    for (;;) {
      const response = await fetch(`${suite.service.url}/admin/v1${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
      if (response.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
        continue;
      }
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
      return response;
    }
  };

  const suite: ConsoleSuite = {
    get browser() {
      return started(browser, 'Chromium');
    },
    get service() {
      return started(service, 'the demo service');
    },
    async newContext(options = {}) {
      const context = await suite.browser.newContext({ locale: 'en-US', ...options });
      contexts.push(context);
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __violations: string[] }).__violations = seen;
        document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sample}`));
      });
      return context;
    },
    async signIn(context, key = suite.service.adminKey) {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        errors.push(`console.error: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await page.goto(`${suite.service.url}/console/`);
      await page.getByLabel('Admin API key').fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: 15_000 });
      return {
        page,
        problems: () => [...errors],
      };
    },
    async adminAll<T>(path: string, key = suite.service.adminKey) {
      const items: T[] = [];
      let cursor: string | null = null;
      for (;;) {
        const response = await adminFetch(path, key, { 'x-items-after': '100', ...(cursor && { 'x-cursor': cursor }) });
        items.push(...((await response.json()) as T[]));
        if (response.headers.get('x-has-more-items-after') !== 'true') return items;
        cursor = response.headers.get('x-next-cursor');
      }
    },
    async adminGet<T>(path: string, key = suite.service.adminKey) {
      return (await (await adminFetch(path, key)).json()) as T;
    },
    async createKey(scopes) {
      const run = await runSvc(['keys', 'create', '--site', 'demo', '--scopes', scopes.join(','), '--db', suite.service.db], { ...process.env, SVC_SCRYPT: 'test' });
      if (run.code !== 0) throw new Error(`svc keys create exited with ${run.code}: ${run.err}`);
      const key = run.out.find((line) => line.startsWith('svc_admin_'));
      if (!key) throw new Error(`svc keys create printed no key: ${run.out.join('\n')}`);
      return key;
    },
  };
  return suite;
}

/** Waits until every long read on the page has ended (no Stop button left), no "Reading…" is shown and nothing is busy reading again. */
export async function readsDone(page: Page, timeout = 30_000): Promise<void> {
  const pending = async () =>
    (await page.locator('.read-progress button').count()) + (await page.getByText('Reading…', { exact: true }).count()) + (await page.locator('[aria-busy="true"]').count());
  await expect.poll(pending, { timeout }).toBe(0);
}

/** The CSP violations the page recorded. */
export const violations = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

