/**
 * A paid plan sign-up in real Chromium against the real `svc serve` child: register through the
 * modal, open /member/plans/<monthly>, pay with the test card 4242 4242 4242 4242, see
 * Service.conversion, then cancel at /member/memberships ("Ends on …") and see the paid invoice at
 * /member/invoices. The `shop` site made by the CLI has no plans, so this file starts its own
 * service: `svc sites create`, then a plan written to the same SQLite file through the store
 * (the CLI has no plan command), then `svc serve`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ConversionDetail, MemberInfo } from '../../src/contract/member';
import { systemClock } from '../../src/service/domain/clock';
import { definePlan } from '../../src/service/domain/plans';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { launchChromium, skipBrowserTests, SITE_DOMAIN } from './support/chromium';
import { uniqueEmail } from './support/members';
import { startPageServer, type PageServer } from './support/page-server';
import { run, SUBDOMAIN, svc } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

/** Where the plan sends a new member; answered 204 by the test, so the page stays put. */
const WELCOME_URL = `http://welcome.${SITE_DOMAIN}/welcome`;

let browser: Browser | undefined;
let pages: PageServer | undefined;
let serve: ChildProcess | undefined;
let serviceUrl = '';
let planPublicId = '';
let dir = '';
const serviceLog: string[] = [];


if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    dir = mkdtempSync(join(tmpdir(), 'svc-plans-'));
    const db = join(dir, 'svc.db');
    const env = { SVC_DB: db, PORT: '0', HOST: '127.0.0.1', SVC_SCRYPT: 'test' };
    await run(['sites', 'create', '--subdomain', SUBDOMAIN, '--name', 'Shop', '--domain', SITE_DOMAIN, '--db', db], env);
    const store = openSqliteStore(db);
    try {
      const site = (await store.getSiteBySubdomain(SUBDOMAIN))!;
      const plan = await definePlan(store, systemClock, site.id, {
        name: 'Monthly',
        type: 'subscription',
        billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } },
        welcomeUrl: WELCOME_URL,
      });
      planPublicId = plan.publicId;
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
    pages = await startPageServer(`${serviceUrl}/scripts/widgets.js`);
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

/** Opens the shop's page at `?svcopen=<path>` and waits for Service.ready. */
async function openAt(context: BrowserContext, path: string): Promise<WidgetPage> {
  const page = new WidgetPage(await context.newPage());
  await page.page.goto(`${pages!.url(HOST_A)}?svcopen=${encodeURIComponent(path)}`);
  await page.waitForEvent('Service.ready');
  return page;
}

const dialogOf = (page: Page, name: string) => page.getByRole('dialog', { name });

browserTest('register, pay Monthly with 4242…, Service.conversion; cancel it ("Ends on …"); one paid invoice', async () => {
  const context = await browser!.newContext();
  try {
    await recordEventsIn(context);
    const welcomes: string[] = [];
    await context.route(`${WELCOME_URL}*`, (route) => {
      welcomes.push(route.request().url());
      return route.fulfill({ status: 204 }); // a 204 navigation leaves the page where it is
    });

    // 1. Register through the modal: /member/sign_up/<plan> registers, then offers the plan.
    const first = await openAt(context, `/member/sign_up/${planPublicId}`);
    await dialogOf(first.page, 'Create an account').waitFor({ state: 'visible', timeout: 5_000 });
    const email = uniqueEmail('plans');
    await first.page.getByLabel('First name').fill('Mary');
    await first.page.getByLabel('Last name').fill('Jackson');
    await first.page.getByLabel('E-mail').fill(email);
    await first.page.getByLabel('Password').fill('wind-tunnel-4x4');
    await first.page.getByRole('button', { name: 'Create account' }).click();
    await first.waitForEvent('Service.member.registration');
    // The same dialog now offers the plan.
    await dialogOf(first.page, 'Monthly').waitFor({ state: 'visible', timeout: 5_000 });
    await first.page.close();

    // 2. /member/plans/<monthly>: the price, the due line, the card fields; pay with 4242….
    const page = await openAt(context, `/member/plans/${planPublicId}`);
    const plan = dialogOf(page.page, 'Monthly');
    await plan.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await plan.locator('.price').textContent()).toBe('$12.00 / month');
    expect(await plan.locator('.due').textContent()).toBe('Due now: $12.00');
    await page.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.page.getByLabel('Security code').fill('123');
    await page.page.getByRole('button', { name: 'Sign up' }).click();

    const conversion = await page.waitForEvent('Service.conversion');
    const detail = conversion.detail as ConversionDetail;
    expect(detail.membership).toMatchObject({ publicPlanId: planPublicId, name: 'Monthly', status: 'active' });
    expect(detail.order).toMatchObject({ currency: 'usd', grandTotalCents: 1200, grandTotal: 12 });
    expect(detail.member.email).toBe(email);
    expect(detail.member.processorCustomerId).toEqual(expect.any(String));
    // Then member.info with the new membership, the dialog closes and the welcome page is asked for.
    await expect
      .poll(async () => {
        const infos = (await page.events()).filter((e) => e.type === 'Service.member.info');
        const last = infos.at(-1)?.detail as { memberInfo?: MemberInfo } | undefined;
        return last?.memberInfo?.memberships.map((m) => m.publicPlanId);
      }, { timeout: 5_000 })
      .toEqual([planPublicId]);
    const types = await page.eventTypes();
    expect(types.slice(types.indexOf('Service.conversion'))).toEqual(['Service.conversion', 'Service.member.info']);
    await plan.waitFor({ state: 'detached', timeout: 5_000 });
    await expect.poll(() => welcomes, { timeout: 5_000 }).toEqual([WELCOME_URL]);
    await page.page.close();

    // 3. /member/memberships: Monthly renews; cancel it, then it ends and has no Cancel button.
    const third = await openAt(context, '/member/memberships');
    const list = dialogOf(third.page, 'Your memberships');
    await list.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await list.locator('li').textContent()).toMatch(/^Monthly\s+Renews on /);
    await third.page.getByRole('button', { name: 'Cancel: Monthly' }).click();
    await expect.poll(() => list.locator('li').textContent(), { timeout: 5_000 }).toMatch(/^Monthly\s+Ends on [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(await third.page.getByRole('button', { name: 'Cancel: Monthly' }).count()).toBe(0);
    await third.page.close();

    // 4. /member/invoices: one paid invoice of $12.00.
    const fourth = await openAt(context, '/member/invoices');
    // Any screen first, so a failure shows what the dialog says instead of a timeout.
    const shown = fourth.page.getByRole('dialog');
    await expect.poll(() => shown.locator('h2').textContent(), { timeout: 5_000 }).not.toBe('Loading…');
    expect(await shown.textContent()).not.toContain('Something went wrong');
    const invoices = dialogOf(fourth.page, 'Invoices');
    await invoices.waitFor({ state: 'visible', timeout: 5_000 });
    await expect
      .poll(() => invoices.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))), { timeout: 5_000 })
      .toEqual([[expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/), 'Monthly', '$12.00', 'Paid']]);
  } finally {
    await context.close();
  }
});
