/**
 * The Stripe processor (src/service/payments/stripe-processor.ts) through the real `stripe`
 * package against our Stripe stand-in (test/support/stripe-stand-in): cards made in the browser
 * attached and refused as Stripe refuses them, payments confirmed on the server, 3-D Secure on a
 * sign-up and what it leaves for renewals, declines with their charge, one charge per
 * idempotency key.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CardDeclinedError, PaymentDeclinedError, UnknownPaymentReferenceError, type PaymentProcessor } from '../../src/service/payments/processor';
import { StripePaymentProcessor } from '../../src/service/payments/stripe-processor';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in/server';

let standIn: StripeStandIn;
let processor: StripePaymentProcessor;
/** What Stripe.js does in the member's browser: a card into a PaymentMethod, with the publishable key. */
let browser: Stripe;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  processor = new StripePaymentProcessor({ secretKey: standIn.secretKey, apiUrl: standIn.url });
  const { hostname, port } = new URL(standIn.url);
  browser = new Stripe(standIn.publishableKey, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(async () => standIn?.close());

const cardMethod = async (number: string) =>
  (await browser.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' } })).id;
const customer = async () => (await processor.createCustomer({ email: `m${Math.random()}@example.com`, name: 'Ada Lovelace' })).customerId;
const order = (key?: string) => ({ amountCents: 1200, currency: 'usd', description: 'Monthly', ...(key && { idempotencyKey: key }) });
const signUp = { metadata: { site: '1', member: '7', plan: '3' } };

describe('attaching a card the browser made', () => {
  test('4242 attaches and reads back as the card, never its number', async () => {
    const customerId = await customer();
    const method = await processor.attachPaymentMethod(customerId, await cardMethod('4242424242424242'));
    expect(method).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 });
    expect(await processor.listPaymentMethods(customerId)).toEqual([method]);
  });

  test.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
  ])('%s is refused by its bank as it is attached (%s): nothing attached', async (number, code) => {
    const customerId = await customer();
    const error = await processor.attachPaymentMethod(customerId, await cardMethod(number)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardDeclinedError);
    expect((error as CardDeclinedError).declineCode).toBe(code);
    expect(await processor.listPaymentMethods(customerId)).toEqual([]);
  });

  test('an id Stripe does not know', async () => {
    await expect(processor.attachPaymentMethod(await customer(), 'pm_nope')).rejects.toBeInstanceOf(UnknownPaymentReferenceError);
  });

  test('a card never goes to Stripe from the service: the Stripe processor has no way to take one', () => {
    expect((processor as PaymentProcessor).addPaymentMethod).toBeUndefined();
  });
});

describe('paying', () => {
  test('a sign-up with 4242: paid at once, the intent is the invoice and the charge is named', async () => {
    const customerId = await customer();
    const pm = (await processor.attachPaymentMethod(customerId, await cardMethod('4242424242424242'))).id;
    const paid = await processor.chargeOnSession(customerId, pm, { ...order(), ...signUp });
    expect(paid).toEqual({ invoiceId: expect.stringMatching(/^pi_/), chargeId: expect.stringMatching(/^ch_/) });
    const create = standIn.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(create.params).toMatchObject({ confirm: 'true', setup_future_usage: 'off_session', automatic_payment_methods: { enabled: 'true', allow_redirects: 'never' } });
    expect(create.params).not.toHaveProperty('payment_method_types');
  });

  test('3155 on a sign-up asks for authentication; approved, the outcome is read from Stripe; then renewals go through off session', async () => {
    const customerId = await customer();
    const pm = (await processor.attachPaymentMethod(customerId, await cardMethod('4000002500003155'))).id;
    const asked = await processor.chargeOnSession(customerId, pm, { ...order(), ...signUp });
    expect(asked).toMatchObject({ status: 'requiresAction', intentId: expect.stringMatching(/^pi_/), clientSecret: expect.stringMatching(/_secret_/) });
    const { intentId } = asked as { intentId: string };
    expect(await processor.paymentOutcome(intentId)).toMatchObject({ status: 'requiresAction', customerId, metadata: signUp.metadata });
    await standIn.authenticate(intentId, 'approve');
    const outcome = await processor.paymentOutcome(intentId);
    expect(outcome).toMatchObject({ status: 'succeeded', customerId, paymentMethodId: pm, amountCents: 1200, currency: 'usd', receipt: { invoiceId: intentId } });
    // Set up for later: a renewal, the member away, goes through.
    expect(await processor.charge(customerId, pm, order())).toMatchObject({ invoiceId: expect.stringMatching(/^pi_/) });
  });

  test('3155 refused at the bank: the outcome is failed', async () => {
    const customerId = await customer();
    const pm = (await processor.attachPaymentMethod(customerId, await cardMethod('4000002500003155'))).id;
    const { intentId } = (await processor.chargeOnSession(customerId, pm, { ...order(), ...signUp })) as { intentId: string };
    await standIn.authenticate(intentId, 'refuse');
    expect((await processor.paymentOutcome(intentId)).status).toBe('failed');
  });

  test('3220 off session: declined as authentication_required, with its intent and amount', async () => {
    const customerId = await customer();
    const pm = (await processor.attachPaymentMethod(customerId, await cardMethod('4000000000003220'))).id;
    const error = await processor.charge(customerId, pm, order()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentDeclinedError);
    expect(error).toMatchObject({ declineCode: 'authentication_required', invoiceId: expect.stringMatching(/^pi_/), amountCents: 1200, currency: 'usd' });
  });

  test('0341 attaches and every charge is declined, naming the failed charge', async () => {
    const customerId = await customer();
    const pm = (await processor.attachPaymentMethod(customerId, await cardMethod('4000000000000341'))).id;
    const error = await processor.chargeOnSession(customerId, pm, { ...order(), ...signUp }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentDeclinedError);
    expect(error).toMatchObject({ declineCode: 'card_declined', chargeId: expect.stringMatching(/^ch_/) });
  });

  test('the same idempotency key twice is one charge, answered twice alike', async () => {
    const customerId = await customer();
    const pm = (await processor.attachPaymentMethod(customerId, await cardMethod('4242424242424242'))).id;
    const before = standIn.charges().length;
    const first = await processor.charge(customerId, pm, order('renewal:1:2026-11-01:1'));
    const again = await processor.charge(customerId, pm, order('renewal:1:2026-11-01:1'));
    expect(again).toEqual(first);
    expect(standIn.charges().length - before).toBe(1);
  });
});
