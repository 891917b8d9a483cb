/**
 * Contract: the processor events a site's webhook handled (issue 28, decision 0033). An event is
 * recorded once, however many deliveries of it arrive at once; the same id at another site is
 * another event; a site's payments settings read back as written. What the events change (a
 * refunded invoice, a removed card) touches only the site's rows of that processor id.
 */
import { expect, test } from 'vitest';
import type { NewInvoice, NewPaymentMethod } from '../../src/service/store/records';
import { type Ctx, PLAN_TERMS, T0, newMember, newPlan } from './fixtures';

export function processorEventTests(ctx: Ctx): void {
  let invoiceSerial = 0;
  /** An invoice of a new member on a new plan of the site, created; `ch_1` unless told. */
  async function invoiceIn(siteId: number, extra: Partial<NewInvoice> = {}) {
    const plan = await ctx.store.createPlan(newPlan(siteId, {}, PLAN_TERMS['one-time payment plan with tax']));
    const [memberId] = await ctx.store.createMembers([newMember(siteId, `payer${++invoiceSerial}@example.com`)]);
    return ctx.store.createInvoice({
      siteId, memberId: memberId!, planId: plan.id, processorInvoiceId: `in_${invoiceSerial}`, processorChargeId: 'ch_1',
      subTotalCents: 4999, taxCents: 950, totalCents: 5949, currency: 'eur', status: 'paid', description: 'Gold', createdAt: T0,
      ...extra,
    });
  }
  /** Members of the site with those processor customers (undefined: none), each with a card unless `cards` says no. */
  async function payers(siteId: number, customers: (string | undefined)[], cards = customers.map(() => true)) {
    const ids = await ctx.store.createMembers(
      customers.map((c, i) => newMember(siteId, `card${i}@example.com`, c === undefined ? {} : { processorCustomerId: c })),
    );
    // Saved from the last member to the first, so the cards' ids run against the members'.
    for (let i = ids.length - 1; i >= 0; i--) if (cards[i]) await ctx.store.savePaymentMethod(card(siteId, ids[i]!, `pm_${i}`));
    return ids;
  }
  const card = (siteId: number, memberId: number, processorId: string): NewPaymentMethod => ({
    siteId, memberId, processorId, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, createdAt: T0,
  });

  test('recordProcessorEvent: the first of 10 deliveries at once is new, the rest are not; another site\'s same id is its own', async () => {
    const event = { siteId: ctx.a.id, eventId: 'evt_1NwQ', type: 'charge.refunded', receivedAt: T0 };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => ctx.store.recordProcessorEvent(event)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await ctx.store.recordProcessorEvent({ ...event, receivedAt: T0 + 1 })).toBe(false);
    expect(await ctx.store.recordProcessorEvent({ ...event, siteId: ctx.b.id })).toBe(true);
    expect(await ctx.store.recordProcessorEvent({ ...event, eventId: 'evt_2' })).toBe(true);
  });

  test('a site\'s payments settings read back as written, and a patch clears them', async () => {
    const payments = { processor: 'stripe' as const, publishableKey: 'pk_test_abcdefgh', secretKeyEnv: 'A_SECRET', webhookSecretEnv: 'A_HOOK' };
    const updated = await ctx.store.updateSite(ctx.a.id, { payments });
    expect(updated!.payments).toEqual(payments);
    expect((await ctx.store.getSiteBySubdomain('alpha'))!.payments).toEqual(payments);
    expect((await ctx.store.updateSite(ctx.a.id, { payments: null }))!.payments).toBeUndefined();
    expect((await ctx.store.getSite(ctx.a.id))!.payments).toBeUndefined();
  });

  // What the events change.

  test('getInvoiceByCharge answers the site\'s invoice of the charge; another site\'s with the same charge id is its own', async () => {
    const ours = await invoiceIn(ctx.a.id);
    const theirs = await invoiceIn(ctx.b.id);
    const onlyTheirs = await invoiceIn(ctx.b.id, { processorChargeId: 'ch_b' });
    expect(await ctx.store.getInvoiceByCharge(ctx.a.id, 'ch_1')).toStrictEqual(ours);
    expect(await ctx.store.getInvoiceByCharge(ctx.b.id, 'ch_1')).toStrictEqual(theirs);
    expect(await ctx.store.getInvoiceByCharge(ctx.b.id, 'ch_b')).toStrictEqual(onlyTheirs);
    expect(await ctx.store.getInvoiceByCharge(ctx.a.id, 'ch_b')).toBeUndefined();
    expect(await ctx.store.getInvoiceByCharge(ctx.a.id, 'ch_none')).toBeUndefined();
  });

  test('markInvoiceRefunded marks the site\'s paid invoice refunded and answers it; again, it answers it as it is', async () => {
    const paid = await invoiceIn(ctx.a.id);
    const theirs = await invoiceIn(ctx.b.id);
    const refunded = { ...paid, status: 'refunded', refundedCents: paid.totalCents };
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1')).toStrictEqual(refunded);
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, paid.memberId)).toStrictEqual([refunded]);
    expect(await ctx.store.getInvoiceByCharge(ctx.a.id, 'ch_1')).toStrictEqual(refunded);
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1')).toStrictEqual(refunded);
    expect(await ctx.store.listInvoicesOfMember(ctx.b.id, theirs.memberId)).toStrictEqual([theirs]);
  });

  test('markInvoiceRefunded of a failed invoice, or of no invoice of the site, answers undefined and changes nothing', async () => {
    const failed = await invoiceIn(ctx.a.id, { status: 'failed' });
    const theirs = await invoiceIn(ctx.b.id, { processorChargeId: 'ch_b' });
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1')).toBeUndefined();
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, failed.memberId)).toStrictEqual([failed]);
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_b')).toBeUndefined();
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_none')).toBeUndefined();
    expect(await ctx.store.listInvoicesOfMember(ctx.b.id, theirs.memberId)).toStrictEqual([theirs]);
  });

  test('invoices sharing a charge id in a site: the first by id is answered, and every paid one is marked', async () => {
    const first = await invoiceIn(ctx.a.id);
    const failed = await invoiceIn(ctx.a.id, { status: 'failed' });
    const second = await invoiceIn(ctx.a.id);
    expect(await ctx.store.getInvoiceByCharge(ctx.a.id, 'ch_1')).toStrictEqual(first);
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1')).toStrictEqual({ ...first, status: 'refunded', refundedCents: first.totalCents });
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, second.memberId)).toStrictEqual([{ ...second, status: 'refunded', refundedCents: second.totalCents }]);
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, failed.memberId)).toStrictEqual([failed]);
  });

  test('markInvoiceRefunded with an amount: the refunded part only grows, to the total at most, and then the invoice is refunded', async () => {
    const paid = await invoiceIn(ctx.a.id);
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1', 1000)).toStrictEqual({ ...paid, refundedCents: 1000 });
    // An older, smaller refund told late changes nothing.
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1', 500)).toStrictEqual({ ...paid, refundedCents: 1000 });
    expect(await ctx.store.getInvoice(ctx.a.id, paid.id)).toStrictEqual({ ...paid, refundedCents: 1000 });
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1', paid.totalCents + 1)).toStrictEqual({ ...paid, status: 'refunded', refundedCents: paid.totalCents });
    expect(await ctx.store.markInvoiceRefunded(ctx.a.id, 'ch_1', 2000)).toStrictEqual({ ...paid, status: 'refunded', refundedCents: paid.totalCents });
  });

  test('removePaymentMethodByProcessorId removes the site\'s card and answers its member; another site\'s same card stays', async () => {
    const [ann, bob] = await payers(ctx.a.id, [undefined, undefined]);
    const [foreign] = await payers(ctx.b.id, [undefined]);
    const bobs = await ctx.store.getPaymentMethod(ctx.a.id, bob!);
    const theirs = await ctx.store.getPaymentMethod(ctx.b.id, foreign!);
    expect(theirs?.processorId).toBe('pm_0');
    expect(await ctx.store.removePaymentMethodByProcessorId(ctx.a.id, 'pm_0')).toBe(ann);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann!)).toBeUndefined();
    expect(await ctx.store.getPaymentMethod(ctx.a.id, bob!)).toStrictEqual(bobs);
    expect(await ctx.store.getPaymentMethod(ctx.b.id, foreign!)).toStrictEqual(theirs);
    expect(await ctx.store.removePaymentMethodByProcessorId(ctx.a.id, 'pm_0')).toBeUndefined();
    expect(await ctx.store.removePaymentMethodByProcessorId(ctx.a.id, 'pm_none')).toBeUndefined();
  });

  test('removePaymentMethodsOfCustomer removes the cards of the customer\'s members of the site only, answering their ids ascending', async () => {
    const [ann, cy, bob, dee] = await payers(ctx.a.id, ['cus_1', 'cus_2', 'cus_1', 'cus_1'], [true, true, true, false]);
    const [foreign] = await payers(ctx.b.id, ['cus_1']);
    const cys = await ctx.store.getPaymentMethod(ctx.a.id, cy!);
    const theirs = await ctx.store.getPaymentMethod(ctx.b.id, foreign!);
    expect(await ctx.store.removePaymentMethodsOfCustomer(ctx.a.id, 'cus_1')).toEqual([ann, bob]);
    for (const id of [ann, bob, dee]) expect(await ctx.store.getPaymentMethod(ctx.a.id, id!)).toBeUndefined();
    expect(await ctx.store.getPaymentMethod(ctx.a.id, cy!)).toStrictEqual(cys);
    expect(await ctx.store.getPaymentMethod(ctx.b.id, foreign!)).toStrictEqual(theirs);
    // The customer id stays: the processor's customer is gone, the member's link to it is not cleared.
    expect((await ctx.store.getMember(ctx.a.id, ann!))?.processorCustomerId).toBe('cus_1');
    expect(await ctx.store.removePaymentMethodsOfCustomer(ctx.a.id, 'cus_1')).toEqual([]);
    expect(await ctx.store.removePaymentMethodsOfCustomer(ctx.a.id, 'cus_none')).toEqual([]);
  });
}
