/**
 * On a slow network, a click shows a dialog at once (issue 14: nothing showed for 3.7 s). The
 * screens' bundle and GET /config are each held back 1.5 s by the test; within 400 ms of the
 * click a "Loading…" dialog is on screen (widgets.js's own, while widgets-modal.js downloads,
 * then the screens' dialog with a spinner while the settings load), and the screen follows.
 * Escape on the loading dialog means the member gave up: no screen opens afterwards. Focus
 * goes back to the link the member clicked when the screen closes.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchChromium, skipBrowserTests } from './support/chromium';
import { startPageServer, type PageServer } from './support/page-server';
import { startService, type RunningService } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

const DELAY_MS = 1_500;

let browser: Browser | undefined;
let service: RunningService | undefined;
let pages: PageServer | undefined;
const contexts: BrowserContext[] = [];

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    service = await startService({ tempPrefix: 'svc-slow-' });
    pages = await startPageServer(`${service.url}/scripts/widgets.js`);
  });
  afterEach(async () => void (await Promise.all(contexts.splice(0).map((c) => c.close()))));
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await service?.stop();
  });
}

/** A ready page with a "Log in" link, whose screens' bundle and settings arrive late. */
async function slowPage(): Promise<Page> {
  const context = await browser!.newContext();
  contexts.push(context);
  await recordEventsIn(context);
  for (const pattern of ['**/scripts/widgets-modal.js', '**/config']) {
    await context.route(pattern, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      await route.continue();
    });
  }
  const raw = await context.newPage();
  const page = new WidgetPage(raw);
  await raw.goto(pages!.url(HOST_A));
  await page.waitForEvent('Service.ready');
  await raw.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<a id="login" href="?svcopen=/member/sign_in">Log in</a>'));
  return raw;
}

/** The name of the dialog on screen now, whichever shadow root holds it; null when none is open. */
const shownDialog = (page: Page) =>
  page.evaluate(() => {
    for (const host of document.querySelectorAll('body > div')) {
      const dialog = host.shadowRoot?.querySelector('dialog[open]');
      if (dialog) return dialog.getAttribute('aria-label') ?? dialog.querySelector('h2')?.textContent ?? '';
    }
    return null;
  });

browserTest('a click shows a loading dialog at once while the screens and the settings download; then the screen; focus returns to the link', async () => {
  const page = await slowPage();
  const clicked = Date.now();
  await page.click('#login');
  await expect.poll(() => shownDialog(page), { timeout: 400, interval: 20 }).toBe('Loading…');
  expect(Date.now() - clicked).toBeLessThan(DELAY_MS);
  await page.getByRole('dialog', { name: 'Log in' }).waitFor({ state: 'visible', timeout: 3 * DELAY_MS + 2_000 });
  // One dialog at a time: the loading one is gone.
  expect(await page.evaluate(() => [...document.querySelectorAll('body > div')].filter((d) => d.shadowRoot?.querySelector('dialog[open]')).length)).toBe(1);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 2_000 });
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('login');
});

browserTest('Escape on the loading dialog: the member gave up, and no screen opens when the download ends', async () => {
  const page = await slowPage();
  await page.click('#login');
  await expect.poll(() => shownDialog(page), { timeout: 400, interval: 20 }).toBe('Loading…');
  await page.keyboard.press('Escape');
  await expect.poll(() => shownDialog(page), { timeout: 1_000 }).toBeNull();
  // Long after the bundle and the settings arrived, still nothing.
  await page.waitForTimeout(3 * DELAY_MS);
  expect(await shownDialog(page)).toBeNull();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('login');
});
