/**
 * examples/spa.html (assets/spa.js), against the demo service and with no service (mock mode): a
 * single-page app moves between its views with pushState and popstate in one document (no page
 * load: a marker set in the page survives and no `load` event comes); its Members only view,
 * markup the app inserts, shows a placeholder logged out and the member's name once she logs in
 * through the view's own button (Service.open); Profile is drawn from getMemberInfo and redrawn on
 * the member events; the app starts on the view its address names, by the ready flag when the
 * widget is ready before the app's script runs, by the ready event (listened to once) otherwise.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADA, EXAMPLE_MODES, expectNoErrors, examplePage, logInAsAdaInDialog, useExamplesSuite, type ExamplePage } from '../support/examples';
import { browserTest } from '../support/suite';

const suite = useExamplesSuite();

declare global {
  interface Window {
    __marker?: number;
  }
}

const heading = (page: Page) => page.locator('#view > h2').textContent();
const search = (page: Page) => new URL(page.url()).search;
const startPath = (page: Page) => page.locator('#start-path').getAttribute('data-path');
const drawn = async (page: Page) => Number(await page.locator('#views-drawn').textContent());
const navLink = (page: Page, name: string) => page.locator('.spa-nav').getByRole('link', { name, exact: true });

/** Page loads of `page` from now on: a single-page app has none while it moves between views. */
function countLoads(page: Page): { loads: number } {
  const counter = { loads: 0 };
  page.on('load', () => counter.loads++);
  return counter;
}

/** The Log in dialog the app's button opened: Ada's e-mail and password, then Log in. */
const logInAsAda = logInAsAdaInDialog;

/** A new page of `context` with the examples' error record, not opened yet. */
const newExamplePage = async (context: BrowserContext): Promise<ExamplePage> => examplePage(await context.newPage());

for (const mode of EXAMPLE_MODES) {
  browserTest(`spa.html (${mode}): views change with pushState and Back, one document; logging in fills Members only`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'spa.html');
    const p = page.page;
    await expect.poll(() => heading(p)).toBe('Home');
    expect(await navLink(p, 'Home').getAttribute('aria-current')).toBe('page');
    // With the widget in <head>, it is ready before the app's script runs; in mock mode the widget
    // comes after the mock service has started, so the app is there first and waits for the event.
    await expect.poll(() => startPath(p)).toBe(mode === 'service' ? 'flag' : 'event');
    expect(await p.locator('#view [data-svc-member-info="firstName"]').textContent()).toBe('visitor');

    await p.evaluate(() => (window.__marker = 1));
    const counter = countLoads(p);

    // Members only, logged out: the placeholder, and a Log in button that opens the dialog.
    await navLink(p, 'Members only').click();
    await expect.poll(() => heading(p)).toBe('Members only');
    expect(search(p)).toBe('?view=members');
    expect(await navLink(p, 'Members only').getAttribute('aria-current')).toBe('page');
    expect(await p.title()).toBe('Members only · A single-page app · svc examples');
    await expect.poll(() => p.locator('#members-placeholder').isVisible()).toBe(true);
    expect(await p.locator('#members-content').isVisible()).toBe(false);

    await p.locator('#members-placeholder').getByRole('button', { name: 'Log in' }).click();
    await logInAsAda(p);
    // The widget shows the members' part of the view the app inserted, with her name, no reload.
    await expect.poll(() => p.locator('#members-content').isVisible()).toBe(true);
    expect(await p.locator('#members-content [data-svc-member-info="name"]').textContent()).toBe('Ada Lovelace');
    expect(await p.locator('#members-placeholder').isVisible()).toBe(false);
    expect(search(p)).toBe('?view=members');

    // Profile, drawn by the app from the member it was told about.
    await navLink(p, 'Profile').click();
    await expect.poll(() => heading(p)).toBe('Profile');
    expect(search(p)).toBe('?view=profile');
    expect(await p.locator('#profile-name').textContent()).toBe('Ada Lovelace');
    expect(await p.locator('#profile-email').textContent()).toBe(ADA.email);
    const plans = await p.locator('#profile-plans > li').allTextContents();
    expect(plans).toEqual(expect.arrayContaining([expect.stringMatching(/^Community /), expect.stringMatching(/^Monthly /)]));

    // Back and Forward: popstate, the same document.
    await p.goBack();
    await expect.poll(() => heading(p)).toBe('Members only');
    expect(search(p)).toBe('?view=members');
    expect(await p.locator('#members-content').isVisible()).toBe(true);
    await p.goBack();
    await expect.poll(() => heading(p)).toBe('Home');
    expect(search(p)).toBe('');
    expect(await navLink(p, 'Home').getAttribute('aria-current')).toBe('page');
    expect(await p.locator('#view [data-svc-member-info="firstName"]').textContent()).toBe('Ada');
    await p.goForward();
    await expect.poll(() => heading(p)).toBe('Members only');

    // Log out on Profile: the app draws it again on Service.member.logout.
    await navLink(p, 'Profile').click();
    await expect.poll(() => p.locator('#profile-name').count()).toBe(1);
    await p.locator('#logout').click();
    await expect.poll(() => p.locator('#profile-empty').isVisible()).toBe(true);
    expect(await p.locator('#view').getByRole('button', { name: 'Log in' }).isEnabled()).toBe(true);
    expect(await p.locator('header .who').isVisible()).toBe(false);

    // The ready listener is gone (or never was): a second Service.ready draws nothing.
    const before = await drawn(p);
    await p.evaluate(() => document.dispatchEvent(new CustomEvent('Service.ready', { detail: {} })));
    expect(await drawn(p)).toBe(before);

    expect(await p.evaluate(() => window.__marker)).toBe(1);
    expect(counter.loads).toBe(0);
    expectNoErrors(page);
  });

  browserTest(`spa.html (${mode}): ?view=profile starts on Profile, on a reload too, and when the app runs after ready`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'spa.html?view=profile');
    const p = page.page;
    await expect.poll(() => heading(p)).toBe('Profile');
    expect(await navLink(p, 'Profile').getAttribute('aria-current')).toBe('page');
    await expect.poll(() => startPath(p)).toBe(mode === 'service' ? 'flag' : 'event');
    expect(await p.locator('#profile-empty').isVisible()).toBe(true);

    await p.locator('#view').getByRole('button', { name: 'Log in' }).click();
    await logInAsAda(p);
    await expect.poll(() => p.locator('#profile-name').textContent()).toBe('Ada Lovelace');
    expect(search(p)).toBe('?view=profile');

    // A reload lands on the same view. The demo service keeps her logged in (the widget knows
    // at once, from its cache). The mock service starts again from its fixtures and would not
    // know her session (the widget would find out with a 401), so there she logs out first.
    if (mode === 'mock') {
      await p.locator('#logout').click();
      await expect.poll(() => p.locator('#profile-empty').isVisible()).toBe(true);
    }
    await p.reload();
    await page.waitForEvent('Service.ready', { timeout: 15_000 });
    await expect.poll(() => heading(p)).toBe('Profile');
    if (mode === 'service') {
      await expect.poll(() => p.locator('#profile-name').textContent()).toBe('Ada Lovelace');
    } else {
      await expect.poll(() => p.locator('#profile-empty').isVisible()).toBe(true);
    }

    // The app's script held back until the widget is ready: it finds the flag set and reads
    // getMemberInfo() (the ready event has gone by then); the view is right all the same.
    // In mock mode, a fresh context: in this one the mock's service worker answers the page's
    // requests now, out of the route's sight. The demo service keeps Ada logged in in this one.
    const late = await newExamplePage(mode === 'service' ? context : await suite.newContext());
    await late.page.route('**/examples/assets/spa.js', async (route) => {
      await late.page.waitForFunction(() => window.__events?.some((e) => e.type === 'Service.ready'), undefined, {
        polling: 50,
        timeout: 15_000,
      });
      await route.continue();
    });
    await late.page.goto(`${suite.origin(mode)}/examples/spa.html?view=profile`);
    await expect.poll(() => startPath(late.page)).toBe('flag');
    expect(await heading(late.page)).toBe('Profile');
    if (mode === 'service') {
      expect(await late.page.locator('#profile-name').textContent()).toBe('Ada Lovelace');
      await late.page.locator('#logout').click();
    }
    await expect.poll(() => late.page.locator('#profile-empty').isVisible()).toBe(true);
    await late.page.locator('#view').getByRole('button', { name: 'Log in' }).click();
    await logInAsAda(late.page);
    await expect.poll(() => late.page.locator('#profile-email').textContent()).toBe(ADA.email);

    expectNoErrors(page);
    expectNoErrors(late);
  });
}
