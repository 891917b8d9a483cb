/**
 * Every row of spec 4.1's svcopen table, logged out and logged in, in real Chromium against the
 * real service (`svc serve` in the worker): `?svcopen=<path>` on the site's page opens the dialog the table names
 * (found by its accessible name, as assistive technology finds it), "log in first" and "register
 * first" continue to the screen asked for once the visitor has logged in or registered through the
 * modal, /member/sign_out logs out (and does nothing for a visitor), a path that names no row opens
 * nothing and logs one console warning, and svcopen always leaves the address bar.
 *
 * The rows are data (ROWS): append a row to test another path. The site's after-registration
 * action is `plans` (registering with no plan named, and a logged-in /member/plans, offer the
 * public plans), and it has no member menu (a logged-in /member/sign_in and /member/sign_up show
 * the account screen). Protected content (/content/…): a space opened by Community with an
 * article, a video and a file, and a space opened only by Monthly; the content's addresses (and
 * the plans' content URL) are answered 204 by the test, so the page stays where it is, and every
 * navigation to them is recorded. After the rows, the viewings the service granted are checked
 * against its content views.
 *
 * Not rows, tests of their own after them: a site with the member menu on, the `redirect`
 * after-registration action (both changed through the store for the test, and set back after it),
 * `Service.open()` from the page's code, and a link on the page to `?svcopen=…`.
 *
 * The `shop` site made by the CLI has no plans, so this file starts its own service
 * (`startService` with a `setup` that writes plans, settings and content through the store: the
 * CLI has no plan command). One member, on the free plan, is logged in once in a shared browser
 * context that every logged-in row uses (but sign-out, which has its own).
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SiteConfig } from '../../src/contract/member';
import { systemClock } from '../../src/service/domain/clock';
import { defineContentSpace } from '../../src/service/domain/content';
import { definePlan } from '../../src/service/domain/plans';
import type { SitePatch } from '../../src/service/store/records';
import { launchChromium, skipBrowserTests, SITE_DOMAIN } from './support/chromium';
import { createMember, uniqueEmail, type TestMember } from './support/members';
import { startPageServer, type PageServer } from './support/page-server';
import { startService, SUBDOMAIN, type RunningService, type ServiceOptions } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

/** Where the free plan's content is. */
const CONTENT_URL = `http://content.${SITE_DOMAIN}/library`;
const WELCOME_URL = `http://welcome.${SITE_DOMAIN}/welcome`;
/** Where the protected content's video and file are. */
const MEDIA = `http://media.${SITE_DOMAIN}`;
const VIDEO_URL = `${MEDIA}/welcome.mp4`;
const FILE_URL = `${MEDIA}/price-list.pdf`;
/** Where the `redirect` after-registration action sends a new member. */
const AFTER_URL = `http://after.${SITE_DOMAIN}/hello`;
/** Hosts off the page whose requests the test answers 204 (a 204 navigation leaves the page where it is). */
const AWAY_HOSTS = new Set([CONTENT_URL, WELCOME_URL, MEDIA, AFTER_URL].map((url) => new URL(url).host));

/** The content items' names: a dialog showing an item is titled with its name. */
const ARTICLE = 'House rules';
const VIDEO = 'Welcome video';
const FILE = 'Price list';
const MONTHLY_ONLY = 'Monthly letter';
/** The article as written, with what the sanitizer cuts (an event handler, a script), and its text once shown. */
const ARTICLE_BODY = '<p>Be kind, <strong>stay on topic</strong>.</p><p onclick="window.__clicked = true">No spam.</p><script>window.__pwned = true</script>';
const ARTICLE_TEXT = 'Be kind, stay on topic.No spam.';

/**
 * What a row's svcopen does:
 * - `opens`: that dialog opens at once, showing `shows` when given;
 * - `logInFirst`: the login dialog opens; once logged in through it, the same dialog shows `then`;
 * - `paywallFirst`: protected content's paywall opens (titled with the item, `then`), offering
 *   `choices`; its "Log in" opens the login, and once logged in, the same dialog shows `then`;
 * - `registers`: the registration dialog opens; once registered through it, the same dialog shows
 *   `then` (the plan named, or what the after-registration action shows: this site's is `plans`);
 * - `goesTo`: the browser goes to that address (the plan's content URL);
 * - `logsOut`: the member is logged out, and no dialog opens;
 * - `nothing`: no dialog, no event, the login as it was, and exactly `warnings` console warnings.
 */
type Outcome =
  | { kind: 'opens'; dialog: string; shows?: Shown }
  | { kind: 'logInFirst'; then: string; shows?: Shown }
  | { kind: 'paywallFirst'; choices: string[]; then: string; shows?: Shown }
  | { kind: 'registers'; then: string; shows?: Shown }
  | { kind: 'goesTo'; url: string }
  | { kind: 'logsOut' }
  | { kind: 'nothing'; warnings: number };

/**
 * What the dialog shows:
 * - `plans`: the plans screen's plans (their names, sorted);
 * - `article`: the article's sanitized body (its text; no handler, no script);
 * - `player`: a `<video>` or `<audio>` with controls playing `src`;
 * - `download`: "Your download of “<name>” has started.", a "Download again" link to `url`, and
 *   the browser fetches `url`;
 * - `choices`: the alert "“<item>” is for members of these plans:" and one "Choose: <plan>"
 *   button per plan;
 * - `alert`: an alert with that text;
 * - `account`: a plan's sign-up for a visitor: the account's fields (e-mail, password) in the
 *   sign-up's form, one submit button, and "Log in" for a member.
 */
type Shown =
  | { plans: string[] }
  | { article: string }
  | { player: 'video' | 'audio'; src: string }
  | { download: string }
  | { choices: string[] }
  | { alert: string }
  | { account: true };

interface Row {
  /** `{monthly}` and `{community}` stand for those plans' public ids, `{article}`, `{video}`, `{file}` and `{monthlyOnly}` for those items' ids. */
  path: string;
  loggedIn: boolean;
  expect: Outcome;
}

/** The dialogs' accessible names (their titles, English catalogue). */
const LOG_IN = 'Log in';
const REGISTER = 'Create an account';
const ACCOUNT = 'Your account';
const PLANS = 'Plans';
const WITH_ACCOUNT: Shown = { account: true };
/** The public plans (not Insiders), as the plans screen lists them. */
const PUBLIC_PLANS: Shown = { plans: ['Community', 'Monthly'] };

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
  // action runs (this site's: the plans).
  { path: '/member/sign_up', loggedIn: false, expect: { kind: 'registers', then: PLANS, shows: PUBLIC_PLANS } },
  { path: '/member/sign_up/{monthly}', loggedIn: false, expect: { kind: 'registers', then: 'Monthly' } },
  { path: '/member/sign_up/{community}', loggedIn: false, expect: { kind: 'registers', then: 'Community' } },
  { path: '/member/sign_up', loggedIn: true, expect: { kind: 'opens', dialog: ACCOUNT } },
  { path: '/member/sign_up/{monthly}', loggedIn: true, expect: { kind: 'opens', dialog: ACCOUNT } },
  // Plan sign-up: offers the plan; already on it, the browser goes to its content URL; with no
  // plan, the after-registration action runs (the plans). Logged out: the plan's screen, where
  // the account is made in the same form as the sign-up (register first, in one step: issue 29).
  // No plan named, logged out: register first.
  { path: '/member/plans/{monthly}', loggedIn: true, expect: { kind: 'opens', dialog: 'Monthly' } },
  { path: '/member/plans/{community}', loggedIn: true, expect: { kind: 'goesTo', url: CONTENT_URL } },
  { path: '/member/plans', loggedIn: true, expect: { kind: 'opens', dialog: PLANS, shows: PUBLIC_PLANS } },
  { path: '/member/plans/{monthly}', loggedIn: false, expect: { kind: 'opens', dialog: 'Monthly', shows: WITH_ACCOUNT } },
  { path: '/member/plans/{community}', loggedIn: false, expect: { kind: 'opens', dialog: 'Community', shows: WITH_ACCOUNT } },
  // Logged out with no plan: register first, then what a logged-in /member/plans does (the action).
  { path: '/member/plans', loggedIn: false, expect: { kind: 'registers', then: PLANS, shows: PUBLIC_PLANS } },
  // All plans: any public plan (not Insiders), logged out too: the visitor chooses first.
  { path: '/member/plans/all', loggedIn: true, expect: { kind: 'opens', dialog: PLANS, shows: PUBLIC_PLANS } },
  { path: '/member/plans/all', loggedIn: false, expect: { kind: 'opens', dialog: PLANS, shows: PUBLIC_PLANS } },
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
  // Protected content: shows the content; `download` (the default) or `popup`, some types
  // support only one (an article is shown whatever is asked, a file is downloaded). Logged out:
  // its paywall, with "Already a member? Log in".
  { path: '/content/{article}', loggedIn: true, expect: { kind: 'opens', dialog: ARTICLE, shows: { article: ARTICLE_TEXT } } },
  { path: '/content/{article}/download', loggedIn: true, expect: { kind: 'opens', dialog: ARTICLE, shows: { article: ARTICLE_TEXT } } },
  { path: '/content/{video}/popup', loggedIn: true, expect: { kind: 'opens', dialog: VIDEO, shows: { player: 'video', src: VIDEO_URL } } },
  { path: '/content/{video}', loggedIn: true, expect: { kind: 'opens', dialog: VIDEO, shows: { download: VIDEO_URL } } },
  { path: '/content/{file}/download', loggedIn: true, expect: { kind: 'opens', dialog: FILE, shows: { download: FILE_URL } } },
  { path: '/content/{file}/popup', loggedIn: true, expect: { kind: 'opens', dialog: FILE, shows: { download: FILE_URL } } },
  { path: '/content/{article}', loggedIn: false, expect: { kind: 'paywallFirst', choices: ['Community'], then: ARTICLE, shows: { article: ARTICLE_TEXT } } },
  // Content the member's plans do not open: the public plans that do.
  { path: '/content/{monthlyOnly}', loggedIn: true, expect: { kind: 'opens', dialog: MONTHLY_ONLY, shows: { choices: ['Monthly'] } } },
  { path: '/content/999999999', loggedIn: true, expect: { kind: 'opens', dialog: 'Something went wrong', shows: { alert: 'This content does not exist.' } } },
  // An item is named by its key in the site file too: an unknown one is an unknown item.
  { path: '/content/no-such-item', loggedIn: true, expect: { kind: 'opens', dialog: 'Something went wrong', shows: { alert: 'This content does not exist.' } } },
  // No row: nothing opens, one warning for the site owner.
  { path: '/member/nowhere', loggedIn: false, expect: { kind: 'nothing', warnings: 1 } },
  { path: '/member/nowhere', loggedIn: true, expect: { kind: 'nothing', warnings: 1 } },
  { path: '/member/account/delete', loggedIn: true, expect: { kind: 'nothing', warnings: 1 } },
  { path: '/member/plans/all/extra', loggedIn: false, expect: { kind: 'nothing', warnings: 1 } },
  { path: '/content/42/print', loggedIn: true, expect: { kind: 'nothing', warnings: 1 } },
];

let browser: Browser | undefined;
let pages: PageServer | undefined;
let service: RunningService | undefined;
/** The rows' placeholders: plans' public ids and content items' ids. */
const ids = { monthly: '', community: '', article: '', video: '', file: '', monthlyOnly: '' };
/** On Community; logged in once in `shared`. */
let member: TestMember | undefined;
let shared: BrowserContext | undefined;
/** The shared context's tab, where the logged-in rows load their pages one after another. */
let sharedTab: Page | undefined;
/** Where the browser went off the page (navigations to AWAY_HOSTS), in every context. */
const visits: string[] = [];
/** The content items the rows that ran were granted (one viewing each): `nodeId` of every content view expected. */
const granted: number[] = [];

/** Plans (Monthly, Community with a content URL, Insiders not public), the after-registration action, the content. */
const setup: ServiceOptions['setup'] = async (store, site) => {
  const define = (definition: Parameters<typeof definePlan>[3]) => definePlan(store, systemClock, site.id, definition);
  const monthly = await define({
    name: 'Monthly',
    type: 'subscription',
    billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } },
    welcomeUrl: WELCOME_URL,
  });
  const community = await define({ name: 'Community', type: 'free', expiration: { mode: 'none' }, contentUrl: CONTENT_URL, welcomeUrl: WELCOME_URL });
  await define({ name: 'Insiders', type: 'subscription', isPublic: false, billing: { price: 30, currency: 'usd', interval: { count: 1, unit: 'month' } } });
  ids.monthly = monthly.publicId;
  ids.community = community.publicId;
  await store.updateSite(site.id, { afterRegistration: { action: 'plans' } });
  const library = await defineContentSpace(store, site.id, {
    name: 'Library',
    planIds: [community.id],
    items: [
      { name: ARTICLE, type: 'article', body: ARTICLE_BODY },
      { name: VIDEO, type: 'video', url: VIDEO_URL },
      { name: FILE, type: 'file', url: FILE_URL },
    ],
  });
  [ids.article, ids.video, ids.file] = library.map(String) as [string, string, string];
  const extras = await defineContentSpace(store, site.id, {
    name: 'Monthly extras',
    planIds: [monthly.id],
    items: [{ name: MONTHLY_ONLY, type: 'article', body: '<p>What happened this month.</p>' }],
  });
  ids.monthlyOnly = String(extras[0]);
};

/** A context whose pages record widget events and whose requests to the hosts off the page are answered 204. */
async function newContext(): Promise<BrowserContext> {
  const context = await browser!.newContext();
  await recordEventsIn(context);
  await context.route(
    (url) => AWAY_HOSTS.has(url.host),
    (route) => {
      // The player's own requests for the video are not the browser going there.
      if (route.request().isNavigationRequest()) visits.push(route.request().url());
      return route.fulfill({ status: 204 }); // a 204 navigation leaves the page where it is
    },
  );
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

/** Changes the site's settings through the store; the running service reads them on the next request. */
async function updateSite(patch: SitePatch): Promise<void> {
  await service!.withStore((store, site) => store.updateSite(site.id, patch));
}

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    service = await startService({ tempPrefix: 'svc-rows-', setup });
    pages = await startPageServer(`${service.url}/scripts/widgets.js`);
    const origin = pages.url(HOST_A).replace(/\/$/, '');
    member = await createMember(service.url, origin, { firstName: 'Grace', lastName: 'Hopper' });
    const joined = await fetch(`${service.url}/member/v1/sites/${SUBDOMAIN}/memberships`, {
      method: 'POST',
      headers: { origin, authorization: `Bearer ${member.session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ planPublicId: ids.community }),
    });
    if (joined.status !== 201) throw new Error(`joining Community answered ${joined.status}: ${await joined.text()}`);
    // The rows are for a site with no member menu (the default): the account screen, not the
    // menu; and whose after-registration action offers the plans.
    const config = (await (await fetch(`${service.url}/member/v1/sites/${SUBDOMAIN}/config`, { headers: { origin } })).json()) as SiteConfig;
    if (config.memberMenu !== false || config.afterRegistration.action !== 'plans') throw new Error(`the site is not as the rows need it: ${JSON.stringify(config)}`);
    shared = await loggedInContext(member);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await service?.stop();
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

/** Checks what the dialog named `dialog` shows (and, for a download, that the browser fetched the file). */
async function expectShown(page: WidgetPage, dialog: string, shown: Shown, visitsBefore: number): Promise<void> {
  const box = dialogNamed(page.page, dialog);
  if ('plans' in shown) {
    await expect.poll(() => box.locator('h3').allTextContents(), { timeout: 5_000 }).not.toEqual([]);
    expect((await box.locator('h3').allTextContents()).sort()).toEqual(shown.plans);
  } else if ('article' in shown) {
    expect(await box.locator('.rich').textContent()).toBe(shown.article);
    expect(await box.locator('.rich strong').textContent()).toBe('stay on topic');
    // Cut when it was saved: no handler, no script, nothing ran.
    expect(await box.locator('[onclick], script').count()).toBe(0);
    expect(await page.page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
  } else if ('player' in shown) {
    const player = box.locator(shown.player);
    expect(await player.count()).toBe(1);
    expect(await player.getAttribute('src')).toBe(shown.src);
    expect(await player.getAttribute('controls')).not.toBeNull();
  } else if ('download' in shown) {
    expect(await box.getByRole('status').textContent()).toBe(`Your download of “${dialog}” has started.`);
    expect(await box.getByRole('link', { name: 'Download again', exact: true }).getAttribute('href')).toBe(shown.download);
    await expect.poll(() => visits.slice(visitsBefore), { timeout: 5_000 }).toEqual([shown.download]);
  } else if ('account' in shown) {
    const form = box.locator('form');
    for (const label of ['E-mail', 'Password']) expect(await form.getByLabel(label, { exact: true }).count(), label).toBe(1);
    expect(await form.locator('[type=submit]').count()).toBe(1);
    expect(await box.getByRole('button', { name: 'Log in', exact: true }).count()).toBe(1);
  } else if ('choices' in shown) {
    expect(await box.getByRole('alert').textContent()).toBe(`“${dialog}” is for members of these plans:`);
    expect(await box.getByRole('button', { name: /^Choose: / }).allTextContents()).toEqual(shown.choices.map((plan) => `Choose: ${plan}`));
  } else {
    expect(await box.getByRole('alert').textContent()).toBe(shown.alert);
  }
}

const resolvePath = (path: string) => path.replace(/\{(\w+)\}/g, (_, key: keyof typeof ids) => ids[key]);

/** The content item a row is granted (and the service records a viewing of), if any. */
function grantedItem(row: Row): number | undefined {
  const outcome = row.expect;
  const shows = outcome.kind === 'opens' || outcome.kind === 'logInFirst' || outcome.kind === 'paywallFirst' ? outcome.shows : undefined;
  const id = /^\/content\/(\d+)/.exec(resolvePath(row.path))?.[1];
  return id && shows && ('article' in shows || 'player' in shows || 'download' in shows) ? Number(id) : undefined;
}

/** The navigations off the page a row makes. */
function expectedVisits(outcome: Outcome): string[] {
  if (outcome.kind === 'goesTo') return [outcome.url];
  const shows = 'shows' in outcome ? outcome.shows : undefined;
  return shows && 'download' in shows ? [shows.download] : [];
}

for (const row of ROWS) {
  const title = `${row.loggedIn ? 'logged in ' : 'logged out'}  svcopen=${row.path}  →  ${outcomeText(row.expect)}`;
  browserTest(title, async () => {
    // Sign-out ends the session of its context: it gets its own, so the shared one stays logged in.
    // The other logged-in rows load their page in the shared context's one tab, one after another,
    // as a member going from page to page would (a new tab a row started a renderer process each).
    const own = !row.loggedIn || row.expect.kind === 'logsOut';
    const context = !row.loggedIn ? await newContext() : own ? await loggedInContext(member!) : shared!;
    if (!own && (!sharedTab || sharedTab.isClosed())) sharedTab = await shared!.newPage();
    const page = new WidgetPage(own ? await context.newPage() : sharedTab!);
    const modalRequests: string[] = [];
    const onRequest = (request: Request) => {
      if (request.url().includes('widgets-modal.js')) modalRequests.push(request.url());
    };
    page.page.on('request', onRequest);
    const visitsBefore = visits.length;
    const item = grantedItem(row);
    if (item !== undefined) granted.push(item);
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
          if (outcome.shows) await expectShown(page, outcome.dialog, outcome.shows, visitsBefore);
          break;
        }
        case 'logInFirst': {
          await waitForDialog(page, LOG_IN);
          await logInThroughModal(page, member!);
          await waitForDialog(page, outcome.then);
          if (outcome.shows) await expectShown(page, outcome.then, outcome.shows, visitsBefore);
          break;
        }
        case 'paywallFirst': {
          await waitForDialog(page, outcome.then);
          await expectShown(page, outcome.then, { choices: outcome.choices }, visitsBefore);
          await dialogNamed(page.page, outcome.then).getByRole('button', { name: LOG_IN, exact: true }).click();
          await waitForDialog(page, LOG_IN);
          await logInThroughModal(page, member!);
          await waitForDialog(page, outcome.then);
          if (outcome.shows) await expectShown(page, outcome.then, outcome.shows, visitsBefore);
          break;
        }
        case 'registers': {
          await waitForDialog(page, REGISTER);
          await registerThroughModal(page);
          expect(await isLoggedIn(page)).toBe(true);
          await waitForDialog(page, outcome.then);
          if (outcome.shows) await expectShown(page, outcome.then, outcome.shows, visitsBefore);
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
      }
      if (outcome.kind !== 'nothing') {
        // A row of the table opens no more than one dialog and tells the site owner nothing.
        expect(await hostCount(page.page)).toBeLessThanOrEqual(1);
        expect(widgetMessages(page)).toEqual([]);
      }
      expect(visits.slice(visitsBefore)).toEqual(expectedVisits(outcome));
    } finally {
      page.page.off('request', onRequest);
      page.detach();
      if (own) await context.close();
    }
  });
}

browserTest('every viewing granted above is a content view of the member; the content denied is viewed by nobody', async () => {
  const memberId = member!.session.memberInfo.id;
  const { mine, denied } = await service!.withStore(async (store, site) => ({
    mine: (await store.listContentViews(site.id, { memberId }, { limit: 100 })).items,
    denied: (await store.listContentViews(site.id, { nodeId: Number(ids.monthlyOnly) }, { limit: 100 })).items,
  }));
  const byId = (a: number, b: number) => a - b;
  expect(mine.map((view) => view.nodeId).sort(byId)).toEqual([...granted].sort(byId));
  // What the Admin API hands out with each view: the item and its space.
  const names = new Map([
    [Number(ids.article), ARTICLE],
    [Number(ids.video), VIDEO],
    [Number(ids.file), FILE],
  ]);
  for (const view of mine) expect(view).toMatchObject({ memberId, node: { id: view.nodeId, name: names.get(view.nodeId) }, space: { name: 'Library' } });
  expect(denied).toEqual([]);
});

/** Opens the site's page, with `?svcopen=<path>` when given, and waits for Service.ready. */
async function openAt(context: BrowserContext, path?: string): Promise<WidgetPage> {
  const page = new WidgetPage(await context.newPage());
  await page.page.goto(`${pages!.url(HOST_A)}${path === undefined ? '' : `?svcopen=${encodeURIComponent(path)}`}`);
  await page.waitForEvent('Service.ready');
  return page;
}

/** Records every navigation of the page's main frame (a new document, or the same one's history) and every load from now on. */
function watchNavigations(page: Page): string[] {
  const seen: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(`framenavigated ${frame.url()}`);
  });
  page.on('load', () => seen.push('load'));
  return seen;
}

browserTest('member menu on: a logged-in /member/sign_in and /member/sign_up open "Menu"; its "Your memberships" opens in the same dialog', async () => {
  await updateSite({ memberMenu: true });
  const opened: WidgetPage[] = [];
  try {
    const signUp = await openAt(shared!, '/member/sign_up');
    opened.push(signUp);
    await waitForDialog(signUp, 'Menu');

    const page = await openAt(shared!, '/member/sign_in');
    opened.push(page);
    await waitForDialog(page, 'Menu');
    const menu = dialogNamed(page.page, 'Menu');
    expect(await menu.getByText('Logged in as Grace Hopper', { exact: true }).count()).toBe(1);
    const nav = menu.getByRole('navigation', { name: 'Menu', exact: true });
    expect(await nav.getByRole('button').allTextContents()).toEqual(['Your account', 'Your memberships', 'Invoices', 'Plans', 'Log out']);
    // Marks the <dialog> element, to find it again after the click.
    await page.page.evaluate(() => {
      const dialog = document.querySelector('[data-svc-modal]')!.shadowRoot!.querySelector('dialog')!;
      (dialog as HTMLDialogElement & { __menu?: boolean }).__menu = true;
    });
    await nav.getByRole('button', { name: 'Your memberships', exact: true }).click();
    await waitForDialog(page, 'Your memberships');
    expect(await dialogNamed(page.page, 'Menu').count()).toBe(0);
    expect(await hostCount(page.page)).toBe(1);
    expect(
      await page.page.evaluate(() => {
        const dialog = document.querySelector('[data-svc-modal]')!.shadowRoot!.querySelector('dialog')!;
        return (dialog as HTMLDialogElement & { __menu?: boolean }).__menu === true && dialog.open;
      }),
    ).toBe(true);
    await expect.poll(() => dialogNamed(page.page, 'Your memberships').locator('li').allTextContents(), { timeout: 5_000 }).toEqual([expect.stringMatching(/^Community/)]);
    for (const p of opened) expect(widgetMessages(p)).toEqual([]);
  } finally {
    await Promise.all(opened.map((p) => p.page.close()));
    await updateSite({ memberMenu: false });
  }
});

browserTest('after-registration "redirect": a logged-in /member/plans goes to the address and draws no dialog', async () => {
  await updateSite({ afterRegistration: { action: 'redirect', url: AFTER_URL } });
  const page = new WidgetPage(await shared!.newPage());
  try {
    // Counts every widget host ever added to the page, even one removed at once.
    await page.page.addInitScript(() => {
      const w = window as unknown as { __hosts: number };
      w.__hosts = 0;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node instanceof Element && (node.matches('[data-svc-modal]') || node.querySelector('[data-svc-modal]'))) w.__hosts++;
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const visitsBefore = visits.length;
    await page.page.goto(`${pages!.url(HOST_A)}?svcopen=${encodeURIComponent('/member/plans')}`);
    await page.waitForEvent('Service.ready');
    await expect.poll(() => visits.slice(visitsBefore), { timeout: 5_000 }).toEqual([AFTER_URL]);
    await wait(SETTLE_MS);
    expect(visits.slice(visitsBefore)).toEqual([AFTER_URL]);
    expect(await page.page.evaluate(() => (window as unknown as { __hosts: number }).__hosts)).toBe(0);
    expect(await hostCount(page.page)).toBe(0);
    expect(await isLoggedIn(page)).toBe(true);
    expect(widgetMessages(page)).toEqual([]);
  } finally {
    await page.page.close();
    await updateSite({ afterRegistration: { action: 'plans' } });
  }
});

browserTest('after-registration "redirect": registering at /member/sign_up goes to the address; the dialog closes', async () => {
  await updateSite({ afterRegistration: { action: 'redirect', url: AFTER_URL } });
  const context = await newContext();
  try {
    const page = await openAt(context, '/member/sign_up');
    await waitForDialog(page, REGISTER);
    const visitsBefore = visits.length;
    await registerThroughModal(page);
    await expect.poll(() => visits.slice(visitsBefore), { timeout: 5_000 }).toEqual([AFTER_URL]);
    await dialogNamed(page.page, REGISTER).waitFor({ state: 'detached', timeout: 5_000 });
    await expect.poll(() => hostCount(page.page), { timeout: 5_000 }).toBe(0);
    expect(await isLoggedIn(page)).toBe(true);
    expect(widgetMessages(page)).toEqual([]);
  } finally {
    await context.close();
    await updateSite({ afterRegistration: { action: 'plans' } });
  }
});

browserTest('Service.open("/member/account") opens "Your account" from the page\'s code, without a navigation', async () => {
  const page = await openAt(shared!);
  try {
    await page.waitForEvent('Service.member.info');
    const url = page.page.url();
    const navigations = watchNavigations(page.page);
    await page.page.evaluate(() => window.Service.open('/member/account'));
    await waitForDialog(page, ACCOUNT);
    await wait(SETTLE_MS);
    expect(page.page.url()).toBe(url);
    expect(navigations).toEqual([]);
    expect(await hostCount(page.page)).toBe(1);
    // A path of no row is refused, in words.
    const refused = await page.page.evaluate(() => window.Service.open('/member/nowhere').then(() => 'resolved', (error: { code?: string }) => error.code));
    expect(refused).toBe('unknownScreen');
    expect(widgetMessages(page).filter((line) => !line.includes('/member/nowhere'))).toEqual([]);
  } finally {
    await page.page.close();
  }
});

browserTest('a link on the page to ?svcopen=%2Fmember%2Fsign_in opens "Log in" on click, without a navigation', async () => {
  const context = await newContext();
  try {
    const page = await openAt(context);
    await page.waitForEvent('Service.member.logout');
    const url = page.page.url();
    await page.page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '?svcopen=%2Fmember%2Fsign_in';
      link.textContent = 'Member login';
      document.body.append(link);
    });
    const navigations = watchNavigations(page.page);
    await page.page.getByRole('link', { name: 'Member login', exact: true }).click();
    await waitForDialog(page, LOG_IN);
    await wait(SETTLE_MS);
    expect(navigations).toEqual([]);
    expect(page.page.url()).toBe(url);
    expect(await hostCount(page.page)).toBe(1);
    expect(widgetMessages(page)).toEqual([]);
  } finally {
    await context.close();
  }
});

function outcomeText(outcome: Outcome): string {
  const shows = 'shows' in outcome && outcome.shows ? ` (${shownText(outcome.shows)})` : '';
  switch (outcome.kind) {
    case 'opens':
      return `"${outcome.dialog}"${shows}`;
    case 'logInFirst':
      return `"${LOG_IN}", then "${outcome.then}"${shows}`;
    case 'paywallFirst':
      return `"${outcome.then}" (choose ${outcome.choices.join(', ')}, or log in), then "${outcome.then}"${shows}`;
    case 'registers':
      return `"${REGISTER}", then "${outcome.then}"${shows}`;
    case 'goesTo':
      return `goes to ${outcome.url}`;
    case 'logsOut':
      return 'logs out';
    case 'nothing':
      return outcome.warnings === 0 ? 'nothing' : `nothing, ${outcome.warnings} console warning`;
  }
}

function shownText(shown: Shown): string {
  if ('plans' in shown) return shown.plans.join(', ');
  if ('article' in shown) return 'the article';
  if ('player' in shown) return `a ${shown.player} player`;
  if ('download' in shown) return `downloads ${shown.download}`;
  if ('choices' in shown) return `choose ${shown.choices.join(', ')}`;
  if ('account' in shown) return 'with the account\'s fields';
  return `alert "${shown.alert}"`;
}
