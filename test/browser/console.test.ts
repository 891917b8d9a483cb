/**
 * The owner console (issue 32) in Chromium against `svc serve --demo`, signed in with the key the
 * demo prints: what it shows is what the Admin API reports (the test pages through the API
 * itself), the members table filters and pages with the cursor headers, CSV downloads quote and
 * defuse what they must, a narrower key sees only its sections and is told why, the key lives in
 * sessionStorage only, axe finds nothing in light and dark, and the page works from the keyboard
 * under its strict policy. Screenshots at 1280 and 375 px go to test-results/console/.
 * (The owner actions: console-actions.test.ts; a 429 waited out: console-rate-limit.test.ts.)
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { distDir } from '../../scripts/lib/paths';
import type { Member, Membership, Plan } from '../../src/contract/admin';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { readable } from './support/axe';
import { CONSOLE_SCREENSHOT_DIR, pageViolations, readsDone, useConsoleSuite, violations } from './support/console';
import { browserTest } from './support/suite';

const suite = useConsoleSuite();

/** Byte budgets of the console's files, gzipped (README, "The owner console"). */
const BUDGET = { js: 16_000, css: 3_000 };

const dollars = (amount: number, currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount);
const number = (n: number) => new Intl.NumberFormat('en-US').format(n);

/** The rows of the table with this caption, each cell's text. */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) }).first();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

/** A file the page downloads when `click` runs, as text without its byte order mark. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8').replace(/^\uFEFF/, '') };
}

browserTest('served at /console/ under its strict policy: one script, one style sheet, nothing inline, within its byte budget', async () => {
  const response = await fetch(`${suite.service.url}/console/`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self';/);
  const html = await response.text();
  expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="console.js" defer>']);
  expect(html).not.toMatch(/<style|style=|\son\w+=/i);
  const js = readFileSync(join(distDir, 'console/console.js'));
  const css = readFileSync(join(distDir, 'console/console.css'));
  expect(gzipSync(js).length, `console.js is ${gzipSync(js).length} bytes gzipped`).toBeLessThan(BUDGET.js);
  expect(gzipSync(css).length, `console.css is ${gzipSync(css).length} bytes gzipped`).toBeLessThan(BUDGET.css);
});

browserTest('signed in with the demo key, the overview shows what the Admin API reports: members now, active memberships by plan, MRR per currency', async () => {
  const context = await suite.newContext();
  const console = await suite.signIn(context);
  const { page } = console;
  await readsDone(page);

  // Members now: every member the API lists but the erased.
  const members = await suite.adminAll<Member>('/members');
  const now = members.filter((m) => m.status !== 'erased').length;
  expect(now).toBeGreaterThan(300);
  expect(await page.locator('[data-figure="members-now"]').textContent()).toBe(number(now));

  // Active memberships by plan, named by the plans the API has (archived ones read by id).
  const active = await suite.adminAll<Membership>('/memberships?status=active');
  const plans = new Map((await suite.adminAll<Plan>('/plans')).map((p) => [p.id, p]));
  for (const id of new Set(active.map((m) => m.planId))) if (!plans.has(id)) plans.set(id, await suite.adminGet<Plan>(`/plans/${id}`));
  const byPlan = new Map<string, number>();
  for (const m of active) byPlan.set(plans.get(m.planId)!.name, (byPlan.get(plans.get(m.planId)!.name) ?? 0) + 1);
  const shown = await tableRows(page, 'Active memberships by plan');
  expect(new Map(shown.map(([name, , , count]) => [name!, Number(count!.replace(/,/g, ''))]))).toEqual(byPlan);
  expect(await page.locator('[data-figure="active-memberships"]').textContent()).toBe(number(active.length));

  // MRR, computed here from the rule the page states, not with the console's code.
  const perMonth = { day: 30.4375, week: 4.348, month: 1, year: 1 / 12 };
  const mrr = new Map<string, number>();
  for (const m of active) {
    const plan = plans.get(m.planId)!;
    if (m.comp || !(m.type === 'subscription' || (m.type === 'multiPayment' && m.billing))) continue;
    if (plan.type !== 'subscription' && plan.type !== 'multiPayment') continue;
    // What the membership pays: the price it joined at when its plan's has changed since.
    const billing = m.joinedBilling && 'interval' in m.joinedBilling ? m.joinedBilling : plan.billing;
    const { price, currency, interval } = billing;
    mrr.set(currency, (mrr.get(currency) ?? 0) + (price * perMonth[interval.unit]) / interval.count);
  }
  expect(mrr.size).toBeGreaterThan(0);
  const mrrRows = await tableRows(page, 'Monthly recurring revenue per currency');
  expect(mrrRows.map(([currency, amount]) => [currency, amount])).toEqual([...mrr].sort().map(([currency, amount]) => [currency.toUpperCase(), dollars(amount, currency)]));
  await expect.poll(() => page.getByText('for each active membership of a subscription plan, what it pays normalised to a month').count()).toBe(1);

  // Each chart has its numbers as a table; the conversions' table counts what /memberEvents has.
  const figures = page.locator('figure.chart-figure');
  expect(await figures.count()).toBe(3);
  for (const figure of await figures.all()) {
    expect(await figure.locator('svg[role="img"] title').count()).toBe(1);
    expect(await figure.locator('details table tbody tr').count()).toBe(12);
  }
  const weekly = await tableRows(page, 'Conversions and abandoned conversions per week');
  const firstWeek = weekly[0]![0]!;
  const events = await suite.adminAll<{ eventType: string }>(`/memberEvents?createdAfter=${firstWeek}`);
  const conversions = weekly.reduce((sum, row) => sum + Number(row[1]!.replace(/,/g, '')), 0);
  expect(conversions).toBe(events.filter((e) => e.eventType === 'conversion').length);

  // Another span of weeks is another URL, and as many weeks in every chart's table.
  await page.getByLabel('Charts cover the last').selectOption('26');
  await expect.poll(() => new URL(page.url()).hash).toBe('#/?weeks=26');
  await readsDone(page);
  for (const figure of await page.locator('figure.chart-figure').all()) expect(await figure.locator('details table tbody tr').count()).toBe(26);

  // The key is in this tab's sessionStorage and nowhere else; nothing broke the page's policy.
  expect(await page.evaluate(() => ({ session: Object.values(sessionStorage), local: localStorage.length, cookie: document.cookie }))).toEqual({
    session: [suite.service.adminKey],
    local: 0,
    cookie: '',
  });
  expect(await violations(page)).toEqual([]);
  expect(console.problems()).toEqual([]);
});

browserTest('the members table pages with the cursor headers and filters as the Admin API does', async () => {
  const context = await suite.newContext();
  const { page } = await suite.signIn(context);
  const members = await suite.adminAll<Member>('/members');
  const ids = async () => (await tableRows(page, 'Members, page')).map((row) => Number(row[0]));

  await page.getByRole('link', { name: 'Members', exact: true }).click();
  await page.getByText('Page 1: members 1–25, more follow.').waitFor();
  expect(await ids()).toEqual(members.slice(0, 25).map((m) => m.id));
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.getByText('Page 2: members 26–50, more follow.').waitFor();
  expect(await ids()).toEqual(members.slice(25, 50).map((m) => m.id));
  await page.getByRole('button', { name: 'Previous page' }).click();
  await page.getByText('Page 1: members 1–25, more follow.').waitFor();
  expect(await ids()).toEqual(members.slice(0, 25).map((m) => m.id));

  // A status: every blocked member, on one page (the demo has fewer than 25).
  const blocked = members.filter((m) => m.status === 'blocked');
  expect(blocked.length).toBeGreaterThan(0);
  await page.getByLabel('Status').selectOption('blocked');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByText(/Page 1: members 1–\d+, the last page\./).waitFor();
  expect(new URL(page.url()).hash).toBe('#/members?status=blocked');
  expect(await ids()).toEqual(blocked.map((m) => m.id));

  // An e-mail, exactly (in any case), and a join date, with 100 a page.
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await page.getByText('Page 1: members 1–25, more follow.').waitFor();
  const someone = members[40]!;
  await page.getByLabel('E-mail').fill(someone.email.toUpperCase());
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByText('Page 1: members 1–1, the last page.').waitFor();
  expect(await ids()).toEqual([someone.id]);

  const since = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
  const recent = members.filter((m) => m.createdAt >= `${since}T00:00:00.000Z`);
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await page.getByText('Page 1: members 1–25, more follow.').waitFor();
  await page.getByLabel('Joined on or after').fill(since);
  await page.getByLabel('Per page').selectOption('100');
  await page.getByRole('button', { name: 'Filter' }).click();
  expect(recent.length).toBeGreaterThan(0);
  expect(recent.length).toBeLessThanOrEqual(100);
  // The filtered page's own words: a pattern that the page before also matched would not wait for it.
  await page.getByText(`Page 1: members 1–${recent.length}, the last page.`).waitFor();
  expect(await ids()).toEqual(recent.map((m) => m.id));

  // A malformed filter is the API's 400, in its words.
  await page.goto(`${suite.service.url}/console/#/members?createdBefore=soon`);
  await page.getByText(/The service answered 400 invalidParameter: createdBefore must be/).waitFor();
});

browserTest('CSV: a download of what the table shows, commas, quotes and line breaks quoted, formulas defused', async () => {
  const store = openSqliteStore(suite.service.db);
  try {
    const site = (await store.getSiteBySubdomain('demo'))!;
    await store.createMembers([
      { siteId: site.id, email: 'csv.check@example.com', firstName: '=HYPERLINK("http://evil.example")', lastName: 'Doe, "Jr"\nII', status: 'blocked', createdAt: Date.parse('2026-01-02T03:04:05Z') },
    ]);
  } finally {
    await store.close();
  }
  const context = await suite.newContext({ acceptDownloads: true });
  const { page } = await suite.signIn(context);
  await page.goto(`${suite.service.url}/console/#/members?email=csv.check%40example.com`);
  await page.getByText('Page 1: members 1–1, the last page.').waitFor();
  const [id] = (await tableRows(page, 'Members, page')).map((row) => row[0]);
  const file = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV: Members, page 1' }).click());
  expect(file.name).toBe('members-page-1.csv');
  expect(file.text).toBe(`Id,Name,E-mail,Status,Joined\r\n${id},"'=HYPERLINK(""http://evil.example"") Doe, ""Jr""\nII",csv.check@example.com,blocked,2026-01-02T03:04:05.000Z\r\n`);

  // Every member matching, read a page at a time: one line each, after the header.
  const blocked = (await suite.adminAll<Member>('/members?status=blocked')).length;
  await page.goto(`${suite.service.url}/console/#/members?status=blocked`);
  // The blocked members' own page (one page of them), not the page before, which /Page 1: members/ matched too.
  expect(blocked).toBeLessThanOrEqual(25);
  await page.getByText(`Page 1: members 1–${blocked}, the last page.`).waitFor();
  const all = await downloaded(page, () => page.getByRole('button', { name: 'Export all matching members (CSV)' }).click());
  expect(all.name).toBe('members.csv');
  expect(all.text.trimEnd().split('\r\n')).toHaveLength(blocked + 1);
  await page.getByText(`Read ${blocked} members.`).waitFor();

  // A chart's numbers too.
  await page.getByRole('link', { name: 'Overview' }).click();
  await readsDone(page);
  await page.locator('summary', { hasText: 'The numbers' }).first().click();
  const weekly = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV: New members per week, by week (Monday, UTC)' }).click());
  const lines = weekly.text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('Week of,New members');
  expect(lines).toHaveLength(13);
  expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2},\d+$/);
});

browserTest('a key with read.members only: the other sections are hidden, each named with the scope it needs', async () => {
  const key = await suite.createKey(['read.members']);
  const context = await suite.newContext();
  const console = await suite.signIn(context, key);
  const { page } = console;
  await readsDone(page);
  expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents()).toEqual(['Overview', 'Members']);
  expect(await page.locator('.not-shown li').allTextContents()).toEqual([
    'This key cannot read memberships (needs read.memberships)',
    'This key cannot read member events (needs read.memberEvents)',
    'This key cannot read content views (needs read.contentViews)',
  ]);
  expect(await page.locator('main h2').allTextContents()).toEqual(['Members']);

  // A member's page names what the key cannot read there.
  await page.getByRole('link', { name: 'Members', exact: true }).click();
  await page.locator('tbody a').first().click();
  await page.getByText('This key cannot read memberships (needs read.memberships)').waitFor();
  await page.getByText('This key cannot read invoices (needs read.invoices)').waitFor();
  await page.getByText('This key cannot read member events (needs read.memberEvents)').waitFor();
  // No action is offered, and the page says why.
  await page.getByText('This key cannot block, unblock, export or erase members (needs members:write)').waitFor();
  expect(await page.getByRole('button', { name: /…$/ }).count()).toBe(0);
  // A view it cannot read is the overview.
  await page.goto(`${suite.service.url}/console/#/plans`);
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  expect(console.problems()).toEqual([]);
});

browserTest('sign-in refuses what is no key and a key the service does not know; "Sign out / forget key" forgets it', async () => {
  const context = await suite.newContext();
  const page = await context.newPage();
  await page.goto(`${suite.service.url}/console/`);
  // The key field has the focus: signing in is typing and Enter.
  await page.keyboard.type('not-a-key');
  await page.keyboard.press('Enter');
  await page.getByText('That is not an Admin API key: they start with svc_admin_.').waitFor();
  await page.getByLabel('Admin API key').fill('svc_admin_unknown');
  await page.keyboard.press('Enter');
  await page.getByText('The service does not know this key: it may be mistyped, revoked or expired.').waitFor();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

  await page.getByLabel('Admin API key').fill(suite.service.adminKey);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  // A reload keeps the tab signed in; another tab is not.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  const other = await context.newPage();
  await other.goto(`${suite.service.url}/console/`);
  await other.getByLabel('Admin API key').waitFor();

  await page.getByRole('button', { name: 'Sign out / forget key' }).click();
  await page.getByText('Signed out: the key is forgotten in this tab.').waitFor();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  await page.reload();
  await page.getByLabel('Admin API key').waitFor();
});

browserTest('from the keyboard: the pager keeps the focus, a confirmation dialog opens with Enter, traps Tab, closes with Escape and gives focus back', async () => {
  const context = await suite.newContext();
  const { page } = await suite.signIn(context);
  await page.goto(`${suite.service.url}/console/#/members`);
  await page.getByText('Page 1: members 1–25, more follow.').waitFor();
  await page.getByRole('button', { name: 'Next page' }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('Page 2: members 26–50, more follow.').waitFor();
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Next page');

  const first = page.locator('tbody a').first();
  await first.focus();
  await page.keyboard.press('Enter');
  const block = page.getByRole('button', { name: /^(Block|Unblock)…$/ });
  await block.waitFor();
  await block.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  expect(await dialog.getAttribute('aria-labelledby')).toBeTruthy();
  const focused = () => page.evaluate(() => ({ text: document.activeElement?.textContent, inDialog: Boolean(document.activeElement?.closest('dialog')) }));
  expect(await focused()).toMatchObject({ inDialog: true });
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect((await focused()).inDialog).toBe(true);
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await focused()).toMatchObject({ text: expect.stringMatching(/^(Block|Unblock)…$/), inDialog: false });
});

for (const colorScheme of ['light', 'dark'] as const) {
  browserTest(`axe finds no violation on any view, in ${colorScheme}`, async () => {
    const context = await suite.newContext({ colorScheme });
    const page = await context.newPage();
    const check = async (what: string) => {
      const found = await pageViolations(page);
      expect(found, `${what} (${colorScheme}):\n${readable(found)}`).toEqual([]);
    };
    await page.goto(`${suite.service.url}/console/`);
    await page.getByLabel('Admin API key').waitFor();
    await check('sign-in');
    await page.getByLabel('Admin API key').fill(suite.service.adminKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await readsDone(page);
    for (const summary of await page.locator('details summary').all()) await summary.click();
    await check('overview');
    await page.getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByText('Page 1: members 1–25, more follow.').waitFor();
    await check('members');
    await page.locator('tbody a').first().click();
    await readsDone(page);
    await page.getByRole('heading', { level: 2, name: 'Events' }).waitFor();
    await page.locator('.panel table').first().waitFor();
    await check('a member');
    await page.getByRole('button', { name: 'Give a plan for free…' }).click();
    await page.getByRole('dialog').waitFor();
    await check('a confirmation dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Plans' }).click();
    await page.locator('table').first().waitFor();
    await check('plans');
    expect(await violations(page)).toEqual([]);
  });
}

for (const { name, width } of [
  { name: 'desktop', width: 1280 },
  { name: 'mobile', width: 375 },
]) {
  browserTest(`screenshots of the overview and a member page at ${width} px, which fit the width`, async () => {
    const context = await suite.newContext({ viewport: { width, height: 900 } });
    const { page } = await suite.signIn(context);
    const shoot = async (what: string) => {
      const path = join(CONSOLE_SCREENSHOT_DIR, `${what}-${name}.png`);
      await page.screenshot({ path, fullPage: true });
      expect(statSync(path).size).toBeGreaterThan(10_000);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${what} scrolls sideways by ${overflow} px at ${width} px`).toBeLessThanOrEqual(0);
    };
    await readsDone(page);
    await shoot('overview');
    if (name === 'desktop') {
      // The window narrowed to a phone's width, and back: each chart is drawn again at the width it
      // has (its labels at their size), not the wide picture scaled down.
      const drawn = () => page.locator('svg.chart').evaluateAll((svgs) => svgs.map((svg) => Number(svg.getAttribute('width'))));
      expect((await drawn()).length).toBe(4);
      expect(Math.min(...(await drawn()))).toBeGreaterThan(600);
      await page.setViewportSize({ width: 375, height: 900 });
      await expect.poll(async () => Math.max(...(await drawn()))).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(async () => Math.min(...(await drawn()))).toBeGreaterThan(600);
    }
    const member = (await suite.adminAll<Membership>('/memberships?status=active')).find((m) => m.type === 'subscription')!;
    await page.goto(`${suite.service.url}/console/#/members/${member.memberId}`);
    await page.locator('.panel table').first().waitFor();
    await readsDone(page);
    await shoot('member');
  });
}
