/**
 * The modal's screens for everyone, in real Chromium against the real service (`svc serve` in the worker):
 *
 * 1. axe-core, injected into the page, analyses the open modal (`[data-svc-modal]` and its open
 *    shadow root) on every screen; no violation may be found. A failure lists each rule's id, its
 *    help text and the nodes it found, so it can be read without a debugger.
 * 2. On a 320 px wide phone, every screen fits: nothing in the dialog scrolls sideways (the
 *    dialog's and each control's scrollWidth <= clientWidth), no element reaches past the right
 *    edge, and the screen's primary button is visible and can be clicked (Playwright's trial click:
 *    scrolled into view, not covered, enabled; nothing is submitted).
 *
 * The site has the custom sign-up fields of the demo site (every type: text, select,
 * multiple-select, textarea, checkbox, required and optional), a paid subscription, two paid
 * one-time plans (one with tax and rich text), and a free plan. The logged-in member is on the
 * subscription and on Workshop, paid with the test card after one declined charge (0341), so the invoice
 * table (three rows, one failed), the membership list (with its Cancel button) and the saved card
 * are all drawn. The site has a member menu (a logged-in "Log in" opens it), and protected
 * content: an article and a video in a space opened by Monthly, and an item in a space opened only
 * by Community and Lifetime, for which the member is offered those plans. Last, a member with a
 * long e-mail address on the account screen at 320 px.
 * The site, its service and its member are support/screens-site.ts's, which the screens
 * gallery shares.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { axeViolations, readable } from './support/axe';
import { launchChromium, skipBrowserTests } from './support/chromium';
import { createMember } from './support/members';
import { ARTICLE, CLOSED, MEDIA_URL, requiredAnswers, startScreensSite, VIDEO, type ScreensSite } from './support/screens-site';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

const PHONE = { width: 320, height: 640 };

interface ScreenCase {
  screen: string;
  /** `{lifetime}`, `{article}`, `{video}` and `{closed}` stand for that plan's or item's id. */
  path: string;
  loggedIn: boolean;
  /** The dialog's accessible name once the screen is drawn. */
  dialog: string;
  /** The button that does what the screen is for. */
  primary: string;
}

const SCREENS: ScreenCase[] = [
  { screen: 'login', path: '/member/sign_in', loggedIn: false, dialog: 'Log in', primary: 'Log in' },
  { screen: 'register (with the custom sign-up fields)', path: '/member/sign_up', loggedIn: false, dialog: 'Create an account', primary: 'Create account' },
  { screen: 'account', path: '/member/account', loggedIn: true, dialog: 'Your account', primary: 'Log out' },
  { screen: 'account edit', path: '/member/account/edit', loggedIn: true, dialog: 'Edit your details', primary: 'Save' },
  { screen: 'e-mail change', path: '/member/account/email_change', loggedIn: true, dialog: 'Change e-mail', primary: 'Save' },
  { screen: 'password change', path: '/member/account/password_change', loggedIn: true, dialog: 'Change password', primary: 'Save' },
  // A list to read: the only button is Close.
  { screen: 'invoices', path: '/member/invoices', loggedIn: true, dialog: 'Invoices', primary: 'Close' },
  { screen: 'payment method', path: '/member/payment_method/update', loggedIn: true, dialog: 'Payment method', primary: 'Save card' },
  { screen: 'memberships', path: '/member/memberships', loggedIn: true, dialog: 'Your memberships', primary: 'Cancel: Monthly' },
  { screen: 'all plans', path: '/member/plans/all', loggedIn: true, dialog: 'Plans', primary: 'Choose: Lifetime' },
  { screen: 'plan sign-up (paid, with tax)', path: '/member/plans/{lifetime}', loggedIn: true, dialog: 'Lifetime', primary: 'Pay $238.80' },
  // The site has a member menu: a logged-in "Log in" opens it.
  { screen: 'member menu', path: '/member/sign_in', loggedIn: true, dialog: 'Menu', primary: 'Log out' },
  // Protected content: an article to read (the only button is Close), the plans that open an
  // item the member may not see, a video player.
  { screen: 'content article', path: '/content/{article}', loggedIn: true, dialog: ARTICLE, primary: 'Close' },
  { screen: 'content without access (its paywall)', path: '/content/{closed}', loggedIn: true, dialog: CLOSED, primary: 'Choose: Community' },
  { screen: 'content to a visitor (its paywall)', path: '/content/{closed}', loggedIn: false, dialog: CLOSED, primary: 'Choose: Community' },
  { screen: 'content video (popup)', path: '/content/{video}/popup', loggedIn: true, dialog: VIDEO, primary: 'Close' },
];

let browser: Browser | undefined;
/** The site (support/screens-site.ts: every screen has something to show) and its member. */
let site: ScreensSite | undefined;
/** Logged out and logged in (the same member), at the default size and on a phone. */
const contexts: Record<'out' | 'in' | 'outPhone' | 'inPhone', BrowserContext | undefined> = { out: undefined, in: undefined, outPhone: undefined, inPhone: undefined };

/** A context whose pages record widget events; the video player's requests are answered 204. */
async function newContext(options: { viewport?: typeof PHONE; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> } = {}): Promise<BrowserContext> {
  const context = await browser!.newContext(options);
  await recordEventsIn(context);
  await context.route(`${MEDIA_URL}/**`, (route) => route.fulfill({ status: 204 }));
  return context;
}

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    // A short e-mail: a long one would scroll inside its field on a phone, which is no fault.
    site = await startScreensSite({ tempPrefix: 'svc-a11y-', email: 'ada@a11y.example' });

    contexts.out = await newContext();
    contexts.outPhone = await newContext({ viewport: PHONE });
    contexts.in = await newContext();
    const page = new WidgetPage(await contexts.in.newPage());
    await page.page.goto(site.pages.url(HOST_A));
    await page.waitForEvent('Service.ready');
    await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), site.member);
    await page.page.close();
    // The same login (cookie and stored member) on the phone.
    contexts.inPhone = await newContext({ viewport: PHONE, storageState: await contexts.in.storageState() });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
  });
}

/**
 * The page each context shows its screens in: the first screen by `?svcopen=` as the page loads,
 * the next ones by `Service.open` (as a page's own button would), so the widget starts, and
 * axe-core is parsed, once a context rather than once a screen. A test that fails closes its page:
 * the next starts on a fresh one. `?svcopen=` on every screen is router-rows.test.ts's.
 */
const shown = new Map<BrowserContext, WidgetPage>();

/** Opens the screen in the context's page and waits until its dialog has its name (drawn). */
async function openScreen(context: BrowserContext, screen: ScreenCase): Promise<WidgetPage> {
  const { ids, pages } = site!;
  const path = screen.path.replace(/\{(\w+)\}/g, (_, key: keyof typeof ids) => ids[key]);
  let page = shown.get(context);
  if (page) await page.page.evaluate((svcopen) => window.Service.open(svcopen), path);
  else {
    page = new WidgetPage(await context.newPage());
    await page.page.goto(`${pages.url(HOST_A)}?svcopen=${encodeURIComponent(path)}`);
    await page.waitForEvent('Service.ready');
  }
  try {
    await page.page.getByRole('dialog', { name: screen.dialog, exact: true }).waitFor({ state: 'visible', timeout: 5_000 });
  } catch (error) {
    const shownText = await page.page.evaluate(() => document.querySelector('[data-svc-modal]')?.shadowRoot?.querySelector('dialog')?.textContent ?? '(no dialog)');
    throw new Error(`${screen.path}: no dialog "${screen.dialog}"; the page shows: ${shownText}\n${page.log.join('\n')}\n${(error as Error).message}`);
  }
  shown.set(context, page);
  return page;
}

/** Runs a test's checks on its screen; the page stays for the context's next screen unless they fail. */
async function onScreen(context: BrowserContext, screen: ScreenCase, check: (page: WidgetPage) => Promise<void>): Promise<void> {
  const page = await openScreen(context, screen).catch(async (error: unknown) => {
    await closeShown(context);
    throw error;
  });
  try {
    await check(page);
  } catch (error) {
    await closeShown(context);
    throw error;
  }
}

async function closeShown(context: BrowserContext): Promise<void> {
  await shown.get(context)?.page.close().catch(() => {});
  shown.delete(context);
}

const contextFor = (screen: ScreenCase, phone: boolean) => contexts[`${screen.loggedIn ? 'in' : 'out'}${phone ? 'Phone' : ''}`]!;

/** What each screen must show for the checks to mean something (a table with a row, the custom fields…). */
async function expectDrawn(page: Page, screen: ScreenCase): Promise<void> {
  const dialog = page.getByRole('dialog', { name: screen.dialog, exact: true });
  if (screen.path === '/member/sign_up') expect(await dialog.locator('[name^="customFields."]').count()).toBe(site!.fields.length);
  if (screen.path === '/member/account/edit') expect(await dialog.locator('[name^="customFields."]').count()).toBe(site!.fields.length);
  if (screen.path === '/member/invoices') expect(await dialog.locator('tbody tr').count()).toBe(3);
  if (screen.path === '/member/plans/all') {
    expect((await dialog.locator('h3').allTextContents()).sort()).toEqual(['Community', 'Lifetime', 'Monthly', 'Workshop', 'Yearly']);
    // Sold monthly and yearly, the site's plans come with a switch, on the yearly ones (the recommended plan's): Monthly is not drawn.
    expect((await dialog.locator('h3:visible').allTextContents()).sort()).toEqual(['Community', 'Lifetime', 'Workshop', 'Yearly']);
    await dialog.getByRole('radio', { name: 'Monthly' }).check();
    expect((await dialog.locator('h3:visible').allTextContents()).sort()).toEqual(['Community', 'Lifetime', 'Monthly', 'Workshop']);
  }
  if (screen.path === '/member/payment_method/update') expect(await dialog.getByRole('status').textContent()).toMatch(/4242/);
  if (screen.dialog === 'Menu') {
    expect(await dialog.getByRole('navigation', { name: 'Menu', exact: true }).getByRole('button').allTextContents()).toEqual([
      'Your account',
      'Your memberships',
      'Invoices',
      'Plans',
      'Log out',
    ]);
  }
  if (screen.dialog === ARTICLE) {
    await expect.poll(() => dialog.locator('.rich').textContent(), { timeout: 5_000 }).toContain('say hello');
    expect(await dialog.locator('.rich h3, .rich a, .rich ul li, .rich blockquote').count()).toBe(5);
  }
  if (screen.path === '/content/{closed}') {
    expect(await dialog.getByRole('alert').textContent()).toBe(`“${CLOSED}” is for members of these plans:`);
    expect((await dialog.locator('.price').allTextContents()).sort()).toEqual(['$199.00 once', 'Free']);
    expect(await dialog.getByRole('button', { name: 'Log in', exact: true }).count()).toBe(screen.loggedIn ? 0 : 1);
    expect((await dialog.getByRole('button', { name: /^Choose: / }).allTextContents()).sort()).toEqual(['Choose: Community', 'Choose: Lifetime']);
  }
  if (screen.dialog === VIDEO) {
    expect(await dialog.locator('video[controls]').getAttribute('src')).toBe(`${MEDIA_URL}/welcome.mp4`);
  }
}

for (const screen of SCREENS) {
  browserTest(`axe finds no violation on the ${screen.screen} screen (svcopen=${screen.path})`, async () => {
    await onScreen(contextFor(screen, false), screen, async (page) => {
      await expectDrawn(page.page, screen);
      const violations = await axeViolations(page.page);
      expect(violations, `axe on ${screen.screen}:\n${readable(violations)}`).toEqual([]);
    });
  });
}

/** Everything in the dialog wider than its box, or reaching past the viewport's edges, in words. */
function overflowIn(): string[] {
  const root = document.querySelector('[data-svc-modal]')!.shadowRoot!;
  const dialog = root.querySelector('dialog')!;
  const name = (e: Element) => {
    const text = (e.getAttribute('name') ?? e.textContent ?? '').trim().slice(0, 40);
    return `<${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).replaceAll(' ', '.')}` : ''}>${text ? ` "${text}"` : ''}`;
  };
  const problems: string[] = [];
  if (dialog.scrollWidth > dialog.clientWidth) problems.push(`the dialog scrolls sideways: scrollWidth ${dialog.scrollWidth} > clientWidth ${dialog.clientWidth}`);
  for (const control of root.querySelectorAll('input, select, textarea, button')) {
    if (control.scrollWidth > control.clientWidth) problems.push(`${name(control)}: scrollWidth ${control.scrollWidth} > clientWidth ${control.clientWidth}`);
  }
  for (const element of root.querySelectorAll('dialog, dialog *')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue; // not drawn
    if (box.right > window.innerWidth + 0.5) problems.push(`${name(element)}: right edge at ${box.right.toFixed(1)} px, past ${window.innerWidth}`);
    if (box.left < -0.5) problems.push(`${name(element)}: left edge at ${box.left.toFixed(1)} px`);
  }
  return problems;
}

for (const screen of SCREENS) {
  browserTest(`at 320 px the ${screen.screen} screen fits and its "${screen.primary}" button can be clicked`, async () => {
    await onScreen(contextFor(screen, true), screen, async (page) => {
      expect(page.page.viewportSize()).toEqual(PHONE);
      await expectDrawn(page.page, screen);
      expect(await page.page.evaluate(overflowIn), `overflow on ${screen.screen} at 320 px`).toEqual([]);
      const primary = page.page.getByRole('dialog', { name: screen.dialog, exact: true }).getByRole('button', { name: screen.primary, exact: true });
      expect(await primary.count()).toBe(1);
      // Scrolled into view if need be, visible, enabled, and what a tap there hits: nothing is submitted.
      await primary.click({ trial: true, timeout: 3_000 });
      expect(await primary.isVisible()).toBe(true);
      const box = (await primary.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      // Still the same screen: the trial click did nothing.
      expect(await page.page.getByRole('dialog', { name: screen.dialog, exact: true }).isVisible()).toBe(true);
    });
  });
}

browserTest('at 320 px a long e-mail address wraps on the account screen instead of widening the dialog', async () => {
  // 45 characters and no hyphen: no place where the browser would break it by itself.
  const long = await createMember(site!.service.url, site!.origin, {
    email: 'augusta.ada.lovelace@analyticalengine.example',
    customFields: requiredAnswers(site!.fields),
  });
  const context = await newContext({ viewport: PHONE });
  try {
    const start = new WidgetPage(await context.newPage());
    await start.page.goto(site!.pages.url(HOST_A));
    await start.waitForEvent('Service.ready');
    await start.page.evaluate(({ email, password }) => window.Service.login({ email, password }), long);
    await start.page.close();
    const account = SCREENS.find((s) => s.path === '/member/account')!;
    const page = await openScreen(context, account);
    expect(await page.page.getByRole('dialog', { name: account.dialog, exact: true }).textContent()).toContain(long.email);
    expect(await page.page.evaluate(overflowIn), 'overflow on the account screen at 320 px').toEqual([]);
  } finally {
    await context.close();
  }
});
