/**
 * A member changing a running subscription to another plan (POST /memberships/{id}/change), by
 * the rules of docs/decisions/0036-changing-plans.md and the quote of billing/plan-change.ts:
 * - an upgrade is now: the quote's due amount (the new period less the unused days' credit, with
 *   the new plan's tax) is charged on the saved card, or a new one; paid, the membership moves to
 *   the new plan at its price now, a new period starting now, with its invoice and receipt. A
 *   decline changes nothing but the ledger (a failed invoice) and answers 402;
 * - during a trial it is now and free: the membership moves, the trial's end stays;
 * - a downgrade waits for the period's end: the membership holds `nextPlanId`, which the renewal
 *   charges and moves it to (billing/renewals.ts).
 * Each records a `planChanged` event. A change is made under the membership's renewal claim, so a
 * renewal and a change (or two changes) never cross.
 */
import { quotePlanChange, NotChangeableError, type PlanChangeQuote } from '../billing/plan-change';
import { receiptMails } from '../billing/notices';
import { asJoined, CLAIMED_ELSEWHERE, underClaim } from '../billing/renewals';
import { PaymentDeclinedError } from '../payments/processor';
import type { MemberRecord, MembershipRecord, NewInvoice, PlanRecord, SiteRecord } from '../store/records';
import { MemberError } from './errors';
import { cardPathOf, saveCard, type BillingDeps, type Payment } from './plan-signup';

/** The quote of changing the member's membership to `target`: 409 `notChangeable` where the rules refuse it. */
export function changeQuote(membership: MembershipRecord, held: PlanRecord, target: PlanRecord, now: number): PlanChangeQuote {
  const current = held.type === 'subscription' ? asJoined(held, membership) : held;
  try {
    return quotePlanChange(membership, current, target, now);
  } catch (error) {
    if (error instanceof NotChangeableError) throw MemberError.of(409, 'notChangeable', error.message, 'plan');
    throw error;
  }
}

/** Makes the change; answers the membership after it (on the new plan, or holding the downgrade). */
export async function changePlan(
  deps: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  membershipId: number,
  target: PlanRecord,
  payment: Payment | undefined,
): Promise<MembershipRecord> {
  const done = await underClaim(deps, site, { id: membershipId, memberId: member.id }, (membership) => changeClaimed(deps, site, member, membership, target, payment));
  if (done === CLAIMED_ELSEWHERE) throw MemberError.of(409, 'paymentPending', 'The membership is being billed or changed in another request: try again in a moment', 'id');
  if (!done) throw MemberError.of(404, 'notFound', 'You have no membership with that id', 'id');
  return done;
}

async function changeClaimed(
  deps: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  membership: MembershipRecord,
  target: PlanRecord,
  payment: Payment | undefined,
): Promise<MembershipRecord> {
  const { store, clock, processor } = deps;
  const now = clock();
  const held = (await store.getPlan(site.id, membership.planId))!;
  const quote = changeQuote(membership, held, target, now);
  const event = (details: Record<string, unknown>) =>
    store.createMemberEvents([{ siteId: site.id, memberId: member.id, eventType: 'planChanged', createdAt: now, details: { membershipId: membership.id, fromPlanId: held.id, toPlanId: target.id, ...details } }]);
  const update = async (patch: Parameters<typeof store.updateMembership>[2]) => (await store.updateMembership(site.id, membership.id, patch))!;

  if (quote.when === 'periodEnd') {
    // Choosing a plan is choosing to go on: a cancellation at the period's end is lifted.
    const after = await update({ nextPlanId: target.id, cancelsAt: null });
    await event({ when: 'periodEnd' });
    return after;
  }
  let invoice: NewInvoice | undefined;
  if (quote.dueNow.grandTotalCents > 0) {
    const card = payment ? await saveCard(deps, site, member, payment) : await store.getPaymentMethod(site.id, member.id);
    if (!card) throw MemberError.of(400, 'invalidField', 'Enter a card to pay with', cardPathOf(processor));
    const customerId = (await store.getMember(site.id, member.id))!.processorCustomerId!;
    const description = `${target.name} (from ${held.name})`;
    const base = { siteId: site.id, memberId: member.id, planId: target.id, membershipId: membership.id, currency: quote.currency, description, createdAt: now };
    const amounts = { subTotalCents: quote.dueNow.subTotalCents, taxCents: quote.dueNow.taxCents, totalCents: quote.dueNow.grandTotalCents };
    try {
      // One charge per membership, plan change and period: asked again after a lost answer, the same charge.
      const idempotencyKey = `plan-change:${site.id}:${membership.id}:${target.id}:${membership.billingPeriodEnd}:${card.processorId}`;
      const receipt = await processor.charge(customerId, card.processorId, { amountCents: amounts.totalCents, currency: quote.currency, description, idempotencyKey });
      invoice = { ...base, ...amounts, processorInvoiceId: receipt.invoiceId, processorChargeId: receipt.chargeId, status: 'paid' };
    } catch (error) {
      if (!(error instanceof PaymentDeclinedError)) throw error;
      await store.createInvoice({ ...base, ...amounts, processorInvoiceId: error.invoiceId, processorChargeId: error.chargeId, status: 'failed' });
      throw MemberError.of(402, 'paymentDeclined', error.message, cardPathOf(processor));
    }
    await store.createInvoice(invoice, receiptMails(site, member, target, invoice));
  }
  // Now: on the new plan at its price now (no kept billing), no downgrade waiting, not cancelled;
  // an upgrade starts a new period (longer when the credit was worth more than it), a trial keeps its end.
  const after = await update({ planId: target.id, billing: null, nextPlanId: null, cancelsAt: null, paymentFailure: false, billingPeriodEnd: quote.next.at });
  await event({ when: 'now', ...(invoice && { invoiceId: invoice.processorInvoiceId }) });
  return after;
}
