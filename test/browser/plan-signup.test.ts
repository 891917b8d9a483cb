/**
 * A paid plan sign-up in real Chromium against the real service (`svc serve` in the worker): register through the
 * modal, open /member/plans/<monthly>, pay with the test card 4242 4242 4242 4242, see
 * Service.conversion, then cancel at /member/memberships ("Ends on …") and see the paid invoice at
 * /member/invoices; and declined cards (docs/test-cards.md), which leave no membership: 0002 is
 * refused as it is saved (no invoice), 0341 is saved and its charge fails (a failed invoice). A
 * webhook receiver of the owner's (issue 31) hears of the one-form sign-up in order. The `shop` site made by the CLI has no plans, so this file starts its own
 * service (`startService` with a `setup` that writes the plan through the store: the CLI has no
 * plan command).
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ConversionDetail, MemberInfo } from '../../src/contract/member';
import { systemClock } from '../../src/service/domain/clock';
import { runRenewals } from '../../src/service/billing/renewals';
import { definePlan } from '../../src/service/domain/plans';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { launchChromium, skipBrowserTests, SITE_DOMAIN } from './support/chromium';
import { createMember, uniqueEmail } from './support/members';
import { startPageServer, type PageServer } from './support/page-server';
import { startService, type RunningService } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';
import type { WebhookBody } from '../../src/contract/webhooks';
import { newWebhookSecret } from '../../src/service/webhooks/secret';
import { checkWebhookBody } from '../webhooks/body-schema';
import { type Receiver, startReceiver } from '../webhooks/receiver';

/** Where the plan sends a new member; answered 204 by the test, so the page stays put. */
const WELCOME_URL = `http://welcome.${SITE_DOMAIN}/welcome`;

let browser: Browser | undefined;
let pages: PageServer | undefined;
let service: RunningService | undefined;
let planPublicId = '';
let proPublicId = '';
/** The site owner's webhook receiver (issue 31), on every event, verifying with standardwebhooks. */
let receiver: Receiver | undefined;

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    service = await startService({
      tempPrefix: 'svc-plans-',
      async setup(store, site) {
        const plan = await definePlan(store, systemClock, site.id, {
          name: 'Monthly',
          type: 'subscription',
          billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } },
          welcomeUrl: WELCOME_URL,
        });
        planPublicId = plan.publicId;
        // Not listed: a link names it (changing plans, decision 0036).
        proPublicId = (await definePlan(store, systemClock, site.id, {
          name: 'Pro', type: 'subscription', isPublic: false, billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
        })).publicId;
      },
    });
    pages = await startPageServer(`${service.url}/scripts/widgets.js`);
    receiver = await startReceiver();
    const secret = (receiver.secret = newWebhookSecret());
    await service.withStore((store, site) =>
      store.createWebhookEndpoint({ siteId: site.id, url: `${receiver!.url}/svc`, allowPrivate: true, secret, source: 'cli', createdAt: Date.now() }),
    );
  }, 30_000);
  afterAll(async () => {
    await receiver?.close();
    await browser?.close();
    await pages?.close();
    await service?.stop();
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

/** The member a webhook is about. */
function memberIdOf(body: WebhookBody): number {
  const data = body.data as Partial<Record<'member' | 'membership' | 'invoice' | 'memberEvent', { id: number; memberId?: number }>>;
  return data.member?.id ?? (data.membership ?? data.invoice ?? data.memberEvent)!.memberId!;
}

/** A new member, logged in in `context` (a page that logs in and closes). */
async function logInNewMember(context: BrowserContext, names: { firstName: string; lastName: string }): Promise<void> {
  const member = await createMember(service!.url, pages!.url(HOST_A).replace(/\/$/, ''), names);
  const start = new WidgetPage(await context.newPage());
  await start.page.goto(pages!.url(HOST_A));
  await start.waitForEvent('Service.ready');
  await start.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  await start.page.close();
}

/** A new member, logged in in `context`, at Monthly's sign-up with the card typed in: the page and the plan's dialog. */
async function atMonthlyWithCard(context: BrowserContext, names: { firstName: string; lastName: string }, cardNumber: string) {
  await logInNewMember(context, names);
  const page = await openAt(context, `/member/plans/${planPublicId}`);
  const plan = dialogOf(page.page, 'Monthly');
  await plan.waitFor({ state: 'visible', timeout: 5_000 });
  await page.page.getByLabel('Card number').fill(cardNumber);
  await page.page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.page.getByLabel('Security code').fill('123');
  return { page, plan };
}

/**
 * A context whose pages' events are recorded, with the paths of every request to the service that
 * carried the card number 4242… (`withCard`), and the welcome page's visits (`welcomes`, each
 * answered 204: a 204 navigation leaves the page where it is).
 */
async function watchedContext(): Promise<{ context: BrowserContext; withCard: string[]; welcomes: string[] }> {
  const context = await browser!.newContext();
  const withCard: string[] = [];
  context.on('request', (request) => {
    if (request.url().startsWith(service!.url) && /4242\s*4242\s*4242\s*4242/.test(request.postData() ?? '')) withCard.push(new URL(request.url()).pathname);
  });
  await recordEventsIn(context);
  const welcomes: string[] = [];
  await context.route(`${WELCOME_URL}*`, (route) => {
    welcomes.push(route.request().url());
    return route.fulfill({ status: 204 });
  });
  return { context, withCard, welcomes };
}

browserTest('register, pay Monthly with 4242…, Service.conversion; cancel it ("Ends on …"); one paid invoice; the card goes to the test processor\'s endpoint only', async () => {
  const { context, withCard, welcomes } = await watchedContext();
  try {

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
    await page.page.getByRole('button', { name: 'Subscribe' }).click();

    const conversion = await page.waitForEvent('Service.conversion');
    const detail = conversion.detail as ConversionDetail;
    // As on a Stripe site, the member API gets a payment method: the card went to the test
    // processor's own endpoint, and nowhere else.
    expect(withCard).toEqual([`/member/v1/sites/shop/test-payment-methods`]);
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
    // What it costs the member (GET /memberships).
    await expect.poll(() => list.locator('li .terms').textContent(), { timeout: 5_000 }).toBe('$12.00 / month');
    await third.page.getByRole('button', { name: 'Cancel: Monthly' }).click();
    // Cancelling asks first (issue 14): the member says yes.
    await third.page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect.poll(() => list.locator('li').textContent(), { timeout: 5_000 }).toMatch(/^Monthly\s+Ends on [A-Z][a-z]{2} \d{1,2}, \d{4}\$12\.00 \/ month$/);
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
      .toEqual([[expect.stringMatching(/^Monthly[A-Z][a-z]{2} \d{1,2}, \d{4}$/), '$12.00', 'Paid']]);
  } finally {
    await context.close();
  }
});

browserTest('a visitor: ?svcopen=/member/plans/all shows the plans with prices; Choose: Monthly; the account and the card in one form, one click: registered, paid, at the welcome page; the owner\'s webhooks say so, in order', async () => {
  const { context, withCard, welcomes } = await watchedContext();
  try {
    const page = await openAt(context, '/member/plans/all');
    const plans = dialogOf(page.page, 'Plans');
    await plans.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await plans.locator('li .price').allTextContents()).toEqual(['$12.00 / month']);
    await plans.getByRole('button', { name: 'Choose: Monthly', exact: true }).click();
    const plan = dialogOf(page.page, 'Monthly');
    await plan.waitFor({ state: 'visible', timeout: 5_000 });
    const email = uniqueEmail('one-step');
    await plan.getByLabel('First name').fill('Annie');
    await plan.getByLabel('Last name').fill('Easley');
    await plan.getByLabel('E-mail').fill(email);
    await plan.getByLabel('Password').fill('centaur-upper-stage');
    await plan.getByLabel('Card number').fill('4242 4242 4242 4242');
    await plan.getByLabel('Expiry (MM/YY)').fill('12/34');
    await plan.getByLabel('Security code').fill('123');
    await plan.getByRole('button', { name: 'Subscribe', exact: true }).click();
    const detail = (await page.waitForEvent('Service.conversion')).detail as ConversionDetail;
    expect(detail.member.email).toBe(email);
    expect(detail.membership).toMatchObject({ publicPlanId: planPublicId, status: 'active' });
    expect(withCard).toEqual(['/member/v1/sites/shop/test-payment-methods']);
    const types = await page.eventTypes();
    expect(types.slice(types.indexOf('Service.member.registration'))).toEqual(['Service.member.registration', 'Service.member.info', 'Service.conversion', 'Service.member.info']);
    await expect.poll(() => welcomes, { timeout: 5_000 }).toEqual([WELCOME_URL]);
    // The service agrees: the member it made has the plan.
    const me = await page.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo);
    expect([me.email, me.memberships.map((m) => m.publicPlanId)]).toEqual([email, [planPublicId]]);
    // The owner heard of it (issue 31): four webhooks about this member, in order, each verified.
    const about = () =>
      receiver!.received
        .map((r) => ({ verified: r.verified, body: (checkWebhookBody(r.body), JSON.parse(r.body) as WebhookBody) }))
        .filter(({ body }) => memberIdOf(body) === detail.member.id);
    await expect.poll(() => about().map(({ body }) => body.type), { timeout: 10_000 }).toEqual(['member.created', 'membership.created', 'payment.succeeded', 'conversion']);
    expect(about().every(({ verified }) => verified)).toBe(true);
  } finally {
    await context.close();
  }
});

browserTest('a member on Monthly opens Pro: "Change plan" says what is due now (less the unused days) and from when; one click and the membership is on Pro, its invoice in the ledger', async () => {
  const { context } = await watchedContext();
  try {
    const { page, plan } = await atMonthlyWithCard(context, { firstName: 'Mary', lastName: 'Jackson' }, '4242 4242 4242 4242');
    await plan.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.waitForEvent('Service.conversion');
    await page.page.evaluate((id) => window.Service.open(`/member/plans/${id}`), proPublicId);
    const change = dialogOf(page.page, 'Change plan');
    await change.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await change.textContent()).toContain('From Monthly to Pro.');
    const due = await change.locator('.due').textContent();
    expect(due).toMatch(/^Due now: \$(2[89]|\d)\.\d\d$/);
    expect(await change.locator('.summary .muted').first().textContent()).toMatch(/^Less \$1[12]\.\d\d for the unused part of your current period\.$/);
    // The saved card pays; another's fields wait behind "Use another card".
    expect(await change.textContent()).toContain('Pay with your saved Visa card ending 4242.');
    expect(await change.locator('[name=cardNumber]').isVisible()).toBe(false);
    await change.getByRole('button', { name: 'Change plan', exact: true }).click();
    const done = dialogOf(page.page, 'Pro');
    await done.getByRole('status').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await done.getByRole('status').textContent()).toBe('Your plan is now Pro.');
    const me = await page.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo);
    expect(me.memberships.filter((m) => m.status === 'active').map((m) => m.publicPlanId)).toEqual([proPublicId]);
    const invoices = await service!.withStore((store, site) => store.listInvoicesOfMember(site.id, me.id));
    expect(invoices.map((i) => [i.description, i.status]).sort()).toEqual([['Monthly', 'paid'], ['Pro (from Monthly)', 'paid']]);
    expect(`Due now: $${(invoices.find((i) => i.description === 'Pro (from Monthly)')!.totalCents / 100).toFixed(2)}`).toBe(due);
  } finally {
    await context.close();
  }
});

browserTest('an upgrade on another card whose bank asks (3220): "Use another card", the bank’s question answered in the browser, then the membership is on Pro', async () => {
  const { context } = await watchedContext();
  try {
    const { page, plan } = await atMonthlyWithCard(context, { firstName: 'Katherine', lastName: 'Johnson' }, '4242 4242 4242 4242');
    await plan.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.waitForEvent('Service.conversion');
    await page.page.evaluate((id) => window.Service.open(`/member/plans/${id}`), proPublicId);
    const change = dialogOf(page.page, 'Change plan');
    await change.waitFor({ state: 'visible', timeout: 5_000 });
    await change.getByRole('button', { name: 'Use another card' }).click();
    await change.getByLabel('Card number').fill('4000 0000 0000 3220');
    await change.getByLabel('Expiry (MM/YY)').fill('12/34');
    await change.getByLabel('Security code').fill('123');
    const asked: string[] = [];
    page.page.once('dialog', (dialog) => {
      asked.push(dialog.message().split('\n')[0]!);
      void dialog.accept();
    });
    await change.getByRole('button', { name: 'Change plan', exact: true }).click();
    const done = dialogOf(page.page, 'Pro');
    await done.getByRole('status').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await done.getByRole('status').textContent()).toBe('Your plan is now Pro.');
    expect(asked).toEqual(['Authorize this test payment?']);
    const me = await page.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo);
    expect(me.memberships.filter((m) => m.status === 'active').map((m) => m.publicPlanId)).toEqual([proPublicId]);
    const invoices = await service!.withStore((store, site) => store.listInvoicesOfMember(site.id, me.id));
    expect(invoices.map((i) => [i.description, i.status]).sort()).toEqual([['Monthly', 'paid'], ['Pro (from Monthly)', 'paid']]);
  } finally {
    await context.close();
  }
});

browserTest('the card’s brand shows as an icon before its name: Visa’s blue and gold, Mastercard’s two circles, a plain card for the others', async () => {
  const { context } = await watchedContext();
  try {
    const { plan } = await atMonthlyWithCard(context, { firstName: 'Annie', lastName: 'Easley' }, '4242 4242 4242 4242');
    const badge = plan.locator('.card .badge');
    const icon = () => badge.evaluate((node) => {
      const style = getComputedStyle(node, '::before');
      return { text: node.textContent, width: parseFloat(style.width), image: style.backgroundImage, color: style.backgroundColor };
    });
    expect(await icon()).toMatchObject({ text: 'Visa', image: expect.stringMatching(/^linear-gradient\(rgb\(26, 31, 113\) 70%, rgb\(247, 182, 0\)/) });
    expect((await icon()).width).toBeGreaterThan(10);
    await plan.getByLabel('Card number').fill('5555 5555 5555 4444');
    expect(await icon()).toMatchObject({ text: 'Mastercard', image: expect.stringMatching(/radial-gradient.*rgb\(235, 0, 27\).*radial-gradient.*rgb\(247, 158, 27\)/) });
    await plan.getByLabel('Card number').fill('3782 822463 10005');
    expect(await icon()).toMatchObject({ text: 'American Express', image: 'none', color: 'rgb(46, 119, 188)' });
    await plan.getByLabel('Card number').fill('9999');
    expect(await badge.isVisible()).toBe(false);
  } finally {
    await context.close();
  }
});

/** A decline, said next to the card's number, which is marked invalid. */
async function declinedIn(scope: Locator): Promise<string | null> {
  const field = scope.locator('.field:has(> [name=cardNumber])');
  if ((await field.locator('[aria-invalid=true]').count()) === 0) return null;
  return field.locator('.field-error').textContent();
}

browserTest('declined cards: 0002 (refused as it is saved) and 0341 (its charge fails) show the words in the form, no conversion, no membership; only the charge is an invoice', async () => {
  const context = await browser!.newContext();
  try {
    await recordEventsIn(context);
    const { page, plan } = await atMonthlyWithCard(context, { firstName: 'Dorothy', lastName: 'Vaughan' }, '4000 0000 0000 0002');
    await page.page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => declinedIn(plan), { timeout: 5_000 }).toBe('The card was declined. Try another card.');
    expect(await page.eventTypes()).not.toContain('Service.conversion');
    expect(await page.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships)).toEqual([]);
    // The dialog stays, ready for another card.
    expect(await plan.isVisible()).toBe(true);
    // 0341 is saved, then its charge is declined: the same words.
    await page.page.getByLabel('Card number').fill('4000 0000 0000 0341');
    const [answer] = await Promise.all([
      page.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/memberships'), { timeout: 5_000 }),
      page.page.getByRole('button', { name: 'Subscribe' }).click(),
    ]);
    expect(answer.status()).toBe(402);
    await expect.poll(() => declinedIn(plan), { timeout: 5_000 }).toBe('The card was declined. Try another card.');
    expect(await page.eventTypes()).not.toContain('Service.conversion');
    expect(await page.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships)).toEqual([]);
    await page.page.close();

    const invoices = await openAt(context, '/member/invoices');
    const list = dialogOf(invoices.page, 'Invoices');
    await list.waitFor({ state: 'visible', timeout: 5_000 });
    await expect
      .poll(() => list.locator('tbody tr td:last-child').allTextContents(), { timeout: 5_000 })
      .toEqual(['Failed']);
  } finally {
    await context.close();
  }
});

browserTest('3-D Secure test cards: 3155 asks in the browser’s dialog; Cancel fails it (the declined words, no membership), then OK authorizes it: Service.conversion and the membership', async () => {
  const context = await browser!.newContext();
  try {
    await recordEventsIn(context);
    const welcomes: string[] = [];
    await context.route(`${WELCOME_URL}*`, (route) => {
      welcomes.push(route.request().url());
      return route.fulfill({ status: 204 }); // a 204 navigation leaves the page where it is
    });
    const { page, plan } = await atMonthlyWithCard(context, { firstName: 'Mary', lastName: 'Jackson' }, '4000 0025 0000 3155');
    const asked: string[] = [];
    /** The test bank's question, answered `accept` (OK) or not (Cancel). */
    const answering = (accept: boolean) =>
      page.page.once('dialog', (dialog) => {
        asked.push(`${dialog.type()}: ${dialog.message().split('\n')[0]}`);
        void (accept ? dialog.accept() : dialog.dismiss());
      });
    answering(false);
    const [first] = await Promise.all([
      page.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/memberships'), { timeout: 5_000 }),
      page.page.getByRole('button', { name: 'Subscribe' }).click(),
    ]);
    expect(first.status()).toBe(202);
    await expect.poll(() => declinedIn(plan), { timeout: 5_000 }).toBe('The card was declined. Try another card.');
    expect(asked).toEqual(['confirm: Authorize this test payment?']);
    expect(await page.eventTypes()).not.toContain('Service.conversion');
    expect(await page.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships)).toEqual([]);

    // Again, the saved 3155 card (the field left empty), and this time OK.
    await page.page.getByLabel('Card number').fill('');
    answering(true);
    await page.page.getByRole('button', { name: 'Subscribe' }).click();
    const detail = (await page.waitForEvent('Service.conversion')).detail as ConversionDetail;
    expect(detail.membership.publicPlanId).toBe(planPublicId);
    expect(asked).toHaveLength(2);
    await expect.poll(() => welcomes, { timeout: 5_000 }).toEqual([WELCOME_URL]);
    await expect
      .poll(() => page.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.map((m) => m.status)), { timeout: 5_000 })
      .toEqual(['active']);
  } finally {
    await context.close();
  }
});

browserTest('changing the card (/member/payment_method/update): the new card goes to the test processor’s endpoint only, PUT /payment-method carries its id; a card its bank refuses leaves the saved one', async () => {
  const context = await browser!.newContext();
  /** What the page sent to the service, by path: whether a card number was in it. */
  const sent: { path: string; card: boolean }[] = [];
  context.on('request', (request) => {
    if (request.url().startsWith(service!.url) && request.method() !== 'GET' && request.method() !== 'OPTIONS') {
      sent.push({ path: new URL(request.url()).pathname.replace('/member/v1/sites/shop', ''), card: /\d{4}\s*\d{4}\s*\d{4}\s*\d{4}/.test(request.postData() ?? '') });
    }
  });
  try {
    await recordEventsIn(context);
    await logInNewMember(context, { firstName: 'Annie', lastName: 'Easley' });
    sent.length = 0;

    const page = await openAt(context, '/member/payment_method/update');
    const dialog = dialogOf(page.page, 'Payment method');
    await dialog.waitFor({ state: 'visible', timeout: 5_000 });
    const save = async (number: string) => {
      await page.page.getByLabel('Card number').fill(number);
      await page.page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await page.page.getByLabel('Security code').fill('123');
      await page.page.getByRole('button', { name: 'Save card' }).click();
    };
    await save('5555 5555 5555 4444');
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 5_000 }).toMatch(/4444/);
    expect(sent).toEqual([{ path: '/test-payment-methods', card: true }, { path: '/payment-method', card: false }]);

    // Refused as it is saved: the words in the form, the Mastercard stays saved, nothing PUT.
    sent.length = 0;
    await save('4000 0000 0000 0002');
    await expect.poll(() => declinedIn(dialog), { timeout: 5_000 }).toBe('The card was declined. Try another card.');
    expect(sent).toEqual([{ path: '/test-payment-methods', card: true }]);
    await page.page.close();
    const again = await openAt(context, '/member/payment_method/update');
    await expect.poll(() => dialogOf(again.page, 'Payment method').getByRole('status').textContent(), { timeout: 5_000 }).toMatch(/4444/);
  } finally {
    await context.close();
  }
});

browserTest('a renewal the bank held (3220): the payment-failed mail’s screen (/member/payment_method/update) offers “Pay now: Monthly”; the bank asks, OK, and the membership is paid up', async () => {
  const context = await browser!.newContext();
  try {
    await recordEventsIn(context);
    await context.route(`${WELCOME_URL}*`, (route) => route.fulfill({ status: 204 })); // the page stays where it is
    // Signed up with the card whose bank always asks: authorized at sign-up (OK).
    const { page } = await atMonthlyWithCard(context, { firstName: 'Christine', lastName: 'Darden' }, '4000 0000 0000 3220');
    const asked: string[] = [];
    page.page.on('dialog', (dialog) => {
      asked.push(dialog.message().split('\n')[0]!);
      void dialog.accept();
    });
    await page.page.getByRole('button', { name: 'Subscribe' }).click();
    const joined = ((await page.waitForEvent('Service.conversion')).detail as ConversionDetail).membership;
    await page.page.close();

    // Its renewal comes due and the billing run charges it without the member: the bank refuses.
    const report = await service!.withStore(async (store, site) => {
      await store.updateMembership(site.id, joined.id, { billingPeriodEnd: Date.now() - 1000 });
      return runRenewals({ store, clock: systemClock, processor: new TestPaymentProcessor({ clock: systemClock, store }) });
    });
    expect(report).toMatchObject({ charged: 0, failed: 1 });

    const screen = await openAt(context, '/member/payment_method/update');
    const dialog = dialogOf(screen.page, 'Payment method');
    await dialog.waitFor({ state: 'visible', timeout: 5_000 });
    screen.page.on('dialog', (d) => {
      asked.push(d.message().split('\n')[0]!);
      void d.accept();
    });
    expect(await screen.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.map((m) => m.paymentFailure))).toEqual([true]);
    await dialog.getByRole('button', { name: 'Pay now: Monthly' }).click();
    await expect
      .poll(() => screen.page.evaluate(() => (window.Service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.map((m) => m.paymentFailure)), { timeout: 5_000 })
      .toEqual([false]);
    expect(asked).toEqual(['Authorize this test payment?', 'Authorize this test payment?']);
    await expect.poll(() => dialog.getByRole('button', { name: 'Pay now: Monthly' }).count(), { timeout: 5_000 }).toBe(0);
  } finally {
    await context.close();
  }
});
