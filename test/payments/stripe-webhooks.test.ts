/**
 * `POST /stripe/webhooks/{subdomain}` (issue 28): our Stripe stand-in signs and posts events over
 * HTTP, as Stripe does, to the service app served on loopback. A good signature is handled, a bad
 * or a stale one refused with nothing changed, the same event twice handled once; a refund shows
 * on the member's invoices, a dispute in the member events, a detached card or a deleted customer
 * leaves the member without a saved card.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { FIXTURE_NOW } from '../../mock-server/fixtures';
import type { LoadedSite } from '../../mock-server/load-fixtures';
import type { ConversionDetail, InvoiceSummary, SessionResponse } from '../../src/contract/member';
import type { Store } from '../../src/service/store/store';
import { GRACE, jsonOf, ORIGIN } from '../member/support';
import { browserStripe, stripeSite } from '../support/stripe-site';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in/server';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
/** Stripe signs with its own clock; the service's is FIXTURE_NOW here. */
const SIGNED_AT = Math.floor(FIXTURE_NOW / 1000);

let standIn: StripeStandIn;
let browser: Stripe;
let store: Store;
let demo: LoadedSite;
let server: Server;
let origin: string;
let token: string;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  browser = browserStripe(standIn);
});
afterAll(async () => standIn?.close());

beforeEach(async () => {
  let app: Hono;
  ({ store, demo, app } = await stripeSite(standIn, { webhookSecret: WEBHOOK_SECRET }));
  server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  token = (await jsonOf<SessionResponse>(await memberApi('/sessions', { method: 'POST', json: GRACE }), 201)).token;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function memberApi(path: string, init: { method?: string; json?: unknown; token?: string } = {}): Promise<Response> {
  return fetch(`${origin}/member/v1/sites/demo${path}`, {
    method: init.method ?? 'GET',
    headers: { origin: ORIGIN, ...(init.json !== undefined && { 'content-type': 'application/json' }), ...(init.token && { authorization: `Bearer ${init.token}` }) },
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
  });
}

/** Grace signs up for Lifetime with 4242 through Stripe: the charge and intent the events name. */
async function paidSignUp(): Promise<{ chargeId: string; intentId: string; paymentMethodId: string; customerId: string }> {
  const paymentMethodId = (await browser.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } })).id;
  const detail = await jsonOf<ConversionDetail>(await memberApi('/memberships', { method: 'POST', token, json: { planPublicId: 'lifetime', paymentMethodId } }), 201);
  const [invoice] = await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!);
  return { chargeId: invoice!.processorChargeId, intentId: detail.order.id, paymentMethodId, customerId: detail.member.processorCustomerId! };
}

const send = (type: string, object: object, options: { id?: string; timestamp?: number; secret?: string; subdomain?: string } = {}) =>
  standIn.sendEvent(`${origin}/stripe/webhooks/${options.subdomain ?? 'demo'}`, options.secret ?? WEBHOOK_SECRET, type, object, { timestamp: SIGNED_AT, ...options });
const invoices = async () => jsonOf<InvoiceSummary[]>(await memberApi('/invoices', { token }), 200);
const events = async (eventType: string) =>
  (await store.listMemberEvents(demo.site.id, { memberId: demo.memberIds.grace! }, { limit: 100 })).items.filter((e) => e.eventType === eventType);

test('charge.refunded in full: the invoice shows refunded, one paymentRefunded event; the same event again is handled once', async () => {
  const { chargeId, intentId } = await paidSignUp();
  const refund = { id: chargeId, object: 'charge', amount: 49900, amount_refunded: 49900, refunded: true, currency: 'usd', payment_intent: intentId };
  const first = await send('charge.refunded', refund, { id: 'evt_refund_1' });
  expect(first.status).toBe(200);
  expect(JSON.parse(first.body)).toEqual({ received: true, outcome: 'refunded' });
  expect((await invoices()).map((i) => i.status)).toEqual(['refunded']);
  const again = await send('charge.refunded', refund, { id: 'evt_refund_1' });
  expect(JSON.parse(again.body)).toEqual({ received: true, duplicate: true });
  // Even as another event (Stripe never sends one, but a redelivery after a crash is handled again): one event.
  await send('charge.refunded', refund, { id: 'evt_refund_2' });
  const refunded = await events('paymentRefunded');
  expect(refunded).toHaveLength(1);
  expect(refunded[0]!.details).toEqual({ amount: expect.stringMatching(/499/), chargeId, invoiceId: intentId });
});

test('refunds in part: the invoice stays paid, one paymentRefunded event (partial) a refund with what is refunded so far; the rest refunds it in full', async () => {
  const { chargeId, intentId } = await paidSignUp();
  const refunded = (amount: number, full = false) => ({ id: chargeId, object: 'charge', amount: 49900, amount_refunded: amount, refunded: full, currency: 'usd', payment_intent: intentId });
  const first = await send('charge.refunded', refunded(1000), { id: 'evt_part_1' });
  expect(JSON.parse(first.body)).toEqual({ received: true, outcome: 'partialRefund' });
  expect((await invoices()).map((i) => i.status)).toEqual(['paid']);
  expect((await events('paymentRefunded')).map((e) => e.details)).toEqual([{ amount: expect.stringMatching(/10\.00/), chargeId, invoiceId: intentId, partial: 'true' }]);
  // The same refund redelivered as another event (after a crash): no second event.
  await send('charge.refunded', refunded(1000), { id: 'evt_part_1_again' });
  expect(await events('paymentRefunded')).toHaveLength(1);
  // A second refund: Stripe's amount_refunded is what has been refunded so far.
  await send('charge.refunded', refunded(3000), { id: 'evt_part_2' });
  expect((await events('paymentRefunded')).map((e) => e.details.amount)).toEqual([expect.stringMatching(/10\.00/), expect.stringMatching(/30\.00/)]);
  expect((await invoices()).map((i) => i.status)).toEqual(['paid']);
  // The rest: refunded in full.
  const full = await send('charge.refunded', refunded(49900, true), { id: 'evt_part_full' });
  expect(JSON.parse(full.body)).toEqual({ received: true, outcome: 'refunded' });
  expect((await invoices()).map((i) => i.status)).toEqual(['refunded']);
  const all = await events('paymentRefunded');
  expect(all).toHaveLength(3);
  expect(all.find((e) => e.details.partial === undefined)!.details).toEqual({ amount: expect.stringMatching(/499\.00/), chargeId, invoiceId: intentId });
});

test('a bad signature, a stale one and none are refused (400) and change nothing', async () => {
  const { chargeId } = await paidSignUp();
  const refund = { id: chargeId, object: 'charge', amount_refunded: 49900, refunded: true };
  const wrongSecret = await send('charge.refunded', refund, { secret: 'whsec_someone_else' });
  expect(wrongSecret.status).toBe(400);
  expect(JSON.parse(wrongSecret.body).errors[0]).toMatchObject({ code: 'invalidSignature' });
  // Signed six minutes before it arrived: a captured delivery replayed later.
  const stale = await send('charge.refunded', refund, { timestamp: SIGNED_AT - 360 });
  expect(stale.status).toBe(400);
  expect(JSON.parse(stale.body).errors[0].message).toMatch(/tolerance/i);
  const unsigned = await fetch(`${origin}/stripe/webhooks/demo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'evt_x', type: 'charge.refunded', data: { object: refund } }) });
  expect(unsigned.status).toBe(400);
  // The body changed after signing: its signature no longer matches.
  const event = { id: 'evt_tampered', object: 'event', type: 'charge.refunded', created: SIGNED_AT, data: { object: refund } };
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(event), secret: WEBHOOK_SECRET, timestamp: SIGNED_AT });
  const tampered = await fetch(`${origin}/stripe/webhooks/demo`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: JSON.stringify({ ...event, id: 'evt_other' }) });
  expect(tampered.status).toBe(400);
  expect((await invoices()).map((i) => i.status)).toEqual(['paid']);
  // Refused deliveries are not recorded: the real one is still handled.
  expect(JSON.parse((await send('charge.refunded', refund)).body)).toEqual({ received: true, outcome: 'refunded' });
});

test('charge.dispute.created: a paymentDisputed member event with the dispute and its reason, once', async () => {
  const { chargeId, intentId } = await paidSignUp();
  const dispute = { id: 'dp_1', object: 'dispute', amount: 49900, currency: 'usd', charge: chargeId, payment_intent: intentId, reason: 'fraudulent', status: 'needs_response' };
  expect(JSON.parse((await send('charge.dispute.created', dispute)).body)).toEqual({ received: true, outcome: 'disputed' });
  await send('charge.dispute.created', dispute);
  const disputed = await events('paymentDisputed');
  expect(disputed).toHaveLength(1);
  expect(disputed[0]!.details).toEqual({ amount: expect.stringMatching(/499/), chargeId, invoiceId: intentId, disputeId: 'dp_1', reason: 'fraudulent' });
});

test('payment_method.detached and customer.deleted: the member has no saved card any more', async () => {
  const { paymentMethodId, customerId } = await paidSignUp();
  const card = () => store.getPaymentMethod(demo.site.id, demo.memberIds.grace!);
  expect(await card()).toMatchObject({ processorId: paymentMethodId });
  expect(JSON.parse((await send('payment_method.detached', { id: paymentMethodId, object: 'payment_method', customer: null })).body)).toEqual({ received: true, outcome: 'cardRemoved' });
  expect(await card()).toBeUndefined();
  // A card saved again, then the whole customer deleted in Stripe's dashboard.
  await store.savePaymentMethod({ siteId: demo.site.id, memberId: demo.memberIds.grace!, processorId: 'pm_again', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, createdAt: FIXTURE_NOW });
  expect(JSON.parse((await send('customer.deleted', { id: customerId, object: 'customer', deleted: true })).body)).toEqual({ received: true, outcome: 'cardRemoved' });
  expect(await card()).toBeUndefined();
});

test('events the service does not act on, or about what it does not know, are acknowledged and change nothing', async () => {
  await paidSignUp();
  expect(JSON.parse((await send('invoice.created', { id: 'in_1', object: 'invoice' })).body)).toEqual({ received: true, outcome: 'ignored' });
  expect(JSON.parse((await send('charge.refunded', { id: 'ch_nobody', object: 'charge', refunded: true })).body)).toEqual({ received: true, outcome: 'unknownReference' });
  expect((await invoices()).map((i) => i.status)).toEqual(['paid']);
});

test('a site that takes no Stripe payments, or none at all, has no webhook: 404', async () => {
  expect((await send('charge.refunded', { id: 'ch_1' }, { subdomain: 'nosuchsite' })).status).toBe(404);
  await store.updateSite(demo.site.id, { payments: null });
  expect((await send('charge.refunded', { id: 'ch_1' })).status).toBe(404);
});
