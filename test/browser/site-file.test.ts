/**
 * A site made from nothing but its site file, in real Chromium. `svc sites apply
 * examples/sites/newsletter.yaml` runs against the database of a running `svc serve` (beside
 * startService's `shop` site: examples/newsletter.html names the newsletter's plans and items by
 * their keys in the file, not by ids, so any database will do), and the service serves the new
 * site at once. On examples/newsletter.html a visitor registers through the widget's modal,
 * answering the file's two sign-up questions, takes the free plan and lands on its welcomeUrl; the
 * archive stays closed (the service refuses its item and names the supporter plans); then the
 * yearly plan with its 14-day trial and the test card 4242…, and the archive opens. The Admin API
 * and the member API show the memberships, the answers and the content view.
 *
 * And `npm start`'s demo (startDemoService): every demo plan's welcomeUrl and contentUrl is a real
 * page now (examples/welcome.html, examples/library.html), answered 200, not a browser error page:
 * a member signing up to Community lands on the first, and is sent to the second by the plan's
 * link once they have it. The example pages link plans and items by their keys in the files, and
 * library.html's plan(…) gating names plans by the ids the demo file gets on a new database: both
 * checked here against what the store holds, so a re-keyed item or a reordered plan fails in a test.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ContentView, Member, Membership } from '../../src/contract/admin';
import type { ConversionDetail, MemberInfo, PlanOffer, SiteConfig } from '../../src/contract/member';
import { demoSiteFile } from '../../src/service/seed/demo-site-file';
import { readSiteFile } from '../../src/service/site-file/read';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { repoRoot } from '../../scripts/lib/paths';
import { launchChromium, skipBrowserTests } from './support/chromium';
import { examplePage, type ExamplePage } from './support/examples';
import { uniqueEmail } from './support/members';
import { startDemoService, startService, svc, type DemoService, type RunningService } from './support/service';
import { browserTest } from './support/suite';
import { recordEventsIn } from './support/widget-page';

const SITE_FILE = 'examples/sites/newsletter.yaml';
/** The newsletter's plans as its file says them: their keys and names, where each sends a member. */
const NEWSLETTER_PLANS = readSiteFile(readFileSync(join(repoRoot, SITE_FILE), 'utf8'), 'yaml', SITE_FILE).file.plans;
const pageOf = (plans: readonly { key: string; welcomeUrl?: string; contentUrl?: string }[], key: string, which: 'welcomeUrl' | 'contentUrl') => {
  const url = plans.find((p) => p.key === key)?.[which];
  if (!url) throw new Error(`plan ${key} has no ${which}`);
  return url;
};

let browser: Browser | undefined;
let service: RunningService | undefined;
let demo: DemoService | undefined;
/** What the first `svc sites apply` printed. */
let applied: Outcome | undefined;
/** An Admin API key of the newsletter site, made with `svc keys create`. */
let adminKey = '';
const contexts: BrowserContext[] = [];

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A `svc` command to its end, with what it printed. */
async function svcOutcome(args: string[]): Promise<Outcome> {
  const child: ChildProcess = svc(args, {});
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium(); // first: a missing Chromium fails before anything starts
    [service, demo] = await Promise.all([startService({ tempPrefix: 'svc-site-file-' }), startDemoService('svc-site-file-demo-')]);
    applied = await svcOutcome(['sites', 'apply', SITE_FILE, '--db', service.db]);
    if (applied.code !== 0) throw new Error(`svc sites apply exited with ${applied.code}:\n${applied.stdout}${applied.stderr}`);
    const key = await svcOutcome(['keys', 'create', '--site', 'newsletter', '--scopes', 'read.members,read.memberships,read.contentViews', '--db', service.db]);
    if (key.code !== 0) throw new Error(`svc keys create exited with ${key.code}:\n${key.stderr}`);
    adminKey = key.stdout.trim();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await demo?.stop();
  });
}

async function newContext(): Promise<BrowserContext> {
  const context = await browser!.newContext();
  contexts.push(context);
  await recordEventsIn(context);
  return context;
}

interface SitePage extends ExamplePage {
  /** Every answer of 400 or more the page got, as `<status> <path>`. */
  failed: string[];
}

/** Opens `url` and waits for Service.ready. */
async function open(context: BrowserContext, url: string): Promise<SitePage> {
  const page = examplePage(await context.newPage()) as SitePage;
  page.failed = [];
  page.page.on('response', (response) => {
    if (response.status() >= 400) page.failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  await page.page.goto(url);
  await page.waitForEvent('Service.ready', { timeout: 15_000 });
  return page;
}

/**
 * Answers the widget expects to fail, which Chromium logs as console errors ("Failed to load
 * resource"): a refused item (403 from GET /content/{key}, the service saying no, as the pages
 * mean it to). "No card saved yet" is a 204, no failure.
 */
const EXPECTED_FAILURES = [/^403 \/member\/v1\/sites\/\w+\/content\/[\w.-]+$/];

/** Console errors and failed answers but the expected ones; one console error per expected failure. */
function unexpectedErrors(page: SitePage): string[] {
  const expected = page.failed.filter((line) => EXPECTED_FAILURES.some((re) => re.test(line)));
  const loadErrors = page.errors().filter((line) => line.startsWith('console.error: Failed to load resource:'));
  return [
    ...page.errors().filter((line) => !loadErrors.includes(line)),
    ...page.failed.filter((line) => !expected.includes(line)),
    ...(loadErrors.length === expected.length ? [] : [`${loadErrors.length} "Failed to load resource" errors for ${expected.length} expected failures`]),
  ];
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

const admin = <T>(path: string) => json<T>(`${service!.url}/admin/v1${path}`, { headers: { authorization: `Bearer ${adminKey}` } });

/** Fills the open "Create an account" dialog: names, e-mail, password, then `custom`; submits. */
async function register(page: SitePage, email: string, custom: (dialog: Locator) => Promise<void>): Promise<void> {
  const dialog = page.page.getByRole('dialog', { name: 'Create an account' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  await dialog.getByLabel('First name', { exact: true }).fill('Luca');
  await dialog.getByLabel('Last name', { exact: true }).fill('Pacioli');
  await dialog.getByLabel('E-mail', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill('debit-and-credit');
  await custom(dialog);
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await page.waitForEvent('Service.member.registration');
}

/** The plans a dialog offers by their buttons: "Plans", or the paywall of the item it is named after. */
async function offered(page: Page, name = 'Plans'): Promise<string[]> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  return dialog.getByRole('button', { name: /^Choose: / }).allTextContents();
}

browserTest('svc sites apply examples/sites/newsletter.yaml: one + line per thing made, the running service serves the site at once, a second apply changes nothing', async () => {
  expect(applied!.stdout.trim().split('\n')).toEqual([
    '+ site newsletter: "The Weekly Ledger" at newsletter.localhost (usd, en)',
    '+ plan reader: "Reader" (free)',
    '+ plan monthly: "Supporter, monthly" (subscription)',
    '+ plan yearly: "Supporter, yearly" (subscription)',
    '+ sign-up field role: "What do you do?" (select, required)',
    '+ sign-up field terms: "I accept the terms of the newsletter" (checkbox, required)',
    '+ space "Archive": opened by monthly, yearly',
    '+ item issue-41: "No. 41: Cash is a fact, profit is an opinion" (article) in "Archive"',
    '+ item issue-40: "No. 40: Pricing the work you love" (article) in "Archive"',
    '+ item issue-39: "No. 39: A year-end checklist" (article) in "Archive"',
    '+ item double-entry: "Further reading: double-entry bookkeeping" (link) in "Archive"',
  ]);
  expect(applied!.stderr).toContain('site newsletter');

  const base = `${service!.url}/member/v1/sites/newsletter`;
  const config = await json<SiteConfig>(`${base}/config`);
  expect(config).toMatchObject({ name: 'The Weekly Ledger', afterRegistration: { action: 'plans' } });
  expect(config.signupFields.map((f) => [f.label, f.type, f.required])).toEqual([
    ['What do you do?', 'select', true],
    ['I accept the terms of the newsletter', 'checkbox', true],
  ]);
  const plans = await json<PlanOffer[]>(`${base}/plans`);
  expect(plans.map((p) => [p.name, p.type, p.trialDays])).toEqual([
    ['Reader', 'free', undefined],
    ['Supporter, monthly', 'subscription', undefined],
    ['Supporter, yearly', 'subscription', 14],
  ]);
  // examples/newsletter.html names plans and items by their keys in the file, never by number.
  const page = readFileSync(join(repoRoot, 'examples/newsletter.html'), 'utf8');
  expect(page).not.toMatch(/svcopen=\/(content|member\/(plans|sign_up))\/\d/);
  // Each offer's link opens, by its key, the plan its card is headed with: all three, in the file's order.
  const offers = [...page.matchAll(/<h3 id="plan-[a-z]+">([^<]+)<\/h3>[\s\S]*?<a class="button[^"]*" href="\?svcopen=\/member\/plans\/([\w.-]+)">/g)];
  expect(offers.map((m) => [m[2], m[1]])).toEqual(NEWSLETTER_PLANS.map((p) => [p.key, p.name]));
  for (const [, name, key] of offers) {
    const offer = await json<PlanOffer>(`${base}/plans/${key}`);
    expect([offer.name, offer.publicId], key).toEqual([name, plans.find((p) => p.name === name)!.publicId]);
  }
  expect((await fetch(`${base}/plans/weekly`)).status).toBe(404);
  // The archive's links are its items by key, in the file's order; the closed archive's "anyway" link is the first.
  const archive = /<ul class="nl-issues" id="archive-open">([\s\S]*?)<\/ul>/.exec(page)![1]!;
  const links = [...archive.matchAll(/<a href="\?svcopen=\/content\/([\w.-]+)\/popup">([^<]+)<\/a>/g)].map((m) => [m[1]!, m[2]!]);
  expect(/<a href="\?svcopen=\/content\/([\w.-]+)\/popup" id="archive-anyway">/.exec(page)?.[1]).toBe(links[0]?.[0]);
  const store = openSqliteStore(service!.db);
  try {
    const site = (await store.getSiteBySubdomain('newsletter'))!;
    const { items } = (await store.getSiteDefinition(site.id))!;
    expect(links).toEqual(items.map((item) => [item.key, item.name]));
  } finally {
    await store.close();
  }
  // The member API takes each key: every item is opened by the two supporter plans.
  for (const [key] of links) {
    const { plans: opening } = await json<{ plans: { name: string }[] }>(`${base}/content/${key}/plans`);
    expect(opening.map((p) => p.name), `item ${key}`).toEqual(['Supporter, monthly', 'Supporter, yearly']);
  }
  expect((await fetch(`${base}/content/issue-43/plans`)).status).toBe(404);

  const again = await svcOutcome(['sites', 'apply', SITE_FILE, '--db', service!.db]);
  expect(again).toMatchObject({ code: 0, stdout: '' });
  expect(again.stderr).toContain('no changes: site newsletter matches');
});

browserTest('every plan of both site files that names pages names pages the service serves (200, text/html)', async () => {
  const urls = new Set<string>();
  for (const plan of [...demoSiteFile().plans, ...NEWSLETTER_PLANS]) {
    if (plan.status === 'deleted') continue;
    for (const url of [plan.welcomeUrl, plan.contentUrl]) {
      expect(url, `plan ${plan.key}`).toMatch(/^\/examples\/[a-z-]+\.html(#[a-z-]+)?$/);
      urls.add(new URL(url!, demo!.url).pathname);
    }
  }
  expect([...urls].sort()).toEqual(['/examples/library.html', '/examples/newsletter.html', '/examples/welcome.html']);
  for (const path of urls) {
    const response = await fetch(`${demo!.url}${path}`);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
  }
});

browserTest('newsletter.html: register in the modal with the file\'s sign-up questions, Reader → its welcomeUrl; the archive is refused; Supporter, yearly (14-day trial, 4242…) → welcomeUrl, the archive opens; the Admin and member APIs agree', async () => {
  const context = await newContext();
  const email = uniqueEmail('ledger');
  const page = await open(context, `${service!.url}/examples/newsletter.html`);

  // 1. Subscribe: the form has the file's questions; then the site offers its plans (afterRegistration: plans).
  await page.page.locator('#subscribe-link').click();
  await register(page, email, async (dialog) => {
    await dialog.getByLabel('What do you do? (required)').selectOption('bookkeeper');
    await dialog.getByLabel('I accept the terms of the newsletter (required)').check();
  });
  // Sold monthly and yearly: the switch is on the yearly plan the file recommends (`highlight`), with its features.
  expect(await offered(page.page)).toEqual(['Choose: Reader', 'Choose: Supporter, yearly']);
  const plans = page.page.getByRole('dialog', { name: 'Plans' });
  expect(await plans.locator('.top h3').textContent()).toBe('Supporter, yearly');
  expect(await plans.locator('.top .includes li').allTextContents()).toEqual(NEWSLETTER_PLANS.find((p) => p.key === 'yearly')!.features);
  await plans.getByRole('radio', { name: 'Monthly' }).check();
  expect(await offered(page.page)).toEqual(['Choose: Reader', 'Choose: Supporter, monthly']);
  await page.page.getByRole('button', { name: 'Choose: Reader' }).click();
  const reader = page.page.getByRole('dialog', { name: 'Reader' });
  await reader.waitFor({ state: 'visible', timeout: 5_000 });
  await reader.getByRole('button', { name: 'Join free' }).click();
  await page.waitForEvent('Service.conversion');

  // 2. The plan's welcomeUrl: this page at #welcome, which greets the new reader.
  expect(pageOf(NEWSLETTER_PLANS, 'reader', 'welcomeUrl')).toBe('/examples/newsletter.html#welcome');
  await page.page.waitForURL(`${service!.url}${pageOf(NEWSLETTER_PLANS, 'reader', 'welcomeUrl')}`, { timeout: 5_000 });
  const welcome = page.page.locator('#welcome');
  await welcome.waitFor({ state: 'visible', timeout: 5_000 });
  expect(await page.page.locator('#welcome-title').textContent()).toBe('Welcome aboard, Luca!');
  // A free reader: the archive is closed, the offer is still there.
  expect(await page.page.locator('#archive-closed').isVisible()).toBe(true);
  expect(await page.page.locator('#archive-open').isVisible()).toBe(false);
  expect(await page.page.locator('#plans').isVisible()).toBe(true);

  // 3. The archive's item anyway: the service refuses it, and the dialog offers the plans that open it.
  await page.page.locator('#archive-anyway').click();
  expect(await offered(page.page, 'No. 41: Cash is a fact, profit is an opinion')).toEqual(['Choose: Supporter, monthly', 'Choose: Supporter, yearly']);
  await page.page.keyboard.press('Escape');
  await page.page.getByRole('dialog').waitFor({ state: 'detached', timeout: 5_000 });

  // 4. From the page afresh: the yearly offer, a link naming the plan by its key, opens its sign-up; a trial,
  // but a card all the same.
  const again = await open(context, `${service!.url}/examples/newsletter.html`);
  await again.page.locator('#plans a[href="?svcopen=/member/plans/yearly"]').click();
  const yearly = again.page.getByRole('dialog', { name: 'Supporter, yearly' });
  await yearly.waitFor({ state: 'visible', timeout: 5_000 });
  expect(await yearly.textContent()).toContain('14-day free trial');
  expect(await yearly.locator('.due').textContent()).toBe('Due now: $0.00');
  await yearly.getByLabel('Card number').fill('4242 4242 4242 4242');
  await yearly.getByLabel('Expiry (MM/YY)').fill('12/34');
  await yearly.getByLabel('Security code').fill('123');
  await yearly.getByRole('button', { name: 'Start 14-day free trial' }).click();
  const conversion = (await again.waitForEvent('Service.conversion')).detail as ConversionDetail;
  expect(conversion.membership).toMatchObject({ name: 'Supporter, yearly', status: 'active', type: 'subscription' });
  expect(conversion.order.grandTotalCents).toBe(0);
  await again.page.waitForURL(`${service!.url}${pageOf(NEWSLETTER_PLANS, 'yearly', 'welcomeUrl')}`, { timeout: 5_000 });
  await again.page.locator('#archive-open').waitFor({ state: 'visible', timeout: 5_000 });
  expect(await again.page.locator('#archive-closed').isVisible()).toBe(false);
  expect(await again.page.locator('#plans').isVisible()).toBe(false);

  // 5. The archive's first letter, in the dialog.
  await again.page.getByRole('link', { name: 'No. 41: Cash is a fact, profit is an opinion' }).click();
  const letter = again.page.getByRole('dialog', { name: 'No. 41: Cash is a fact, profit is an opinion' });
  await letter.waitFor({ state: 'visible', timeout: 5_000 });
  expect(await letter.textContent()).toContain('three numbers');

  // 6. The member API (through the widget): both plans, and the answers to the file's questions.
  const info = (await again.page.evaluate(() => window.Service.getMemberInfo())) as { isLoggedIn: true; memberInfo: MemberInfo };
  expect(info.memberInfo.memberships.map((m) => [m.name, m.status]).sort()).toEqual([
    ['Reader', 'active'],
    ['Supporter, yearly', 'active'],
  ]);
  const fields = (await json<SiteConfig>(`${service!.url}/member/v1/sites/newsletter/config`)).signupFields;
  const answers = Object.fromEntries(info.memberInfo.customSignupFields.map((f) => [fields.find((d) => d.id === f.id)!.label, f.value]));
  expect(answers).toEqual({ 'What do you do?': 'bookkeeper', 'I accept the terms of the newsletter': true });

  // 7. The Admin API: the member, the two memberships (the yearly one billed after its trial), the view.
  const [member] = await admin<Member[]>(`/members?email=${encodeURIComponent(email)}`);
  expect(member).toMatchObject({ email, firstName: 'Luca', lastName: 'Pacioli', status: 'approved' });
  const memberships = await admin<Membership[]>(`/memberships?memberId=${member!.id}`);
  expect(memberships.map((m) => [m.planPublicId, m.type, m.status])).toEqual([
    [info.memberInfo.memberships.find((m) => m.name === 'Reader')!.publicPlanId, 'free', 'active'],
    [conversion.membership.publicPlanId, 'subscription', 'active'],
  ]);
  const trialEnds = Date.parse(memberships[1]!.billing!.billingPeriodEnd) - Date.parse(memberships[1]!.createdAt);
  expect(trialEnds / 86_400_000).toBeCloseTo(14, 0);
  const views = await admin<ContentView[]>(`/contentLibrary/views?memberId=${member!.id}`);
  expect(views.map((v) => [v.node.name, v.spaceNode.name])).toEqual([['No. 41: Cash is a fact, profit is an opinion', 'Archive']]);

  expect(unexpectedErrors(page), page.log.join('\n')).toEqual([]);
  expect(unexpectedErrors(again), again.log.join('\n')).toEqual([]);
  // The refusal and the card check happened, and were all that failed.
  expect(page.failed).toEqual([expect.stringMatching(/^403 .*\/content\/issue-41$/)]);
  // No card saved yet is an answer (204), not a failure.
  expect(again.failed).toEqual([]);
});

browserTest('npm start\'s demo: signing up to Community lands on /examples/welcome.html (200, greets the member, lists the plan); the plan again leads to library.html, which opens what Community opens', async () => {
  const demoPlans = demoSiteFile().plans;
  const welcomeUrl = pageOf(demoPlans, 'community', 'welcomeUrl');
  const contentUrl = pageOf(demoPlans, 'community', 'contentUrl');
  expect([welcomeUrl, contentUrl]).toEqual(['/examples/welcome.html', '/examples/library.html']);
  const context = await newContext();
  const page = await open(context, `${demo!.url}/examples/library.html`);
  // Logged out, every space is closed.
  expect(await page.page.locator('.library-closed').evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).checkVisibility()))).toEqual([true, true, true]);

  await page.page.locator('#register-link').click();
  await register(page, uniqueEmail('academy'), async (dialog) => {
    await dialog.getByLabel('How did you hear about us? (required)').selectOption('podcast');
    await dialog.getByLabel('I accept the house rules (required)').check();
  });
  expect(await offered(page.page)).toContain('Choose: Community');
  await page.page.getByRole('button', { name: 'Choose: Community' }).click();
  const community = page.page.getByRole('dialog', { name: 'Community' });
  await community.waitFor({ state: 'visible', timeout: 5_000 });
  const arrival = page.page.waitForResponse((r: Response) => r.request().isNavigationRequest() && new URL(r.url()).pathname === welcomeUrl);
  await community.getByRole('button', { name: 'Join free' }).click();
  expect((await arrival).status()).toBe(200);

  // The welcome page: a new page with the widget, which knows the member from the stored login.
  await page.page.waitForURL(`${demo!.url}${welcomeUrl}`, { timeout: 5_000 });
  await page.page.waitForFunction(() => window.Service?.ready === true);
  await expect.poll(() => page.page.locator('#welcome-title').textContent(), { timeout: 5_000 }).toBe("Welcome, Luca. You're in.");
  await page.page.locator('#memberships li[data-plan="Community"]').waitFor({ state: 'visible', timeout: 5_000 });

  // Community again, by the page's link naming the plan by its key: the member has it, so the widget goes to
  // its contentUrl, the library.
  const again = page.page.locator('#community-again');
  expect(await again.getAttribute('href')).toBe('?svcopen=/member/plans/community');
  const toLibrary = page.page.waitForResponse((r: Response) => r.request().isNavigationRequest() && new URL(r.url()).pathname === contentUrl);
  await again.click();
  expect((await toLibrary).status()).toBe(200);
  await page.page.waitForURL(`${demo!.url}${contentUrl}`, { timeout: 5_000 });
  // Community opens Getting started and the Podcast, not the Masterclasses.
  const spaces = page.page.locator('ul.library-items');
  await spaces.first().waitFor({ state: 'visible', timeout: 5_000 });
  expect(await spaces.evaluateAll((nodes) => nodes.filter((n) => (n as HTMLElement).checkVisibility()).map((n) => n.getAttribute('data-space')))).toEqual([
    'getting-started',
    'podcast',
  ]);
  await page.page.getByRole('link', { name: 'Welcome', exact: true }).click();
  const article = page.page.getByRole('dialog', { name: 'Welcome' });
  await article.waitFor({ state: 'visible', timeout: 5_000 });
  expect(await article.textContent()).toContain('Welcome to Demo Academy');
  await page.page.keyboard.press('Escape');
  await article.waitFor({ state: 'detached', timeout: 5_000 });
  // A masterclass anyway: refused, and the plans that open it are offered.
  await page.page.locator('#masterclass-anyway').click();
  expect(await offered(page.page, 'Pricing your work')).toEqual(['Choose: Lifetime', 'Choose: Course in three payments', 'Choose: Monthly', 'Choose: Yearly']);

  expect(unexpectedErrors(page), page.log.join('\n')).toEqual([]);
});

browserTest('library.html: each space\'s plan(…) is the ids npm start gives the plans that open it, each link the item of that name in it by its key; every item link names a live item by key', async () => {
  const html = readFileSync(join(repoRoot, 'examples/library.html'), 'utf8');
  const store = openSqliteStore(demo!.db); // a second connection beside the service's
  try {
    const site = (await store.getSiteBySubdomain('demo'))!;
    const definition = (await store.getSiteDefinition(site.id))!;
    const blocks = [...html.matchAll(/<ul class="library-items" data-space="([a-z-]+)" data-svc-show="plan\(([\d, ]+)\)"[^>]*>([\s\S]*?)<\/ul>/g)];
    expect(blocks.map((b) => b[1])).toEqual(['getting-started', 'masterclasses', 'podcast']);
    expect(blocks.length).toBe(definition.spaces.length);
    for (const [, key, planIds, list] of blocks) {
      const space = definition.spaces.find((sp) => sp.name.toLowerCase().replace(/ /g, '-') === key)!;
      expect(space, key).toBeDefined();
      const ids = planIds!.split(',').map((id) => Number(id.trim()));
      expect([...ids].sort((a, b) => a - b), key).toEqual([...space.planIds].sort((a, b) => a - b));
      // The placeholder names the same criterion.
      expect(html, key).toContain(`data-space="${key}" data-svc-hide="plan(${planIds})"`);
      const links = [...list!.matchAll(/<a href="\?svcopen=\/content\/([\w.-]+)(?:\/popup)?">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
      const items = definition.items.filter((item) => item.spaceId === space.id && item.archivedAt === undefined);
      expect(links, key).toEqual(items.map((item) => [item.key, item.name]));
    }
    // Every item link on the page (the "anyway" links and the example code too) names a live item by its key.
    const live = new Set(definition.items.filter((item) => item.archivedAt === undefined).map((item) => item.key));
    const refs = [...html.matchAll(/svcopen=\/content\/([^/"&\s]+)/g)].map((m) => m[1]!);
    expect(refs.length).toBe(16); // 13 items, 2 "anyway" links, 1 in the example code
    expect(refs.filter((ref) => !live.has(ref))).toEqual([]);
  } finally {
    await store.close();
  }
});
