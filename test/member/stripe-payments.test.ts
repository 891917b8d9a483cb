/**
 * Plan sign-up on a site that takes payments through its Stripe account (issue 28), through the
 * member API, the real `stripe` package and our Stripe stand-in: the card goes from the browser
 * to Stripe (here: the package with the publishable key, as Stripe.js does) and only its
 * payment method id to the service; a card sent to the service is refused; 3-D Secure answers
 * 202 and the membership is recorded only once Stripe says the payment succeeded.
 */
import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { LoadedSite } from '../../mock-server/load-fixtures';
import type { ConversionDetail, Membership, PaymentActionRequired, SessionResponse, SiteConfig } from '../../src/contract/member';
import { runRenewals } from '../../src/service/billing/renewals';
import type { Store } from '../../src/service/store/store';
import { FIXTURE_NOW } from '../../mock-server/fixtures';
import { definePlan } from '../../src/service/domain/plans';
import { StripePaymentProcessor } from '../../src/service/payments/stripe-processor';
import { browserStripe, stripeSite } from '../support/stripe-site';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in/server';
import { expectError, GRACE, jsonOf, ORIGIN } from './support';

const BASE = '/member/v1/sites/demo';
let standIn: StripeStandIn;
let browser: Stripe;
let store: Store;
let demo: LoadedSite;
let request: (path: string, init?: { method?: string; json?: unknown; token?: string }) => Promise<Response>;
let token: string;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  browser = browserStripe(standIn);
});
afterAll(async () => standIn?.close());

beforeEach(async () => {
  let app: Hono;
  ({ store, demo, app } = await stripeSite(standIn));
  request = async (path, init = {}) =>
    app.request(`http://svc.test${BASE}${path}`, {
      method: init.method ?? 'GET',
      headers: { origin: ORIGIN, ...(init.json !== undefined && { 'content-type': 'application/json' }), ...(init.token && { authorization: `Bearer ${init.token}` }) },
      ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
    });
  token = (await jsonOf<SessionResponse>(await request('/sessions', { method: 'POST', json: GRACE }), 201)).token;
});

const paymentMethod = async (number: string) =>
  (await browser.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' } })).id;
const join = (json: Record<string, unknown>) => request('/memberships', { method: 'POST', token, json: { planPublicId: 'lifetime', ...json } });
const memberships = async () => (await store.listMembershipsOfMember(demo.site.id, demo.memberIds.grace!)).filter((m) => m.planId === demo.planIds.lifetime);

test('4242: paid at once through Stripe, the membership recorded with the PaymentIntent as its invoice', async () => {
  const detail = await jsonOf<ConversionDetail>(await join({ paymentMethodId: await paymentMethod('4242424242424242') }), 201);
  expect(detail.membership.status).toBe('active');
  expect(detail.order.id).toMatch(/^pi_/);
  expect(detail.member.processorCustomerId).toMatch(/^cus_/);
  const [invoice] = await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!);
  expect(invoice).toMatchObject({ status: 'paid', processorInvoiceId: detail.order.id, processorChargeId: expect.stringMatching(/^ch_/) });
  expect(await store.getPaymentMethod(demo.site.id, demo.memberIds.grace!)).toMatchObject({ brand: 'visa', last4: '4242' });
});

test('a card sent to the service of a Stripe site is refused, and nothing reaches Stripe', async () => {
  const before = standIn.requests.length;
  await expectError(await join({ cardNumber: '4242424242424242', cardExpiry: '12/34', cardCvc: '123' }), 400, 'invalidField', 'cardNumber');
  expect(standIn.requests.slice(before).filter((r) => r.key === 'secret' && r.path !== '/v1/customers')).toEqual([]);
  expect(await memberships()).toEqual([]);
});

test('a Stripe site has no test processor endpoints: a card, or an answer for the test bank, is 404 and reaches no one', async () => {
  const before = standIn.requests.length;
  await expectError(await request('/test-payment-methods', { method: 'POST', token, json: { cardNumber: '4242424242424242', cardExpiry: '12/34', cardCvc: '123' } }), 404, 'notFound');
  await expectError(await request('/test-payment-intents/pi_123', { method: 'POST', token, json: { clientSecret: 'pi_123_secret_x', approve: true } }), 404, 'notFound');
  expect(standIn.requests.slice(before)).toEqual([]);
});

test('0002: refused by its bank as it is attached, 402, nothing saved or recorded', async () => {
  await expectError(await join({ paymentMethodId: await paymentMethod('4000000000000002') }), 402, 'paymentDeclined', 'paymentMethodId');
  expect(await store.getPaymentMethod(demo.site.id, demo.memberIds.grace!)).toBeUndefined();
  expect(await memberships()).toEqual([]);
});

test('3155: 202 with the client secret; nothing recorded until Stripe says the payment succeeded; confirmed once', async () => {
  const res = await join({ paymentMethodId: await paymentMethod('4000002500003155') });
  const { requiresAction } = await jsonOf<PaymentActionRequired>(res, 202);
  expect(requiresAction).toEqual({ intentId: expect.stringMatching(/^pi_/), clientSecret: expect.stringMatching(/_secret_/) });
  expect(await memberships()).toEqual([]);
  const confirm = () => request('/memberships/confirm', { method: 'POST', token, json: { intentId: requiresAction.intentId } });
  // The browser's word is not taken: before the bank's step, the payment is pending.
  await expectError(await confirm(), 409, 'paymentPending', 'intentId');
  await standIn.authenticate(requiresAction.intentId, 'approve');
  const detail = await jsonOf<ConversionDetail>(await confirm(), 201);
  expect(detail.order.id).toBe(requiresAction.intentId);
  expect(await memberships()).toHaveLength(1);
  await expectError(await confirm(), 409, 'alreadyMember');
  expect(await memberships()).toHaveLength(1);
});

test('3220’s renewal, held by the bank off session: POST /memberships/{id}/pay asks in Stripe’s window (202), /pay/confirm asks Stripe and records the renewal paid', async () => {
  const pm = await paymentMethod('4000000000003220');
  const signUp = (await jsonOf<PaymentActionRequired>(await join({ planPublicId: 'monthly', paymentMethodId: pm }), 202)).requiresAction;
  await standIn.authenticate(signUp.intentId, 'approve');
  const { membership } = await jsonOf<ConversionDetail>(await request('/memberships/confirm', { method: 'POST', token, json: { intentId: signUp.intentId } }), 201);
  // Its renewal comes due; charged without the member, Stripe's bank refuses it.
  await store.updateMembership(demo.site.id, membership.id, { billingPeriodEnd: FIXTURE_NOW - 1 });
  const stripe = new StripePaymentProcessor({ secretKey: standIn.secretKey, apiUrl: standIn.url });
  expect(await runRenewals({ store, clock: () => FIXTURE_NOW, processor: stripe })).toMatchObject({ charged: 0, failed: 1 });
  const failed = (await store.listMemberEvents(demo.site.id, { memberId: demo.memberIds.grace! }, { limit: 100 })).items.filter((e) => e.eventType === 'paymentFailed');
  expect(failed.map((e) => e.details.reason)).toEqual(['authentication_required']);

  const asked = (await jsonOf<PaymentActionRequired>(await request(`/memberships/${membership.id}/pay`, { method: 'POST', token }), 202)).requiresAction;
  expect(asked.intentId).toMatch(/^pi_/);
  const confirm = () => request(`/memberships/${membership.id}/pay/confirm`, { method: 'POST', token, json: { intentId: asked.intentId } });
  await expectError(await confirm(), 409, 'paymentPending', 'intentId');
  await standIn.authenticate(asked.intentId, 'approve');
  const paid = await jsonOf<Membership>(await confirm(), 200);
  expect(paid).toMatchObject({ id: membership.id, status: 'active', paymentFailure: false });
  const invoices = await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!);
  expect(invoices.filter((i) => i.processorInvoiceId === asked.intentId)).toMatchObject([{ status: 'paid', description: 'Monthly: renewal' }]);
  expect(await jsonOf<Membership>(await confirm(), 200)).toStrictEqual(paid);
});

test('an upgrade with a 3155 card asks in Stripe’s window (202); /change/confirm asks Stripe, then moves the membership and records the PaymentIntent as its invoice', async () => {
  const { membership } = await jsonOf<ConversionDetail>(await join({ planPublicId: 'monthly', paymentMethodId: await paymentMethod('4242424242424242') }), 201);
  const pro = await definePlan(store, () => FIXTURE_NOW, demo.site.id, {
    name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
  });
  const path = `/memberships/${membership.id}/change`;
  const asked = (await jsonOf<PaymentActionRequired>(await request(path, { method: 'POST', token, json: { plan: pro.publicId, paymentMethodId: await paymentMethod('4000002500003155') } }), 202)).requiresAction;
  expect(asked.intentId).toMatch(/^pi_/);
  const confirm = () => request(`${path}/confirm`, { method: 'POST', token, json: { intentId: asked.intentId } });
  await expectError(await confirm(), 409, 'paymentPending', 'intentId');
  await standIn.authenticate(asked.intentId, 'approve');
  const changed = await jsonOf<Membership>(await confirm(), 200);
  expect(changed).toMatchObject({ id: membership.id, publicPlanId: pro.publicId, status: 'active' });
  const invoices = await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!);
  expect(invoices.filter((i) => i.processorInvoiceId === asked.intentId)).toMatchObject([{ status: 'paid', planId: pro.id, description: 'Pro (from Monthly)' }]);
  expect(await jsonOf<Membership>(await confirm(), 200)).toStrictEqual(changed);
});

test('3155’s window left unanswered, then another card: the new card is charged (201), not refused as a reused idempotency key', async () => {
  await jsonOf<PaymentActionRequired>(await join({ paymentMethodId: await paymentMethod('4000002500003155') }), 202);
  const detail = await jsonOf<ConversionDetail>(await join({ paymentMethodId: await paymentMethod('4242424242424242') }), 201);
  expect(detail.membership.publicPlanId).toBe('lifetime');
  expect(await memberships()).toHaveLength(1);
});

test('3155 refused at the bank: confirmed as declined (402), a failed invoice and an abandoned conversion, no membership', async () => {
  const { requiresAction } = await jsonOf<PaymentActionRequired>(await join({ paymentMethodId: await paymentMethod('4000002500003155') }), 202);
  await standIn.authenticate(requiresAction.intentId, 'refuse');
  const confirm = () => request('/memberships/confirm', { method: 'POST', token, json: { intentId: requiresAction.intentId } });
  await expectError(await confirm(), 402, 'paymentDeclined');
  // Asked again: the same answer, recorded once.
  await expectError(await confirm(), 402, 'paymentDeclined');
  expect(await memberships()).toEqual([]);
  expect((await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!)).map((i) => i.status)).toEqual(['failed']);
  const events = await store.listMemberEvents(demo.site.id, { memberId: demo.memberIds.grace! }, { limit: 10 });
  expect(events.items.filter((e) => e.eventType === 'abandonedConversion')).toHaveLength(1);
});

test('another member cannot confirm a payment that is not theirs, nor an id Stripe does not know', async () => {
  const { requiresAction } = await jsonOf<PaymentActionRequired>(await join({ paymentMethodId: await paymentMethod('4000002500003155') }), 202);
  await standIn.authenticate(requiresAction.intentId, 'approve');
  const ada = (await jsonOf<SessionResponse>(await request('/sessions', { method: 'POST', json: { email: 'ada@demo.localhost', password: 'demo-password' } }), 201)).token;
  await expectError(await request('/memberships/confirm', { method: 'POST', token: ada, json: { intentId: requiresAction.intentId } }), 404, 'notFound', 'intentId');
  await expectError(await request('/memberships/confirm', { method: 'POST', token, json: { intentId: 'pi_unknown' } }), 404, 'notFound', 'intentId');
  expect(await memberships()).toEqual([]);
});

test('PUT /payment-method on a Stripe site takes a payment method id, never a card', async () => {
  const saved = await jsonOf<{ last4: string }>(await request('/payment-method', { method: 'PUT', token, json: { paymentMethodId: await paymentMethod('5555555555554444') } }), 200);
  expect(saved.last4).toBe('4444');
  await expectError(await request('/payment-method', { method: 'PUT', token, json: { cardNumber: '4242424242424242', cardExpiry: '12/34', cardCvc: '123' } }), 400, 'invalidField', 'cardNumber');
});

test('0341: attached, its first charge declined (402 on paymentMethodId), a failed invoice naming Stripe\'s charge, no membership', async () => {
  await expectError(await join({ paymentMethodId: await paymentMethod('4000000000000341') }), 402, 'paymentDeclined', 'paymentMethodId');
  expect(await memberships()).toEqual([]);
  const [invoice] = await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!);
  expect(invoice).toMatchObject({ status: 'failed', processorInvoiceId: expect.stringMatching(/^pi_/), processorChargeId: expect.stringMatching(/^ch_/) });
});

describe('a trial (nothing due now): the card is set up for the renewals with a SetupIntent', () => {
  let trialPlanId = 0;
  const trial = async () => {
    const plan = await definePlan(store, () => FIXTURE_NOW, demo.site.id, {
      name: 'Trial monthly', type: 'subscription', isPublic: true,
      billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 14 },
    });
    trialPlanId = plan.id;
    return plan.publicId;
  };
  const trialMemberships = async () =>
    (await store.listMembershipsOfMember(demo.site.id, demo.memberIds.grace!)).filter((m) => m.planId === trialPlanId);
  const setupRequests = () => standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/setup_intents');
  const lastSetup = () => setupRequests().at(-1)!.params;

  test('4242: 201, a SetupIntent with usage off_session and the sign-up\'s metadata, no charge and no invoice', async () => {
    const publicId = await trial();
    const before = setupRequests().length;
    const detail = await jsonOf<ConversionDetail>(await join({ planPublicId: publicId, paymentMethodId: await paymentMethod('4242424242424242') }), 201);
    expect(detail.membership.status).toBe('active');
    expect(setupRequests().slice(before)).toHaveLength(1);
    expect(lastSetup()).toMatchObject({ usage: 'off_session', confirm: 'true', metadata: { svc_site: String(demo.site.id), svc_member: String(demo.memberIds.grace), svc_plan: String(trialPlanId) } });
    expect(await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!)).toEqual([]);
    expect(await trialMemberships()).toHaveLength(1);
  });

  test('3155: 202 with the SetupIntent\'s client secret; confirmed once the bank approved; then renewals go through off-session', async () => {
    const publicId = await trial();
    const pm = await paymentMethod('4000002500003155');
    const { requiresAction } = await jsonOf<PaymentActionRequired>(await join({ planPublicId: publicId, paymentMethodId: pm }), 202);
    expect(requiresAction.intentId).toMatch(/^seti_/);
    const confirm = () => request('/memberships/confirm', { method: 'POST', token, json: { intentId: requiresAction.intentId } });
    await expectError(await confirm(), 409, 'paymentPending', 'intentId');
    expect(await trialMemberships()).toEqual([]);
    await standIn.authenticate(requiresAction.intentId, 'approve');
    const detail = await jsonOf<ConversionDetail>(await confirm(), 201);
    expect(detail.membership.status).toBe('active');
    expect(await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!)).toEqual([]);
    await expectError(await confirm(), 409, 'alreadyMember');
    // What the setting up was for: the first renewal, the member away, is not held by the bank.
    const member = (await store.getMember(demo.site.id, demo.memberIds.grace!))!;
    const stripe = new StripePaymentProcessor({ secretKey: standIn.secretKey, apiUrl: standIn.url });
    await expect(stripe.charge(member.processorCustomerId!, pm, { amountCents: 1200, currency: 'usd', description: 'Trial monthly', idempotencyKey: 'renewal-1' })).resolves.toMatchObject({ invoiceId: expect.stringMatching(/^pi_/) });
    // Not vacuous: a 3155 card only attached (PUT /payment-method), never set up, is held off-session.
    const attachedOnly = await paymentMethod('4000002500003155');
    await jsonOf(await request('/payment-method', { method: 'PUT', token, json: { paymentMethodId: attachedOnly } }), 200);
    await expect(stripe.charge(member.processorCustomerId!, attachedOnly, { amountCents: 1200, currency: 'usd', description: 'Trial monthly', idempotencyKey: 'renewal-2' })).rejects.toMatchObject({ declineCode: 'authentication_required' });
  });

  test('3155 refused at the bank: 402 on confirming, no membership and no invoice (no money moved)', async () => {
    const publicId = await trial();
    const { requiresAction } = await jsonOf<PaymentActionRequired>(await join({ planPublicId: publicId, paymentMethodId: await paymentMethod('4000002500003155') }), 202);
    await standIn.authenticate(requiresAction.intentId, 'refuse');
    await expectError(await request('/memberships/confirm', { method: 'POST', token, json: { intentId: requiresAction.intentId } }), 402, 'paymentDeclined', 'intentId');
    expect(await trialMemberships()).toEqual([]);
    expect(await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!)).toEqual([]);
  });
});

test('GET /config tells the widget the site takes cards through Stripe: its publishable key and where Stripe.js is; never a secret', async () => {
  const config = await jsonOf<SiteConfig>(await request('/config'), 200);
  expect(config.payments).toStrictEqual({ processor: 'stripe', publishableKey: standIn.publishableKey, scriptUrl: 'https://js.stripe.com/v3/' });
  const text = JSON.stringify(config);
  expect(text).not.toContain(standIn.secretKey);
  expect(text).not.toMatch(/secretKeyEnv|webhookSecretEnv|sk_test_|whsec_/);
  // SVC_STRIPE_JS_URL (tests only) names a stand-in's Stripe.js instead.
  const { app: standInApp } = await stripeSite(standIn, { stripeJsUrl: `${standIn.url}/v3/` });
  const viaStandIn = (await (await standInApp.request(`http://svc.test${BASE}/config`, { headers: { origin: ORIGIN } })).json()) as SiteConfig;
  expect(viaStandIn.payments?.scriptUrl).toBe(`${standIn.url}/v3/`);
});
