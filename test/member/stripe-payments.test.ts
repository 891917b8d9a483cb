/**
 * Plan sign-up on a site that takes payments through its Stripe account (issue 28), through the
 * member API, the real `stripe` package and our Stripe stand-in: the card goes from the browser
 * to Stripe (here: the package with the publishable key, as Stripe.js does) and only its
 * payment method id to the service; a card sent to the service is refused; 3-D Secure answers
 * 202 and the membership is recorded only once Stripe says the payment succeeded.
 */
import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { LoadedSite } from '../../mock-server/load-fixtures';
import type { ConversionDetail, PaymentActionRequired, SessionResponse } from '../../src/contract/member';
import type { Store } from '../../src/service/store/store';
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
