/**
 * A site that takes payments through its Stripe account, in real Chromium: the real service
 * (`svc serve` in the worker) talks to our Stripe stand-in (SVC_STRIPE_API_URL) with the `stripe` package, and the page
 * loads the stand-in's Stripe.js (SVC_STRIPE_JS_URL, as GET /config names it), whose card field
 * the widget mounts outside its shadow root and shows in the dialog through a named slot.
 *
 * - Sign-up on a paid plan with 4242: the member is on the plan, Stripe has the charge, and a spy
 *   on every request the page sends to the service finds no card number: only the stand-in
 *   ("Stripe") ever receives one, from the page, with the publishable key.
 * - A card whose bank wants 3-D Secure (3155): the bank's window, "Complete", then the plan; and
 *   "Fail": the form says so, and no membership is made.
 * - A card declined (0002): Stripe's words in the form, nothing made.
 * - The field takes the dialog's colours (the Appearance API).
 */
import type { Browser, BrowserContext, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { runRenewals } from '../../src/service/billing/renewals';
import { systemClock } from '../../src/service/domain/clock';
import { definePlan } from '../../src/service/domain/plans';
import { StripePaymentProcessor } from '../../src/service/payments/stripe-processor';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in/server';
import { launchChromium, SITE_DOMAIN, skipBrowserTests } from './support/chromium';
import { createMember, type TestMember } from './support/members';
import { startPageServer, type PageServer } from './support/page-server';
import { startService, type RunningService } from './support/service';
import { browserTest, HOST_A } from './support/suite';
import { recordEventsIn, WidgetPage } from './support/widget-page';

const WEBHOOK_SECRET = 'whsec_stand_in_browser';
/** Where a new member of a plan goes: answered 204 here, so the page stays (and keeps its events). */
const WELCOME_URL = `http://welcome.${SITE_DOMAIN}/welcome`;

let browser: Browser | undefined;
let standIn: StripeStandIn;
let service: RunningService | undefined;
let pages: PageServer | undefined;
let monthly = '';
let trial = '';
/** A one-time plan: joined beside a subscription (another subscription is a change of plan, decision 0036). */
let lifetime = '';

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    standIn = await startStripeStandIn();
    service = await startService({
      tempPrefix: 'svc-stripe-',
      setup: async (store, site) => {
        await store.updateSite(site.id, { payments: { processor: 'stripe', publishableKey: standIn.publishableKey, secretKeyEnv: 'SHOP_STRIPE_KEY', webhookSecretEnv: 'SHOP_STRIPE_WHSEC' } });
        const define = (definition: Parameters<typeof definePlan>[3]) => definePlan(store, systemClock, site.id, definition);
        monthly = (await define({ name: 'Monthly', type: 'subscription', welcomeUrl: WELCOME_URL, billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } } })).publicId;
        lifetime = (await define({ name: 'Lifetime', type: 'oneTimePayment', expiration: { mode: 'none' }, welcomeUrl: WELCOME_URL, billing: { price: 199, currency: 'usd' } })).publicId;
        trial = (await define({ name: 'Trial', type: 'subscription', welcomeUrl: WELCOME_URL, billing: { price: 9, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 7 } })).publicId;
      },
      env: {
        SHOP_STRIPE_KEY: standIn.secretKey,
        SHOP_STRIPE_WHSEC: WEBHOOK_SECRET,
        SVC_STRIPE_API_URL: standIn.url,
        SVC_STRIPE_JS_URL: `${standIn.url}/v3/`,
      },
    });
    pages = await startPageServer(`${service.url}/scripts/widgets.js`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await service?.stop();
    await standIn?.close();
  });
}

interface Shopper {
  member: TestMember;
  context: BrowserContext;
  page: WidgetPage;
  /** Every request the page sent to the service, with its body. */
  toService: { url: string; body: string }[];
}

/**
 * Stripe's field: in the light DOM beside the dialog (a child of the modal's host), shown inside
 * the dialog by its slot; a locator inside the dialog's own tree does not reach slotted nodes.
 */
const cardField = (page: WidgetPage) => page.page.locator('[data-svc-modal] > [slot=svc-card]');

/** A new member, logged in, on the site's page with the sign-up of `plan` open. */
async function openSignUp(plan: string): Promise<Shopper> {
  const origin = pages!.url(HOST_A).replace(/\/$/, '');
  const member = await createMember(service!.url, origin);
  const context = await browser!.newContext();
  await recordEventsIn(context);
  await context.route(`${WELCOME_URL}**`, (route) => route.fulfill({ status: 204 }));
  const toService: Shopper['toService'] = [];
  context.on('request', (request: Request) => {
    if (request.url().startsWith(service!.url)) toService.push({ url: request.url(), body: request.postData() ?? '' });
  });
  const page = new WidgetPage(await context.newPage());
  await page.page.goto(pages!.url(HOST_A));
  await page.waitForEvent('Service.ready');
  await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  await page.page.evaluate((path) => window.Service.open(path), `/member/plans/${plan}`);
  try {
    await cardField(page).getByLabel('Card number').waitFor({ state: 'visible', timeout: 10_000 });
  } catch (error) {
    const shown = await page.page.evaluate(() => document.querySelector('[data-svc-modal]')?.shadowRoot?.querySelector('dialog')?.textContent ?? '(no dialog)');
    throw new Error(`no card field; the dialog shows: ${shown}\n${page.log.join('\n')}\n${service!.log.slice(-5).join('\n')}\n${(error as Error).message}`);
  }
  return { member, context, page, toService };
}

/** Types the card into Stripe's field and clicks the sign-up's button, named for what it does (a trial's: "Start 7-day free trial"). */
async function payWith({ page }: Shopper, number: string, button = 'Subscribe'): Promise<void> {
  await cardField(page).getByLabel('Card number').fill(number);
  await cardField(page).getByLabel('Expiration date (MM / YY)').fill('12 / 34');
  await cardField(page).getByLabel('Security code').fill('123');
  await page.page.getByRole('dialog').getByRole('button', { name: button, exact: true }).click();
}

const membershipsOf = async (member: TestMember) =>
  service!.withStore(async (store, site) => store.listMembershipsOfMember(site.id, member.session.memberInfo.id));

/** No request to the service carried a card number (any run of 12 or more digits) or card fields. */
function expectNoCardSent(shopper: Shopper, number: string): void {
  expect(shopper.toService.length).toBeGreaterThan(0);
  for (const { url, body } of shopper.toService) {
    expect(body, url).not.toContain(number);
    expect(body, url).not.toMatch(/\d{12,}|cardNumber|cardCvc/);
  }
}

browserTest('sign-up with 4242: Stripe takes the card from the page, the service only its payment method; the member is on the plan', async () => {
  const shopper = await openSignUp(monthly);
  const { page } = shopper;
  // Mounted in the light DOM (the stand-in throws inside a shadow root, as Stripe does), shown through the dialog's slot.
  const mounted = await page.page.evaluate(() => {
    const host = document.querySelector('[data-svc-modal]')!;
    const target = host.querySelector(':scope > [slot=svc-card]');
    return { inLight: !!target?.querySelector('[data-stand-in-payment-element]'), slot: !!host.shadowRoot!.querySelector('slot[name=svc-card]') };
  });
  expect(mounted).toEqual({ inLight: true, slot: true });
  const sentToStripe = standIn.requests.length;
  await payWith(shopper, '4242 4242 4242 4242');
  await page.waitForEvent('Service.conversion', { timeout: 10_000 });

  const made = standIn.requests.slice(sentToStripe).find((r) => r.path === '/v1/payment_methods');
  expect(made).toMatchObject({ method: 'POST', key: 'publishable', params: { type: 'card', card: { number: '4242424242424242' } } });
  expectNoCardSent(shopper, '4242424242424242');
  const join = shopper.toService.find((r) => r.url.endsWith('/memberships'));
  expect(JSON.parse(join!.body)).toEqual({ planPublicId: monthly, paymentMethodId: expect.stringMatching(/^pm_/) });
  expect((await membershipsOf(shopper.member)).map((m) => m.status)).toEqual(['active']);
  expect(standIn.charges().filter((c) => c.amount === 1200 && c.status === 'succeeded').length).toBeGreaterThanOrEqual(1);
  await shopper.context.close();
});

browserTest('3-D Secure (3155): the bank asks in its own window; "Complete" makes the membership, "Fail" says so and makes none', async () => {
  const approved = await openSignUp(monthly);
  await payWith(approved, '4000 0025 0000 3155');
  const bank = approved.page.page.getByRole('dialog', { name: '3D Secure test page' });
  await bank.waitFor({ state: 'visible', timeout: 10_000 });
  await bank.getByRole('button', { name: 'Complete authentication' }).click();
  await approved.page.waitForEvent('Service.conversion', { timeout: 10_000 });
  expect(approved.toService.map((r) => new URL(r.url).pathname.split('/').slice(-2).join('/'))).toContain('memberships/confirm');
  expect((await membershipsOf(approved.member)).map((m) => m.status)).toEqual(['active']);
  expectNoCardSent(approved, '4000002500003155');
  await approved.context.close();

  const refused = await openSignUp(monthly);
  await payWith(refused, '4000 0025 0000 3155');
  await refused.page.page.getByRole('dialog', { name: '3D Secure test page' }).getByRole('button', { name: 'Fail authentication' }).click();
  const alert = refused.page.page.getByRole('dialog', { name: 'Monthly' }).getByRole('alert');
  await expect.poll(() => alert.textContent(), { timeout: 10_000 }).not.toBe('');
  expect(await membershipsOf(refused.member)).toEqual([]);
  expect(await refused.page.count('Service.conversion')).toBe(0);
  await refused.context.close();
});

browserTest('a declined card (0002): Stripe’s words in the form, no membership; a trial sets the card up without a charge', async () => {
  const declined = await openSignUp(monthly);
  await payWith(declined, '4000 0000 0000 0002');
  const alert = declined.page.page.getByRole('dialog', { name: 'Monthly' }).getByRole('alert');
  await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toMatch(/declined/i);
  expect(await membershipsOf(declined.member)).toEqual([]);
  expectNoCardSent(declined, '4000000000000002');
  await declined.context.close();

  const trying = await openSignUp(trial);
  // The field is made for a setup (nothing due now), and follows the dialog's colours.
  const appearance = await trying.page.page.evaluate(() => {
    const frame = document.querySelector<HTMLElement>('[data-stand-in-payment-element]');
    return frame ? (JSON.parse(frame.dataset.appearance!) as { variables: Record<string, string> }) : null;
  });
  const accent = await trying.page.page.evaluate(() => getComputedStyle(document.querySelector('[data-svc-modal]')!.shadowRoot!.querySelector('dialog')!).getPropertyValue('--a').trim());
  expect(accent).not.toBe('');
  expect(appearance?.variables).toMatchObject({ colorPrimary: accent, colorText: expect.stringMatching(/\S/), colorBackground: expect.stringMatching(/\S/) });
  const charges = standIn.charges().length;
  await payWith(trying, '4242 4242 4242 4242', 'Start 7-day free trial');
  await trying.page.waitForEvent('Service.conversion', { timeout: 10_000 });
  expect((await membershipsOf(trying.member)).map((m) => m.status)).toEqual(['active']);
  expect(standIn.charges().length).toBe(charges);
  expect(standIn.requests.some((r) => r.path === '/v1/setup_intents' && r.key === 'secret')).toBe(true);
  await trying.context.close();
});

browserTest('changing the card: Stripe’s field on the payment method screen; the service saves the payment method Stripe made', async () => {
  const shopper = await openSignUp(monthly);
  await payWith(shopper, '4242 4242 4242 4242');
  await shopper.page.waitForEvent('Service.conversion', { timeout: 10_000 });
  const { page } = shopper;
  await page.page.evaluate(() => window.Service.open('/member/payment_method/update'));
  await cardField(page).getByLabel('Card number').waitFor({ state: 'visible', timeout: 10_000 });
  await cardField(page).getByLabel('Card number').fill('5555 5555 5555 4444');
  await cardField(page).getByLabel('Expiration date (MM / YY)').fill('11 / 33');
  await cardField(page).getByLabel('Security code').fill('321');
  await page.page.getByRole('dialog').getByRole('button', { name: 'Save card', exact: true }).click();
  const status = page.page.getByRole('dialog', { name: 'Payment method' }).getByRole('status');
  await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('4444');
  const saved = await service!.withStore((store, site) => store.getPaymentMethod(site.id, shopper.member.session.memberInfo.id));
  expect(saved).toMatchObject({ brand: 'mastercard', last4: '4444', processorId: expect.stringMatching(/^pm_/) });
  expectNoCardSent(shopper, '5555555555554444');
  const put = shopper.toService.find((r) => r.url.endsWith('/payment-method') && r.body);
  expect(JSON.parse(put!.body)).toEqual({ paymentMethodId: saved!.processorId });
  await shopper.context.close();
});

browserTest('a renewal the bank held off session (3220): the payment method screen’s “Pay now: Monthly” opens the bank’s window; “Complete”, and the membership is paid up', async () => {
  const shopper = await openSignUp(monthly);
  await payWith(shopper, '4000 0000 0000 3220');
  const { page } = shopper;
  await page.page.getByRole('dialog', { name: '3D Secure test page' }).getByRole('button', { name: 'Complete authentication' }).click();
  await page.waitForEvent('Service.conversion', { timeout: 10_000 });
  // Its renewal comes due; charged without the member, the bank refuses it.
  const report = await service!.withStore(async (store, site) => {
    const [membership] = await store.listMembershipsOfMember(site.id, shopper.member.session.memberInfo.id);
    await store.updateMembership(site.id, membership!.id, { billingPeriodEnd: Date.now() - 1000 });
    const stripe = new StripePaymentProcessor({ secretKey: standIn.secretKey, apiUrl: standIn.url });
    return runRenewals({ store, clock: systemClock, processor: stripe, processorFor: () => stripe });
  });
  expect(report).toMatchObject({ charged: 0, failed: 1 });

  // The mailed link: the site's page with the payment method screen.
  await page.page.goto(`${pages!.url(HOST_A)}?svcopen=${encodeURIComponent('/member/payment_method/update')}`);
  const screen = page.page.getByRole('dialog', { name: 'Payment method' });
  await screen.getByRole('button', { name: 'Pay now: Monthly' }).click({ timeout: 10_000 });
  await page.page.getByRole('dialog', { name: '3D Secure test page' }).getByRole('button', { name: 'Complete authentication' }).click();
  await expect
    .poll(async () => (await membershipsOf(shopper.member)).map((m) => [m.status, m.paymentFailure]), { timeout: 10_000 })
    .toEqual([['active', false]]);
  await expect.poll(() => screen.getByRole('button', { name: 'Pay now: Monthly' }).count(), { timeout: 5_000 }).toBe(0);
  expect(shopper.toService.map((r) => new URL(r.url).pathname.split('/').slice(-3).join('/'))).toContain(`${(await membershipsOf(shopper.member))[0]!.id}/pay/confirm`);
  expectNoCardSent(shopper, '4000000000003220');
  await shopper.context.close();
});

browserTest('the stand-in’s Stripe.js holds the widget to Stripe’s rules: no mount in a shadow root, manual creation after submit()', async () => {
  const context = await browser!.newContext();
  const page = await context.newPage();
  await page.goto(pages!.url(HOST_A));
  await page.addScriptTag({ url: `${standIn.url}/v3/` });
  const refusals = await page.evaluate(async (key) => {
    type Elements = { create(type: string): { mount(target: HTMLElement): void } };
    type StandIn = { elements(options: object): Elements; createPaymentMethod(options: { elements: Elements }): Promise<unknown> };
    const stripe = (window as unknown as { Stripe: (k: string) => StandIn }).Stripe(key);
    const caught = async (run: () => unknown) => {
      try {
        await run();
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    };
    const host = document.body.appendChild(document.createElement('div'));
    const inShadow = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('div'));
    const manual = stripe.elements({ mode: 'setup', currency: 'usd', paymentMethodCreation: 'manual' });
    const automatic = stripe.elements({ mode: 'setup', currency: 'usd' });
    const light = document.body.appendChild(document.createElement('div'));
    return {
      shadow: await caught(() => manual.create('payment').mount(inShadow)),
      light: await caught(() => manual.create('payment').mount(light)),
      beforeSubmit: await caught(() => stripe.createPaymentMethod({ elements: manual })),
      notManual: await caught(() => stripe.createPaymentMethod({ elements: automatic })),
    };
  }, standIn.publishableKey);
  expect(refusals.shadow).toMatch(/cannot be mounted in a ShadowRoot/);
  expect(refusals.light).toBe('no error');
  expect(refusals.beforeSubmit).toMatch(/elements.submit\(\) must be called/);
  expect(refusals.notManual).toMatch(/paymentMethodCreation: 'manual'/);
  await context.close();
});

browserTest('a saved card the bank asks about again (3155, on-session): the next sign-up (Lifetime, beside Monthly) offers Stripe’s field behind “Use another card”, left there the saved card pays, and the bank’s window still comes', async () => {
  const shopper = await openSignUp(monthly);
  await payWith(shopper, '4000 0025 0000 3155');
  const bank = shopper.page.page.getByRole('dialog', { name: '3D Secure test page' });
  await bank.getByRole('button', { name: 'Complete authentication' }).click();
  await shopper.page.waitForEvent('Service.conversion', { timeout: 10_000 });
  const { page } = shopper;
  await page.page.evaluate((path) => window.Service.open(path), `/member/plans/${lifetime}`);
  const signUp = page.page.getByRole('dialog', { name: 'Lifetime' });
  await signUp.getByText(/3155/).waitFor({ state: 'visible', timeout: 10_000 });
  // The saved card pays: Stripe's field waits behind "Use another card".
  await signUp.getByRole('button', { name: 'Use another card', exact: true }).waitFor({ state: 'visible', timeout: 10_000 });
  expect(await cardField(page).getByLabel('Card number').isVisible()).toBe(false);
  const made = standIn.requests.filter((r) => r.path === '/v1/payment_methods').length;
  await signUp.getByRole('button', { name: 'Pay $199.00', exact: true }).click();
  await bank.getByRole('button', { name: 'Complete authentication' }).click();
  await page.waitForEvent('Service.conversion', { count: 2, timeout: 10_000 });
  expect((await membershipsOf(shopper.member)).map((m) => m.status)).toEqual(['active', 'active']);
  // The saved card paid: no new payment method was made, none sent.
  expect(standIn.requests.filter((r) => r.path === '/v1/payment_methods').length).toBe(made);
  expect(JSON.parse(shopper.toService.filter((r) => r.url.endsWith('/memberships')).at(-1)!.body)).toEqual({ planPublicId: lifetime });
  expectNoCardSent(shopper, '4000002500003155');
  await shopper.context.close();
});

browserTest('beside a saved card, another card typed in Stripe’s field is the one that pays', async () => {
  const shopper = await openSignUp(monthly);
  await payWith(shopper, '4242 4242 4242 4242');
  await shopper.page.waitForEvent('Service.conversion', { timeout: 10_000 });
  await shopper.page.page.evaluate((path) => window.Service.open(path), `/member/plans/${lifetime}`);
  const yearlySignUp = shopper.page.page.getByRole('dialog', { name: 'Lifetime' });
  await yearlySignUp.getByText(/4242/).waitFor({ state: 'visible', timeout: 10_000 });
  await yearlySignUp.getByRole('button', { name: 'Use another card', exact: true }).click();
  await cardField(shopper.page).getByLabel('Card number').waitFor({ state: 'visible', timeout: 10_000 });
  await payWith(shopper, '5555 5555 5555 4444', 'Pay $199.00');
  await shopper.page.waitForEvent('Service.conversion', { count: 2, timeout: 10_000 });
  const saved = await service!.withStore((store, site) => store.getPaymentMethod(site.id, shopper.member.session.memberInfo.id));
  expect(saved).toMatchObject({ brand: 'mastercard', last4: '4444' });
  expectNoCardSent(shopper, '5555555555554444');
  await shopper.context.close();
});

browserTest('Stripe.js that cannot be loaded (blocked, offline): the sign-up says so in the dialog, and sends nothing', async () => {
  const origin = pages!.url(HOST_A).replace(/\/$/, '');
  const member = await createMember(service!.url, origin);
  const context = await browser!.newContext();
  await recordEventsIn(context);
  await context.route(`${standIn.url}/v3/`, (route) => route.abort('blockedbyclient'));
  const toService: string[] = [];
  context.on('request', (request) => {
    if (request.url().startsWith(service!.url) && request.method() === 'POST') toService.push(new URL(request.url()).pathname);
  });
  const page = new WidgetPage(await context.newPage());
  await page.page.goto(pages!.url(HOST_A));
  await page.waitForEvent('Service.ready');
  await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  await page.page.evaluate((path) => window.Service.open(path), `/member/plans/${monthly}`);
  const alert = page.page.getByRole('dialog', { name: 'Something went wrong' }).getByRole('alert');
  // In the member's words (the catalogue's networkError), not a script's address.
  await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toBe('The service could not be reached. Check the connection and try again.');
  expect(toService.filter((path) => !path.endsWith('/sessions'))).toEqual([]);
  expect(await cardField(page).count()).toBe(0);
  await context.close();
});
