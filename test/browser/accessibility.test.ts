/**
 * The modal's screens for everyone, in real Chromium against the real `svc serve` child:
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
 * subscription and on Workshop, paid with the test card after one declined attempt, so the invoice
 * table (three rows, one failed), the membership list (with its Cancel button) and the saved card
 * are all drawn. Last, a member with a long e-mail address on the account screen at 320 px.
 * As plan-signup.test.ts does, this file starts its own service: `svc sites create`, then plans
 * and fields written through the store, then `svc serve`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SignupFieldValue } from '../../src/contract/member';
import { systemClock } from '../../src/service/domain/clock';
import { definePlan } from '../../src/service/domain/plans';
import { DEMO_SIGNUP_FIELDS } from '../../src/service/seed/catalogue';
import type { SignupFieldRecord } from '../../src/service/store/records';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { launchChromium, skipBrowserTests, SITE_DOMAIN } from './support/chromium';
import { createMember, type TestMember } from './support/members';
import { startPageServer, type PageServer } from './support/page-server';
import { run, SUBDOMAIN, svc } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

const PHONE = { width: 320, height: 640 };

interface ScreenCase {
  screen: string;
  /** `{lifetime}` stands for that plan's public id. */
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
  { screen: 'plan sign-up (paid, with tax)', path: '/member/plans/{lifetime}', loggedIn: true, dialog: 'Lifetime', primary: 'Sign up' },
];

let browser: Browser | undefined;
let pages: PageServer | undefined;
let serve: ChildProcess | undefined;
let serviceUrl = '';
let dir = '';
const serviceLog: string[] = [];
let lifetimeId = '';
let fields: SignupFieldRecord[] = [];
let member: TestMember | undefined;
/** Logged out and logged in (the same member), at the default size and on a phone. */
const contexts: Record<'out' | 'in' | 'outPhone' | 'inPhone', BrowserContext | undefined> = { out: undefined, in: undefined, outPhone: undefined, inPhone: undefined };

async function startServiceWithPlansAndFields(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'svc-a11y-'));
  const db = join(dir, 'svc.db');
  const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
  await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Shop', '--domain', SITE_DOMAIN, '--db', db], env);
  const store = openSqliteStore(db);
  try {
    const site = (await store.getSiteBySubdomain(SUBDOMAIN))!;
    const define = (definition: Parameters<typeof definePlan>[3]) => definePlan(store, systemClock, site.id, definition);
    await define({
      name: 'Monthly',
      type: 'subscription',
      description: '<p>Every issue, <strong>every month</strong>.</p>',
      billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    lifetimeId = (
      await define({
        name: 'Lifetime',
        type: 'oneTimePayment',
        description: '<p>Pay once, keep <em>everything</em>: the archive, the courses and the <a href="https://shop.example/faq">community</a>.</p>',
        expiration: { mode: 'none' },
        billing: { price: 199, currency: 'usd', taxPercentage: 20, taxDescription: '<p>VAT at 20%</p>' },
      })
    ).publicId;
    await define({ name: 'Community', type: 'free', expiration: { mode: 'none' } });
    await define({ name: 'Workshop', type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { price: 49, currency: 'usd' } });
    // The CLI has no command for sign-up fields: the demo site's, through the store.
    await store.createSignupFields(DEMO_SIGNUP_FIELDS.map(({ answers: _answers, ...field }, position) => ({ ...field, siteId: site.id, position })));
    fields = await store.listSignupFields(site.id);
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

/** Answers for the required custom fields, so the member can sign up. */
function requiredAnswers(): Record<string, SignupFieldValue> {
  const answers: Record<string, SignupFieldValue> = {};
  for (const field of fields.filter((f) => f.required)) {
    answers[field.id] = field.type === 'checkbox' ? true : field.type === 'multiple-select' ? [field.options![0]!.value] : (field.options?.[0]?.value ?? 'Acme');
  }
  return answers;
}

async function newContext(options: { viewport?: typeof PHONE; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> } = {}): Promise<BrowserContext> {
  const context = await browser!.newContext(options);
  await recordEventsIn(context);
  return context;
}

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    await startServiceWithPlansAndFields();
    pages = await startPageServer(`${serviceUrl}/scripts/widgets.js`);
    const origin = pages.url(HOST_A).replace(/\/$/, '');
    // A short e-mail: a long one would scroll inside its field on a phone, which is no fault.
    member = await createMember(serviceUrl, origin, { email: 'ada@a11y.example', firstName: 'Ada', lastName: 'Lovelace', customFields: requiredAnswers() });
    // Three invoices: Monthly paid, a declined attempt at Workshop, then Workshop paid.
    const buy = async (plan: string, cardNumber: string, status: number) => {
      const response = await fetch(`${serviceUrl}/member/v1/sites/${SUBDOMAIN}/memberships`, {
        method: 'POST',
        headers: { origin, authorization: `Bearer ${member!.session.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ planPublicId: await planIdOf(plan, origin), cardNumber, cardExpiry: '12/34', cardCvc: '123' }),
      });
      if (response.status !== status) throw new Error(`${plan} with ${cardNumber} answered ${response.status}: ${await response.text()}`);
    };
    await buy('Monthly', '4242 4242 4242 4242', 201);
    await buy('Workshop', '4000 0000 0000 0002', 402);
    await buy('Workshop', '4242 4242 4242 4242', 201);

    contexts.out = await newContext();
    contexts.outPhone = await newContext({ viewport: PHONE });
    contexts.in = await newContext();
    const page = new WidgetPage(await contexts.in.newPage());
    await page.page.goto(pages.url(HOST_A));
    await page.waitForEvent('Service.ready');
    await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
    await page.page.close();
    // The same login (cookie and stored member) on the phone.
    contexts.inPhone = await newContext({ viewport: PHONE, storageState: await contexts.in.storageState() });
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

async function planIdOf(name: string, origin: string): Promise<string> {
  const response = await fetch(`${serviceUrl}/member/v1/sites/${SUBDOMAIN}/plans`, { headers: { origin } });
  const plans = (await response.json()) as { name: string; publicId: string }[];
  return plans.find((plan) => plan.name === name)!.publicId;
}

/** Opens the screen in a new page of `context` and waits until its dialog has its name (drawn). */
async function openScreen(context: BrowserContext, screen: ScreenCase): Promise<WidgetPage> {
  const page = new WidgetPage(await context.newPage());
  await page.page.goto(`${pages!.url(HOST_A)}?svcopen=${encodeURIComponent(screen.path.replace('{lifetime}', lifetimeId))}`);
  await page.waitForEvent('Service.ready');
  try {
    await page.page.getByRole('dialog', { name: screen.dialog, exact: true }).waitFor({ state: 'visible', timeout: 5_000 });
  } catch (error) {
    const shown = await page.page.evaluate(() => document.querySelector('[data-svc-modal]')?.shadowRoot?.querySelector('dialog')?.textContent ?? '(no dialog)');
    throw new Error(`${screen.path}: no dialog "${screen.dialog}"; the page shows: ${shown}\n${page.log.join('\n')}\n${(error as Error).message}`);
  }
  return page;
}

const contextFor = (screen: ScreenCase, phone: boolean) => contexts[`${screen.loggedIn ? 'in' : 'out'}${phone ? 'Phone' : ''}`]!;

/** What each screen must show for the checks to mean something (a table with a row, the custom fields…). */
async function expectDrawn(page: Page, screen: ScreenCase): Promise<void> {
  const dialog = page.getByRole('dialog', { name: screen.dialog, exact: true });
  if (screen.path === '/member/sign_up') expect(await dialog.locator('[name^="customFields."]').count()).toBe(fields.length);
  if (screen.path === '/member/account/edit') expect(await dialog.locator('[name^="customFields."]').count()).toBe(fields.length);
  if (screen.path === '/member/invoices') expect(await dialog.locator('tbody tr').count()).toBe(3);
  if (screen.path === '/member/plans/all') expect((await dialog.locator('h3').allTextContents()).sort()).toEqual(['Community', 'Lifetime', 'Monthly', 'Workshop']);
  if (screen.path === '/member/payment_method/update') expect(await dialog.getByRole('status').textContent()).toMatch(/4242/);
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string; html: string; summary: string }[];
}

/** axe-core on the open modal: its host and, through it, the open shadow root. */
async function axeViolations(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe;
    const host = document.querySelector('[data-svc-modal]')!;
    const results = await run.run(host, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), html: n.html, summary: n.failureSummary ?? '' })),
    }));
  });
}

const readable = (violations: Violation[]) =>
  violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.helpUrl}\n` +
        v.nodes.map((n) => `  - ${n.target}\n    ${n.html}\n    ${n.summary.replaceAll('\n', '\n    ')}`).join('\n'),
    )
    .join('\n');

for (const screen of SCREENS) {
  browserTest(`axe finds no violation on the ${screen.screen} screen (svcopen=${screen.path})`, async () => {
    const page = await openScreen(contextFor(screen, false), screen);
    try {
      await expectDrawn(page.page, screen);
      const violations = await axeViolations(page.page);
      expect(violations, `axe on ${screen.screen}:\n${readable(violations)}`).toEqual([]);
    } finally {
      await page.page.close();
    }
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
    const page = await openScreen(contextFor(screen, true), screen);
    try {
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
    } finally {
      await page.page.close();
    }
  });
}

browserTest('at 320 px a long e-mail address wraps on the account screen instead of widening the dialog', async () => {
  // 45 characters and no hyphen: no place where the browser would break it by itself.
  const long = await createMember(serviceUrl, pages!.url(HOST_A).replace(/\/$/, ''), {
    email: 'augusta.ada.lovelace@analyticalengine.example',
    customFields: requiredAnswers(),
  });
  const context = await newContext({ viewport: PHONE });
  try {
    const start = new WidgetPage(await context.newPage());
    await start.page.goto(pages!.url(HOST_A));
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
