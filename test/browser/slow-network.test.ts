/**
 * On a slow network, a click shows a dialog at once (issue 14: nothing showed for 3.7 s), in the
 * screens' look (issue 29: their backdrop, no border, a spinner). The
 * screens' bundle and GET /config are each held back 1.5 s by the test; within 400 ms of the
 * click a "Loading…" dialog is on screen (widgets.js's own, while widgets-modal.js downloads,
 * then the screens' dialog with a spinner while the settings load), and the screen follows.
 * Escape on the loading dialog means the member gave up: no screen opens afterwards. Focus
 * goes back to the link the member clicked when the screen closes.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';
import { WidgetPage } from './support/widget-page';

const DELAY_MS = 1_500;

const suite = useBrowserSuite({ tempPrefix: 'svc-slow-' });

/** A ready page with a "Log in" link, whose screens' bundle and settings arrive late. */
async function slowPage(): Promise<Page> {
  const context = await suite.newContext();
  for (const pattern of ['**/scripts/widgets-modal.js', '**/config']) {
    await context.route(pattern, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      await route.continue();
    });
  }
  const raw = await context.newPage();
  const page = new WidgetPage(raw);
  await raw.goto(suite.pages.url(HOST_A));
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
  // The screens' look, not a bare browser box: their backdrop, no border, rounded, a spinner (issue 29).
  const look = await page.evaluate(() => {
    const dialog = [...document.querySelectorAll('body > div')].map((host) => host.shadowRoot?.querySelector('dialog[open]')).find(Boolean)!;
    const box = getComputedStyle(dialog);
    const spinner = dialog.querySelector('i')!.getBoundingClientRect();
    return { backdrop: getComputedStyle(dialog, '::backdrop').backgroundColor, border: box.borderTopWidth, radius: box.borderTopLeftRadius, spinner: spinner.width > 0 && spinner.height > 0 };
  });
  expect(look).toEqual({ backdrop: 'rgba(0, 0, 0, 0.5)', border: '0px', radius: '12px', spinner: true });
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
