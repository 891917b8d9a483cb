/**
 * The member's invoices and saved card (issue 5's invoices and payment method screens):
 * GET /invoices, GET /payment-method (204: no card yet), PUT /payment-method (a new card, on
 * which a payment that failed is tried again at once).
 */
import type { InvoiceSummary, SavedCard } from '../../contract/member';
import { chargeOverdue } from '../billing/renewals';
import { jsonResponse } from '../http/json';
import type { PaymentMethodRecord } from '../store/records';
import { billingOf, NO_STORE, type BillingContext } from './billing-answers';
import { readObject } from './body';
import type { MemberApp } from './context';
import { MemberError } from './errors';
import { readPayment, saveCard } from './plan-signup';

const savedCard = (m: PaymentMethodRecord): SavedCard => ({ brand: m.brand, last4: m.last4, expMonth: m.expMonth, expYear: m.expYear });

export function paymentMethodRoutes(app: MemberApp, ctx: BillingContext): void {
  const { store } = ctx;

  app.get('/sites/:subdomain/invoices', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const invoices = await store.listInvoicesOfMember(site.id, member.id);
    const body: InvoiceSummary[] = invoices.map((i) => ({
      id: i.processorInvoiceId,
      description: i.description,
      subTotalCents: i.subTotalCents,
      taxCents: i.taxCents,
      totalCents: i.totalCents,
      currency: i.currency,
      status: i.status,
      createdAt: new Date(i.createdAt).toISOString(),
    }));
    return jsonResponse(body, 200, NO_STORE);
  });

  app.get('/sites/:subdomain/payment-method', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const method = await store.getPaymentMethod(site.id, member.id);
    // No card yet is an answer, not a failure: a browser logs every 4xx as an error in the console.
    if (!method) return new Response(null, { status: 204, headers: NO_STORE });
    return jsonResponse(savedCard(method), 200, NO_STORE);
  });

  app.put('/sites/:subdomain/payment-method', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const payment = readPayment(await readObject(c.req.raw));
    if (!payment) throw MemberError.of(400, 'invalidField', 'Name the card by the paymentMethodId the processor made of it', 'paymentMethodId');
    const billing = billingOf(ctx, site);
    const saved = await saveCard(billing, site, member, payment);
    // A payment that failed is tried again at once on the new card, not at the next retry.
    await chargeOverdue(billing, site, member.id);
    return jsonResponse(savedCard(saved), 200, NO_STORE);
  });
}
