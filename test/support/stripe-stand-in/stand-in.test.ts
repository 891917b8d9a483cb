/**
 * The Stripe stand-in, driven by the real `stripe` package: what it answers, in Stripe's shapes,
 * and what it refuses, as Stripe would. The cards are cards.ts's table.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseForm } from './form';
import { startStripeStandIn, type StripeStandIn } from './server';

let standIn: StripeStandIn;
let stripe: Stripe;
/** What Stripe.js does in the browser: the publishable key, creating card PaymentMethods. */
let browser: Stripe;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = standIn.client();
  const port = Number(new URL(standIn.url).port);
  browser = new Stripe(standIn.publishableKey, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(() => standIn.close());

const nextYear = new Date().getUTCFullYear() + 1;

function card(number: string): Promise<Stripe.PaymentMethod> {
  return browser.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: nextYear, cvc: '123' } });
}

async function customerWithCard(number: string): Promise<{ customer: string; pm: string }> {
  const customer = await stripe.customers.create({ email: 'member@example.test' });
  const pm = await card(number);
  await stripe.paymentMethods.attach(pm.id, { customer: customer.id });
  return { customer: customer.id, pm: pm.id };
}

/** A server-side confirmed payment, as the service makes them. */
function pay(
  customer: string,
  pm: string,
  extra: Partial<Stripe.PaymentIntentCreateParams> = {},
  options?: Stripe.RequestOptions,
): Promise<Stripe.Response<Stripe.PaymentIntent>> {
  return stripe.paymentIntents.create(
    {
      amount: 2500,
      currency: 'usd',
      customer,
      payment_method: pm,
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      ...extra,
    },
    options,
  );
}

/** The error a call is refused with (fails the test if it is not refused). */
async function refusal(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call;
  } catch (e) {
    if (e instanceof Stripe.errors.StripeError) return e;
    throw e;
  }
  throw new Error('expected the call to be refused');
}

const chargesOf = (pi: string) => standIn.charges().filter((c) => c.payment_intent === pi);

describe('customers and cards', () => {
  test('a customer is created and retrieved', async () => {
    const created = await stripe.customers.create({ email: 'a@example.test', name: 'Ada', metadata: { member: 'm1' } });
    expect(created).toMatchObject({ object: 'customer', email: 'a@example.test', name: 'Ada', metadata: { member: 'm1' }, livemode: false });
    expect(created.id).toMatch(/^cus_[A-Za-z0-9]+$/);
    const retrieved = await stripe.customers.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, email: 'a@example.test' });
  });

  test('a card PaymentMethod made with the publishable key attaches and is listed', async () => {
    const customer = await stripe.customers.create({});
    const pm = await card('4242424242424242');
    expect(pm).toMatchObject({ object: 'payment_method', type: 'card', customer: null, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: nextYear } });
    expect(pm.id).toMatch(/^pm_/);
    const attached = await stripe.paymentMethods.attach(pm.id, { customer: customer.id });
    expect(attached.customer).toBe(customer.id);
    const list = await stripe.customers.listPaymentMethods(customer.id);
    expect(list.data.map((m) => m.id)).toEqual([pm.id]);
    expect(list).toMatchObject({ object: 'list', has_more: false, url: `/v1/customers/${customer.id}/payment_methods` });
    const request = standIn.requests.find((r) => r.path === '/v1/payment_methods' && r.method === 'POST');
    expect(request).toMatchObject({ key: 'publishable', params: { type: 'card', card: { number: '4242424242424242' } } });
  });

  test('the publishable key may only create PaymentMethods; the secret key may not send card numbers', async () => {
    expect(await refusal(browser.customers.create({}))).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const raw = await refusal(stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 1, exp_year: nextYear } }));
    expect(raw).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(raw.message).toMatch(/^Sending credit card numbers directly to the Stripe API is generally unsafe/);
  });

  test.each([
    ['4000000000000002', 'generic_decline', 'Your card was declined.'],
    ['4000000000009995', 'insufficient_funds', 'Your card has insufficient funds.'],
  ])('%s is refused when attached (%s)', async (number, declineCode, message) => {
    const customer = await stripe.customers.create({});
    const pm = await card(number);
    const e = await refusal(stripe.paymentMethods.attach(pm.id, { customer: customer.id }));
    expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(e.raw).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: declineCode, message, param: '' });
    expect((await stripe.customers.listPaymentMethods(customer.id)).data).toEqual([]);
  });

  test('numbers that are not test cards are refused as Stripe refuses them in test mode', async () => {
    const short = await refusal(card('42424242'));
    expect(short).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(short.code).toBe('incorrect_number');
    expect((await refusal(card('4242424242424241'))).code).toBe('incorrect_number'); // fails Luhn
    const live = await refusal(card('4111111111111111')); // Luhn-valid, not a test card
    expect(live.raw).toMatchObject({ code: 'card_declined', decline_code: 'test_mode_live_card' });
    const expired = await refusal(browser.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 1, exp_year: 2001 } }));
    expect(expired.code).toBe('invalid_expiry_year');
  });

  test('a deleted customer is gone: deleting or using it again is resource_missing, its cards detached', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    expect(await stripe.customers.del(customer)).toEqual(expect.objectContaining({ id: customer, deleted: true }));
    // Stripe still answers a retrieve, with the deleted stub.
    expect(await stripe.customers.retrieve(customer)).toMatchObject({ id: customer, deleted: true });
    const again = await refusal(stripe.customers.del(customer));
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(again.statusCode).toBe(404);
    expect(again.raw).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param: 'id' });
    expect((await refusal(stripe.customers.listPaymentMethods(customer))).statusCode).toBe(404);
    expect((await refusal(pay(customer, pm))).code).toBe('resource_missing');
    expect((await stripe.paymentMethods.retrieve(pm)).customer).toBeNull();
  });

  test('a detached card cannot be used again, as Stripe refuses it', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    expect((await stripe.paymentMethods.detach(pm)).customer).toBeNull();
    expect(await refusal(stripe.paymentMethods.attach(pm, { customer }))).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((await refusal(pay(customer, pm))).param).toBe('payment_method');
  });

  test('unknown ids are resource_missing naming the parameter', async () => {
    const e = await refusal(stripe.paymentIntents.retrieve('pi_nope'));
    expect(e.statusCode).toBe(404);
    expect(e.code).toBe('resource_missing');
    const attach = await refusal(stripe.paymentMethods.attach((await card('4242424242424242')).id, { customer: 'cus_nope' }));
    expect(attach.raw).toMatchObject({ code: 'resource_missing', param: 'customer' });
  });
});

describe('payments', () => {
  test.each(['4242424242424242', '5555555555554444'])('%s: a confirmed PaymentIntent succeeds with one charge', async (number) => {
    const { customer, pm } = await customerWithCard(number);
    const pi = await pay(customer, pm, { metadata: { invoice: 'i1' }, description: 'Gold plan' });
    expect(pi).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 2500, amount_received: 2500, currency: 'usd', customer, payment_method: pm, next_action: null, last_payment_error: null, metadata: { invoice: 'i1' }, livemode: false });
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_`));
    expect(pi.latest_charge).toMatch(/^ch_/);
    const expanded = await stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] });
    expect(expanded.latest_charge).toMatchObject({ id: pi.latest_charge, paid: true, status: 'succeeded', amount: 2500, payment_intent: pi.id });
    expect(chargesOf(pi.id)).toHaveLength(1);
  });

  test('4000000000000341 attaches, and its charge is declined with the PaymentIntent and a failed charge in the error', async () => {
    const { customer, pm } = await customerWithCard('4000000000000341');
    const e = await refusal(pay(customer, pm));
    expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(e.raw).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
    const pi = e.payment_intent!;
    expect(pi).toMatchObject({ status: 'requires_payment_method', payment_method: null, last_payment_error: { type: 'card_error', code: 'card_declined', payment_method: { id: pm } } });
    const [failed] = chargesOf(pi.id);
    expect(failed).toMatchObject({ id: pi.latest_charge, status: 'failed', paid: false, failure_code: 'card_declined' });
    expect(chargesOf(pi.id)).toHaveLength(1);
  });

  test('4000002500003155: on-session asks for 3-D Secure; approved, it is charged and set up for off-session', async () => {
    const { customer, pm } = await customerWithCard('4000002500003155');
    const pi = await pay(customer, pm, { setup_future_usage: 'off_session' });
    expect(pi.status).toBe('requires_action');
    expect(pi.next_action).toMatchObject({ type: 'use_stripe_sdk', use_stripe_sdk: expect.any(Object) });
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_`));
    expect(chargesOf(pi.id)).toEqual([]);
    await standIn.authenticate(pi.id, 'approve');
    const done = await stripe.paymentIntents.retrieve(pi.id);
    expect(done).toMatchObject({ status: 'succeeded', next_action: null });
    expect(chargesOf(pi.id)).toMatchObject([{ id: done.latest_charge, status: 'succeeded', paid: true }]);
    const later = await pay(customer, pm, { off_session: true });
    expect(later.status).toBe('succeeded');
  });

  test('4000002500003155 off-session before it was set up: authentication_required, the client secret to bring the member back', async () => {
    const { customer, pm } = await customerWithCard('4000002500003155');
    const e = await refusal(pay(customer, pm, { off_session: true }));
    expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(e.code).toBe('authentication_required');
    const pi = e.payment_intent!;
    expect(pi).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'authentication_required' } });
    expect(pi.client_secret).toMatch(/_secret_/);
  });

  test('a refused 3-D Secure step, over HTTP with the publishable key as the browser would, leaves the payment failed', async () => {
    const { customer, pm } = await customerWithCard('4000002500003155');
    const pi = await pay(customer, pm);
    const answer = await fetch(`${standIn.url}/_stand-in/intents/${pi.id}/authenticate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${standIn.publishableKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ outcome: 'refuse' }),
    });
    expect(answer.status).toBe(200);
    const failed = await stripe.paymentIntents.retrieve(pi.id);
    expect(failed).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'payment_intent_authentication_failure' } });
    expect(chargesOf(pi.id)).toEqual([]);
  });

  test('a SetupIntent (usage off_session) authenticated over HTTP sets 4000002500003155 up for off-session payments', async () => {
    const { customer, pm } = await customerWithCard('4000002500003155');
    const si = await stripe.setupIntents.create({ customer, payment_method: pm, confirm: true, usage: 'off_session', automatic_payment_methods: { enabled: true, allow_redirects: 'never' } });
    expect(si).toMatchObject({ object: 'setup_intent', status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
    expect(si.id).toMatch(/^seti_/);
    const answer = await fetch(`${standIn.url}/_stand-in/intents/${si.id}/authenticate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${standIn.publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'outcome=approve',
    });
    expect(answer.status).toBe(200);
    expect((await stripe.setupIntents.retrieve(si.id)).status).toBe('succeeded');
    expect((await pay(customer, pm, { off_session: true })).status).toBe('succeeded');
  });

  test('SetupIntents: a declining card is refused with the SetupIntent in the error; a refused 3-D Secure step fails it', async () => {
    const customer = (await stripe.customers.create({})).id;
    const declining = await card('4000000000000002');
    const e = await refusal(stripe.setupIntents.create({ customer, payment_method: declining.id, confirm: true, return_url: 'https://example.test/back' }));
    expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(e.decline_code).toBe('generic_decline');
    expect(e.setup_intent).toMatchObject({ status: 'requires_payment_method', last_setup_error: { code: 'card_declined' } });
    const secure = await card('4000002500003155');
    const si = await stripe.setupIntents.create({ customer, payment_method: secure.id, confirm: true, return_url: 'https://example.test/back' });
    await standIn.authenticate(si.id, 'refuse');
    expect(await stripe.setupIntents.retrieve(si.id)).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_setup_error: { code: 'setup_intent_authentication_failure', payment_method: { id: secure.id } },
    });
    await expect(standIn.authenticate(si.id, 'approve')).rejects.toThrow(/no 3-D Secure step/);
  });

  test.each(['4000000000003220', '4000002760003184'])('%s off-session is authentication_required even once set up', async (number) => {
    const { customer, pm } = await customerWithCard(number);
    const si = await stripe.setupIntents.create({ customer, payment_method: pm, confirm: true, return_url: 'https://example.test/back' });
    await standIn.authenticate(si.id, 'approve');
    expect((await stripe.setupIntents.retrieve(si.id)).status).toBe('succeeded');
    const e = await refusal(pay(customer, pm, { off_session: true }));
    expect(e.raw).toMatchObject({ type: 'card_error', code: 'authentication_required' });
  });

  test('the same Idempotency-Key replays the first answer and charges once; other parameters under it are refused', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    const first = await pay(customer, pm, {}, { idempotencyKey: 'renewal-m1-2026-01' });
    const second = await pay(customer, pm, {}, { idempotencyKey: 'renewal-m1-2026-01' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(chargesOf(first.id)).toHaveLength(1);
    const e = await refusal(pay(customer, pm, { amount: 9900 }, { idempotencyKey: 'renewal-m1-2026-01' }));
    expect(e).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(standIn.requests.filter((r) => r.idempotencyKey === 'renewal-m1-2026-01')).toHaveLength(3);
  });

  test('a declined payment replays as the same decline under its key', async () => {
    const { customer, pm } = await customerWithCard('4000000000000341');
    const a = await refusal(pay(customer, pm, {}, { idempotencyKey: 'k-341' }));
    const b = await refusal(pay(customer, pm, {}, { idempotencyKey: 'k-341' }));
    expect(a.charge).toMatch(/^ch_/);
    expect(b.charge).toBe(a.charge);
    expect(b.payment_intent?.id).toBe(a.payment_intent?.id);
    expect(standIn.charges().filter((c) => c.payment_intent === a.payment_intent?.id)).toHaveLength(1);
  });

  test('payment_method_types and other parameters Stripe does not know are refused', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    // The package dropped payment_method_types at this API version; older code would still send it.
    const withTypes = <T>(params: T) => ({ ...params, payment_method_types: ['card'] }) as T;
    const types = await refusal(stripe.paymentIntents.create(withTypes({ amount: 2500, currency: 'usd', customer, payment_method: pm })));
    expect(types).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(types.message).toBe('Received unknown parameter: payment_method_types');
    const setup = await refusal(stripe.setupIntents.create(withTypes({ customer })));
    expect(setup.param).toBe('payment_method_types');
    const nested = await refusal(pay(customer, pm, { metadata: { a: 'b' }, shipping: { name: 'x', address: {} } }));
    expect(nested.message).toBe('Received unknown parameter: shipping');
  });

  test('server-side confirmation with automatic payment methods needs allow_redirects=never or a return_url', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    const e = await refusal(stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer, payment_method: pm, confirm: true }));
    expect(e).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(e.message).toMatch(/you must provide a `return_url`/);
    const alsoEnabled = await refusal(stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer, payment_method: pm, confirm: true, automatic_payment_methods: { enabled: true } }));
    expect(alsoEnabled.message).toMatch(/return_url/);
    const withUrl = await stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer, payment_method: pm, confirm: true, return_url: 'https://example.test/back' });
    expect(withUrl.status).toBe('succeeded');
  });

  test('a PaymentIntent created unconfirmed is confirmed later', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: 'eur', customer, automatic_payment_methods: { enabled: true, allow_redirects: 'never' } });
    expect(pi.status).toBe('requires_payment_method');
    const done = await stripe.paymentIntents.confirm(pi.id, { payment_method: pm });
    expect(done.status).toBe('succeeded');
    expect((await refusal(stripe.paymentIntents.confirm(pi.id))).code).toBe('payment_intent_unexpected_state');
  });

  test('refunds: partial, then the rest; the charge shows it; no more than was charged', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    const pi = await pay(customer, pm);
    const part = await stripe.refunds.create({ payment_intent: pi.id, amount: 1000 });
    expect(part).toMatchObject({ object: 'refund', amount: 1000, charge: pi.latest_charge, status: 'succeeded' });
    expect(part.id).toMatch(/^re_/);
    expect((await refusal(stripe.refunds.create({ charge: pi.latest_charge as string, amount: 1501 }))).code).toBe('amount_too_large');
    await stripe.refunds.create({ charge: pi.latest_charge as string });
    expect(await stripe.charges.retrieve(pi.latest_charge as string)).toMatchObject({ refunded: true, amount_refunded: 2500 });
    expect((await refusal(stripe.refunds.create({ payment_intent: pi.id }))).code).toBe('charge_already_refunded');
  });
});

describe('keys and versions', () => {
  test('a wrong API key is an authentication error', async () => {
    const port = Number(new URL(standIn.url).port);
    const wrong = new Stripe('sk_test_not_the_right_one_1234', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    const e = await refusal(wrong.customers.create({}));
    expect(e).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(e.message).toMatch(/^Invalid API Key provided: sk_test_\*+1234$/);
  });

  test('the package sends its pinned Stripe-Version; another version is refused', async () => {
    const port = Number(new URL(standIn.url).port);
    const apiVersion = '2025-01-27.acacia' as unknown as Stripe.StripeConfig['apiVersion'];
    const older = new Stripe(standIn.secretKey, { apiVersion, host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    const e = await refusal(older.customers.create({}));
    expect(e.statusCode).toBe(400);
    expect(e.message).toContain(Stripe.API_VERSION);
    const created = await stripe.customers.create({});
    expect(created.lastResponse.apiVersion).toBe(Stripe.API_VERSION);
  });
});

describe('webhook events', () => {
  let receiver: Server;
  let endpoint = '';
  const secret = 'whsec_standin_test';
  const received: Stripe.Event[] = [];

  beforeAll(async () => {
    // A receiver as the service has one: the raw body verified with the package, 300 s tolerance.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const event = Stripe.webhooks.constructEvent(Buffer.concat(chunks), req.headers['stripe-signature'] as string, secret);
          received.push(event);
          res.writeHead(200).end('ok');
        } catch (e) {
          res.writeHead(400).end(e instanceof Error ? e.message : 'bad');
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  test('a signed event is verified by the receiver; resent with the same id it is the same event', async () => {
    const { customer, pm } = await customerWithCard('4242424242424242');
    const pi = await pay(customer, pm);
    const sent = await standIn.sendEvent(endpoint, secret, 'payment_intent.succeeded', pi);
    expect(sent.status).toBe(200);
    expect(sent.event).toMatchObject({ object: 'event', type: 'payment_intent.succeeded', api_version: Stripe.API_VERSION, livemode: false, data: { object: { id: pi.id } } });
    expect(sent.event.id).toMatch(/^evt_/);
    const again = await standIn.sendEvent(endpoint, secret, 'payment_intent.succeeded', pi, { id: sent.event.id });
    expect(again.status).toBe(200);
    expect(received.map((e) => e.id).slice(-2)).toEqual([sent.event.id, sent.event.id]);
  });

  test('a stale signature (older than the 300 s tolerance) or the wrong secret fails there', async () => {
    const stale = await standIn.sendEvent(endpoint, secret, 'charge.succeeded', {}, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatch(/tolerance/i);
    const forged = await standIn.sendEvent(endpoint, 'whsec_other', 'charge.succeeded', {});
    expect(forged.status).toBe(400);
  });
});

describe('form encoding', () => {
  test('bracket notation becomes nested objects and lists', () => {
    expect(parseForm('amount=2500&metadata[plan]=gold%20plus&automatic_payment_methods[enabled]=true&expand[0]=latest_charge&expand[1]=customer')).toEqual({
      amount: '2500',
      metadata: { plan: 'gold plus' },
      automatic_payment_methods: { enabled: 'true' },
      expand: ['latest_charge', 'customer'],
    });
    expect(parseForm('card%5Bnumber%5D=4242&a[]=x&a[]=y&q=a+b')).toEqual({ card: { number: '4242' }, a: ['x', 'y'], q: 'a b' });
    expect(parseForm('')).toEqual({});
  });

  test('contradictions and prototype names are refused', () => {
    expect(() => parseForm('a=1&a[b]=2')).toThrow(/both a value and an object/);
    expect(() => parseForm('a=1&a=2')).toThrow(/more than once/);
    expect(() => parseForm('__proto__[x]=1')).toThrow(/Invalid parameter name/);
    expect(() => parseForm('a[b=1')).toThrow(/Invalid parameter name/);
  });
});
