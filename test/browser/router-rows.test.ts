/**
 * Every row of spec 4.1's svcopen table, logged out and logged in, in real Chromium against the
 * real `svc serve` child: `?svcopen=<path>` on the site's page opens the dialog the table names
 * (found by its accessible name, as assistive technology finds it), "log in first" and "register
 * first" continue to the screen asked for once the visitor has logged in or registered through the
 * modal, /member/sign_out logs out (and does nothing for a visitor), a path that names no row opens
 * nothing and logs one console warning, and svcopen always leaves the address bar.
 *
 * The rows are data (ROWS): append a row to test another path. Not here: /content/… (the content
 * screen has its own tests), and a site with a member menu (this site has none, so a logged-in
 * /member/sign_in and /member/sign_up show the account screen).
 *
 * The `shop` site made by the CLI has no plans, so this file starts its own service, as
 * plan-signup.test.ts does: `svc sites create`, plans written to the same SQLite file through the
 * store (the CLI has no plan command), then `svc serve`. One member, on the free plan, is logged in
 * once in a shared browser context that every logged-in row uses (but sign-out, which has its own).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SiteConfig } from '../../src/contract/member';
import { systemClock } from '../../src/service/domain/clock';
import { definePlan } from '../../src/service/domain/plans';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { launchChromium, skipBrowserTests, SITE_DOMAIN } from './support/chromium';
import { createMember, uniqueEmail, type TestMember } from './support/members';
import { startPageServer, type PageServer } from './support/page-server';
import { run, SUBDOMAIN, svc } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

/** Where the free plan's content is; answered 204 by the test, so the page stays put. */
const CONTENT_URL = `http://content.${SITE_DOMAIN}/library`;
const WELCOME_URL = `http://welcome.${SITE_DOMAIN}/welcome`;

/**
 * What a row's svcopen does:
 * - `opens`: that dialog opens at once (`plans`: the plan names it lists, for /member/plans/all);
 * - `logInFirst`: the login dialog opens; once logged in through it, the same dialog shows `then`;
 * - `registers`: the registration dialog opens; once registered through it, the same dialog shows
 *   `then`, or, when `then` is null, the site's after-registration action runs (not asserted here);
 * - `goesTo`: the browser goes to that address (the plan's content URL);
 * - `logsOut`: the member is logged out, and no dialog opens;
 * - `nothing`: no dialog, no event, the login as it was, and exactly `warnings` console warnings;
 * - `afterRegistrationAction`: the site's after-registration action runs (not asserted here).
 */
type Outcome =
  | { kind: 'opens'; dialog: string; plans?: string[] }
  | { kind: 'logInFirst'; then: string }
  | { kind: 'registers'; then: string | null }
  | { kind: 'goesTo'; url: string }
  | { kind: 'logsOut' }
  | { kind: 'nothing'; warnings: number }
  | { kind: 'afterRegistrationAction' };

interface Row {
  /** `{monthly}` and `{community}` stand for those plans' public ids. */
  path: string;
  loggedIn: boolean;
  expect: Outcome;
}

/** The dialogs' accessible names (their titles, English catalogue). */
const LOG_IN = 'Log in';
const REGISTER = 'Create an account';
const ACCOUNT = 'Your account';

/**
 * Spec 4.1, "Query parameter svcopen", row by row. The logged-in member is on Community (free)
 * and not on Monthly (paid); Insiders is a plan that is not public.
 */
const ROWS: Row[] = [
  // Log in: member menu, or the account screen when no menu is enabled (this site has none).
  { path: '/member/sign_in', loggedIn: false, expect: { kind: 'opens', dialog: LOG_IN } },
  { path: '/member/sign_in', loggedIn: true, expect: { kind: 'opens', dialog: ACCOUNT } },
  // Log out.
  { path: '/member/sign_out', loggedIn: true, expect: { kind: 'logsOut' } },
  { path: '/member/sign_out', loggedIn: false, expect: { kind: 'nothing', warnings: 0 } },
  // Register: registers the user and offers plan sign-up; with no plan, the after-registration
  // action runs. This row asserts the registration itself; what follows it is the action's.
  { path: '/member/sign_up', loggedIn: false, expect: { kind: 'registers', then: null } },
  { path: '/member/sign_up/{monthly}', loggedIn: false, expect: { kind: 'registers', then: 'Monthly' } },
  { path: '/member/sign_up/{community}', loggedIn: false, expect: { kind: 'registers', then: 'Community' } },
  { path: '/member/sign_up', loggedIn: true, expect: { kind: 'opens', dialog: ACCOUNT } },
  { path: '/member/sign_up/{monthly}', loggedIn: true, expect: { kind: 'opens', dialog: ACCOUNT } },
  // Plan sign-up: offers the plan; already on it, the browser goes to its content URL; with no
  // plan, the after-registration action runs. Logged out: register first.
  { path: '/member/plans/{monthly}', loggedIn: true, expect: { kind: 'opens', dialog: 'Monthly' } },
  { path: '/member/plans/{community}', loggedIn: true, expect: { kind: 'goesTo', url: CONTENT_URL } },
  { path: '/member/plans', loggedIn: true, expect: { kind: 'afterRegistrationAction' } },
  { path: '/member/plans/{monthly}', loggedIn: false, expect: { kind: 'registers', then: 'Monthly' } },
  { path: '/member/plans/{community}', loggedIn: false, expect: { kind: 'registers', then: 'Community' } },
  // Logged out with no plan: register first, then what a logged-in /member/plans does (the action).
  { path: '/member/plans', loggedIn: false, expect: { kind: 'registers', then: null } },
  // All plans: any public plan (not Insiders). Logged out: register first.
  { path: '/member/plans/all', loggedIn: true, expect: { kind: 'opens', dialog: 'Plans', plans: ['Community', 'Monthly'] } },
  { path: '/member/plans/all', loggedIn: false, expect: { kind: 'registers', then: 'Plans' } },
  // The member's own screens. Logged out: log in first.
  { path: '/member/account', loggedIn: true, expect: { kind: 'opens', dialog: ACCOUNT } },
  { path: '/member/account', loggedIn: false, expect: { kind: 'logInFirst', then: ACCOUNT } },
  { path: '/member/account/edit', loggedIn: true, expect: { kind: 'opens', dialog: 'Edit your details' } },
  { path: '/member/account/edit', loggedIn: false, expect: { kind: 'logInFirst', then: 'Edit your details' } },
  { path: '/member/account/email_change', loggedIn: true, expect: { kind: 'opens', dialog: 'Change e-mail' } },
  { path: '/member/account/email_change', loggedIn: false, expect: { kind: 'logInFirst', then: 'Change e-mail' } },
  { path: '/member/account/password_change', loggedIn: true, expect: { kind: 'opens', dialog: 'Change password' } },
  { path: '/member/account/password_change', loggedIn: false, expect: { kind: 'logInFirst', then: 'Change password' } },
  { path: '/member/invoices', loggedIn: true, expect: { kind: 'opens', dialog: 'Invoices' } },
  { path: '/member/invoices', loggedIn: false, expect: { kind: 'logInFirst', then: 'Invoices' } },
  { path: '/member/payment_method/update', loggedIn: true, expect: { kind: 'opens', dialog: 'Payment method' } },
  { path: '/member/payment_method/update', loggedIn: false, expect: { kind: 'logInFirst', then: 'Payment method' } },
  { path: '/member/memberships', loggedIn: true, expect: { kind: 'opens', dialog: 'Your memberships' } },
  { path: '/member/memberships', loggedIn: false, expect: { kind: 'logInFirst', then: 'Your memberships' } },
  // No row: nothing opens, one warning for the site owner.
  { path: '/member/nowhere', loggedIn: false, expect: { kind: 'nothing', warnings: 1 } },
  { path: '/member/nowhere', loggedIn: true, expect: { kind: 'nothing', warnings: 1 } },
  { path: '/member/account/delete', loggedIn: true, expect: { kind: 'nothing', warnings: 1 } },
  { path: '/member/plans/all/extra', loggedIn: false, expect: { kind: 'nothing', warnings: 1 } },
];

let browser: Browser | undefined;
let pages: PageServer | undefined;
let serve: ChildProcess | undefined;
let serviceUrl = '';
let dir = '';
const serviceLog: string[] = [];
const planIds = { monthly: '', community: '' };
/** On Community; logged in once in `shared`. */
let member: TestMember | undefined;
let shared: BrowserContext | undefined;
/** What the browser asked of the content URL, in every context. */
const visits: string[] = [];

async function startServiceWithPlans(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'svc-rows-'));
  const db = join(dir, 'svc.db');
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
  await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Shop', '--domain', SITE_DOMAIN, '--db', db], env);
  const store = openSqliteStore(db);
  try {
    const site = (await store.getSiteBySubdomain(SUBDOMAIN))!;
    const define = (definition: Parameters<typeof definePlan>[3]) => definePlan(store, systemClock, site.id, definition);
    planIds.monthly = (
      await define({ name: 'Monthly', type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } }, welcomeUrl: WELCOME_URL })
    ).publicId;
    planIds.community = (await define({ name: 'Community', type: 'free', expiration: { mode: 'none' }, contentUrl: CONTENT_URL, welcomeUrl: WELCOME_URL })).publicId;
    await define({ name: 'Insiders', type: 'subscription', isPublic: false, billing: { price: 30, currency: 'usd', interval: { count: 1, unit: 'month' } } });
  } finally {
    await store.close();
  }
  serve = svc(['serve', '--db', db], env);
  serviceUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: serve!.stderr! }).on('line', (line) => {
      serviceLog.push(line);
      const match = /serving on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    serve!.once('close', (code) => reject(new Error(`svc serve exited with ${code}:\n${serviceLog.join('\n')}`)));
  });
  serve.stdout!.resume();
}

/** A context whose pages record widget events and whose visits to the plans' URLs are answered 204. */
async function newContext(): Promise<BrowserContext> {
  const context = await browser!.newContext();
  await recordEventsIn(context);
  await context.route(`${CONTENT_URL}*`, (route) => {
    visits.push(route.request().url());
    return route.fulfill({ status: 204 }); // a 204 navigation leaves the page where it is
  });
  await context.route(`${WELCOME_URL}*`, (route) => route.fulfill({ status: 204 }));
  return context;
}

/** A context with `member` logged in (the login cookie is on shop.example, for every page of it). */
async function loggedInContext(who: TestMember): Promise<BrowserContext> {
  const context = await newContext();
  const page = new WidgetPage(await context.newPage());
  await page.page.goto(pages!.url(HOST_A));
  await page.waitForEvent('Service.ready');
  await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), who);
  await page.page.close();
  return context;
}

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    await startServiceWithPlans();
    pages = await startPageServer(`${serviceUrl}/scripts/widgets.js`);
    const origin = pages.url(HOST_A).replace(/\/$/, '');
    member = await createMember(serviceUrl, origin, { firstName: 'Grace', lastName: 'Hopper' });
    const joined = await fetch(`${serviceUrl}/member/v1/sites/${SUBDOMAIN}/memberships`, {
      method: 'POST',
      headers: { origin, authorization: `Bearer ${member.session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ planPublicId: planIds.community }),
    });
    if (joined.status !== 201) throw new Error(`joining Community answered ${joined.status}: ${await joined.text()}`);
    // The rows are for a site with no member menu (the default): the account screen, not the menu.
    const config = (await (await fetch(`${serviceUrl}/member/v1/sites/${SUBDOMAIN}/config`, { headers: { origin } })).json()) as SiteConfig;
    if (config.memberMenu !== false) throw new Error(`the site has a member menu: ${JSON.stringify(config)}`);
    shared = await loggedInContext(member);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    if (serve && serve.exitCode === null) {
      const closed = new Promise((resolve) => serve!.once('close', resolve));
      serve.kill('SIGTERM');
      await closed;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

const dialogNamed = (page: Page, name: string) => page.getByRole('dialog', { name, exact: true });
const hostCount = (page: Page) => page.evaluate(() => document.querySelectorAll('[data-svc-modal]').length);
/** The page's console warnings (any, not only the widget's). */
const warnings = (page: WidgetPage) => page.log.filter((line) => line.startsWith('console.warning:'));
/** What the widget told the site owner: its messages all start with [Service]. */
const widgetMessages = (page: WidgetPage) => page.log.filter((line) => line.includes('[Service]') || line.startsWith('pageerror:'));
const isLoggedIn = (page: WidgetPage) => page.page.evaluate(() => window.Service.getMemberInfo().isLoggedIn);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Long enough for the widget to have acted on svcopen (the modal bundle is local). */
const SETTLE_MS = 400;

async function waitForDialog(page: WidgetPage, name: string): Promise<void> {
  try {
    await dialogNamed(page.page, name).waitFor({ state: 'visible', timeout: 5_000 });
  } catch (error) {
    const shown = await page.page.evaluate(() => document.querySelector('[data-svc-modal]')?.shadowRoot?.querySelector('dialog')?.textContent ?? '(no dialog)');
    throw new Error(`no dialog "${name}"; the page shows: ${shown}\n${page.log.join('\n')}\n${(error as Error).message}`);
  }
}

async function logInThroughModal(page: WidgetPage, who: TestMember): Promise<void> {
  await page.page.getByLabel('E-mail', { exact: true }).fill(who.email);
  await page.page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForEvent('Service.member.info');
}

async function registerThroughModal(page: WidgetPage): Promise<string> {
  const email = uniqueEmail('rows');
  await page.page.getByLabel('First name', { exact: true }).fill('Katherine');
  await page.page.getByLabel('Last name', { exact: true }).fill('Johnson');
  await page.page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.page.getByLabel('Password', { exact: true }).fill('orbital-mechanics');
  await page.page.getByRole('button', { name: 'Create account', exact: true }).click();
  await page.waitForEvent('Service.member.registration');
  const info = await page.waitForEvent('Service.member.info');
  expect((info.detail as { memberInfo: { email: string } }).memberInfo.email).toBe(email);
  return email;
}

const resolvePath = (path: string) => path.replace('{monthly}', planIds.monthly).replace('{community}', planIds.community);

for (const row of ROWS) {
  const title = `${row.loggedIn ? 'logged in ' : 'logged out'}  svcopen=${row.path}  →  ${outcomeText(row.expect)}`;
  browserTest(title, async () => {
    // Sign-out ends the session of its context: it gets its own, so the shared one stays logged in.
    const own = !row.loggedIn || row.expect.kind === 'logsOut';
    const context = !row.loggedIn ? await newContext() : own ? await loggedInContext(member!) : shared!;
    const page = new WidgetPage(await context.newPage());
    const modalRequests: string[] = [];
    page.page.on('request', (request) => {
      if (request.url().includes('widgets-modal.js')) modalRequests.push(request.url());
    });
    const visitsBefore = visits.length;
    try {
      await page.page.goto(`${pages!.url(HOST_A)}?ref=rows&svcopen=${encodeURIComponent(resolvePath(row.path))}`);
      await page.waitForEvent('Service.ready');
      // svcopen leaves the address bar (and nothing else does), whatever the row does.
      expect(new URL(page.page.url()).search).toBe('?ref=rows');
      // Started as the row says: the start-up event names the member, or nobody.
      await page.waitForEvent(row.loggedIn ? 'Service.member.info' : 'Service.member.logout');
      expect((await page.eventTypes()).slice(0, 2)).toEqual(['Service.ready', row.loggedIn ? 'Service.member.info' : 'Service.member.logout']);

      const outcome = row.expect;
      switch (outcome.kind) {
        case 'opens': {
          await waitForDialog(page, outcome.dialog);
          if (outcome.plans) {
            const dialog = dialogNamed(page.page, outcome.dialog);
            await expect.poll(() => dialog.locator('h3').allTextContents(), { timeout: 5_000 }).not.toEqual([]);
            expect((await dialog.locator('h3').allTextContents()).sort()).toEqual(outcome.plans);
          }
          break;
        }
        case 'logInFirst': {
          await waitForDialog(page, LOG_IN);
          await logInThroughModal(page, member!);
          await waitForDialog(page, outcome.then);
          break;
        }
        case 'registers': {
          await waitForDialog(page, REGISTER);
          await registerThroughModal(page);
          expect(await isLoggedIn(page)).toBe(true);
          // LEFT FOR THE AFTER-REGISTRATION ACTION: with no plan, what follows the registration is
          // the site's after-registration action (spec 4.1: stay, offer the plans, or go to an
          // address), being built now. Asserted here: the registration through the modal succeeds;
          // not asserted: what the dialog and the browser do after it.
          if (outcome.then !== null) await waitForDialog(page, outcome.then);
          break;
        }
        case 'goesTo': {
          await expect.poll(() => visits.slice(visitsBefore), { timeout: 5_000 }).toEqual([outcome.url]);
          break;
        }
        case 'logsOut': {
          await page.waitForEvent('Service.member.logout');
          expect(await page.eventTypes()).toEqual(['Service.ready', 'Service.member.info', 'Service.member.logout']);
          expect(await isLoggedIn(page)).toBe(false);
          await wait(SETTLE_MS);
          expect(await hostCount(page.page)).toBe(0);
          expect(modalRequests).toEqual([]);
          break;
        }
        case 'nothing': {
          if (outcome.warnings > 0) await expect.poll(() => warnings(page).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(outcome.warnings);
          await wait(SETTLE_MS);
          expect(warnings(page)).toHaveLength(outcome.warnings);
          expect(await hostCount(page.page)).toBe(0);
          expect(await isLoggedIn(page)).toBe(row.loggedIn);
          // The start-up events only (ready, then who is logged in, or nobody): no second logout.
          expect(await page.eventTypes()).toEqual(['Service.ready', row.loggedIn ? 'Service.member.info' : 'Service.member.logout']);
          break;
        }
        case 'afterRegistrationAction': {
          // LEFT FOR THE AFTER-REGISTRATION ACTION: the whole outcome of this row is the site's
          // after-registration action (spec 4.1), being built now; what the dialog and the browser
          // do is not asserted. Asserted here: svcopen left the address (above), and the member
          // stays logged in.
          await wait(SETTLE_MS);
          expect(await isLoggedIn(page)).toBe(true);
          break;
        }
      }
      if (outcome.kind !== 'nothing') {
        // A row of the table opens no more than one dialog and tells the site owner nothing.
        expect(await hostCount(page.page)).toBeLessThanOrEqual(1);
        expect(widgetMessages(page)).toEqual([]);
      }
      if (outcome.kind !== 'goesTo') expect(visits.slice(visitsBefore)).toEqual([]);
    } finally {
      await page.page.close();
      if (own) await context.close();
    }
  });
}

function outcomeText(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'opens':
      return `"${outcome.dialog}"`;
    case 'logInFirst':
      return `"${LOG_IN}", then "${outcome.then}"`;
    case 'registers':
      return `"${REGISTER}", then ${outcome.then === null ? 'the after-registration action' : `"${outcome.then}"`}`;
    case 'goesTo':
      return `goes to ${outcome.url}`;
    case 'logsOut':
      return 'logs out';
    case 'nothing':
      return outcome.warnings === 0 ? 'nothing' : `nothing, ${outcome.warnings} console warning`;
    case 'afterRegistrationAction':
      return 'the after-registration action';
  }
}
