/**
 * The owner's refund and erase on a site that takes payments through Stripe (issue 32), through
 * the Admin API, the real `stripe` package and our Stripe stand-in: the refund is Stripe's, by
 * charge, with an idempotency key, and what Stripe refuses changes nothing here; erasing deletes
 * the member's Stripe customer.
 */
import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { LoadedSite } from '../../mock-server/load-fixtures';
import type { SessionResponse } from '../../src/contract/member';
import { issueApiKey } from '../../src/service/auth/api-keys';
import { FIXTURE_NOW } from '../../mock-server/fixtures';
import type { Store } from '../../src/service/store/store';
import { adminRequest } from '../support/admin-request';
import { browserStripe, stripeSite } from '../support/stripe-site';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in/server';
import { GRACE, jsonOf, ORIGIN } from '../member/support';

let standIn: StripeStandIn;
let browser: Stripe;
let store: Store;
let demo: LoadedSite;
let app: Hono;
let key: string;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  browser = browserStripe(standIn);
});
afterAll(async () => standIn?.close());

beforeEach(async () => {
  ({ store, demo, app } = await stripeSite(standIn));
  key = (await issueApiKey(store, () => FIXTURE_NOW, { siteId: demo.site.id, scopes: ['invoices:write', 'members:write', 'read.invoices'] })).key;
});

/** Grace joins the lifetime plan with a card that pays: her invoice, paid through Stripe. */
async function paidInvoice() {
  const member = (path: string, json: unknown, token?: string) =>
    app.request(`http://svc.test/member/v1/sites/demo${path}`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(json),
    });
  const { token } = await jsonOf<SessionResponse>(await member('/sessions', GRACE), 201);
  const paymentMethodId = (await browser.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } })).id;
  expect((await member('/memberships', { planPublicId: 'lifetime', paymentMethodId }, token)).status).toBe(201);
  const [invoice] = await store.listInvoicesOfMember(demo.site.id, demo.memberIds.grace!);
  return invoice!;
}

test('a refund in part, then the rest, is Stripe\'s: the charge says so, and so does the ledger', async () => {
  const invoice = await paidInvoice();
  const charge = () => standIn.client().charges.retrieve(invoice.processorChargeId);
  const part = await adminRequest(app, `/admin/v1/invoices/${invoice.id}/refund`, { key, body: { amountCents: 500 } });
  expect(part.status).toBe(200);
  expect(part.body).toMatchObject({ status: 'paid', refundedCents: 500 });
  expect((await charge()).amount_refunded).toBe(500);
  const refunds = standIn.requests.filter((r) => r.path === '/v1/refunds');
  expect(refunds.at(-1)?.idempotencyKey).toBe(`refund:${demo.site.id}:${invoice.id}:0:500`);

  const rest = await adminRequest(app, `/admin/v1/invoices/${invoice.id}/refund`, { key, body: {} });
  expect(rest.body).toMatchObject({ status: 'refunded', refundedCents: invoice.totalCents });
  expect(await charge()).toMatchObject({ refunded: true, amount_refunded: invoice.totalCents });
});

test('what Stripe refuses (refunded already at Stripe\'s own dashboard) is a conflict, and the ledger stays as it was', async () => {
  const invoice = await paidInvoice();
  await standIn.client().refunds.create({ charge: invoice.processorChargeId });
  const res = await adminRequest(app, `/admin/v1/invoices/${invoice.id}/refund`, { key, body: {} });
  expect(res.status).toBe(409);
  expect(res.body.errors[0].message).toMatch(/The processor refused the refund/);
  expect(await store.getInvoice(demo.site.id, invoice.id)).toStrictEqual(invoice);
});

test('erasing a member deletes their Stripe customer; the invoice stays', async () => {
  const invoice = await paidInvoice();
  const customerId = (await store.getMember(demo.site.id, invoice.memberId))!.processorCustomerId!;
  expect(customerId).toMatch(/^cus_/);
  const res = await adminRequest(app, `/admin/v1/members/${invoice.memberId}/erase`, { key, method: 'POST' });
  expect(res.status).toBe(200);
  expect(await standIn.client().customers.retrieve(customerId)).toMatchObject({ id: customerId, deleted: true });
  expect(await store.getInvoice(demo.site.id, invoice.id)).toStrictEqual(invoice);
  const ledger = await adminRequest<any[]>(app, `/admin/v1/invoices?memberId=${invoice.memberId}`, { key });
  expect(ledger.body.map((i) => i.id)).toEqual([invoice.id]);
});
