/**
 * A member changing a running subscription to another plan (POST /memberships/{id}/change), by
 * the rules of docs/decisions/0036-changing-plans.md and the quote of billing/plan-change.ts:
 * - an upgrade is now: the quote's due amount (the new period less the unused days' credit, with
 *   the new plan's tax) is charged on the saved card, or a new one, with the member there (the bank
 *   may ask its question in the browser first: 202, then confirmPlanChange); paid, the membership
 *   moves to the new plan at its price now, a new period starting now, with its invoice and
 *   receipt. A decline changes nothing but the ledger (a failed invoice) and answers 402;
 * - during a trial it is now and free: the membership moves, the trial's end stays;
 * - a downgrade waits for the period's end: the membership holds `nextPlanId`, which the renewal
 *   charges and moves it to (billing/renewals.ts).
 * Each records a `planChanged` event. A change is made under the membership's renewal claim, so a
 * renewal and a change (or two changes) never cross.
 */
import { quotePlanChange, NotChangeableError, type PlanChangeQuote } from '../billing/plan-change';
import { receiptMails } from '../billing/notices';
import { asJoined, CLAIMED_ELSEWHERE, underClaim } from '../billing/renewals';
import { PaymentDeclinedError, type ChargeReceipt, type RequiresAction } from '../payments/processor';
import type { MemberRecord, MembershipRecord, NewInvoice, PlanRecord, SiteRecord } from '../store/records';
import { MemberError } from './errors';
import { askProcessor, cardPathOf, notYourPayment, saveCard, type BillingDeps, type Payment } from './plan-signup';

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

/**
 * Makes the change; answers the membership after it (on the new plan, or holding the downgrade),
 * or the bank's question about an upgrade's payment (3-D Secure: nothing changes until
 * confirmPlanChange).
 */
export async function changePlan(
  deps: BillingDeps,
  site: SiteRecord,
  member: MemberRecord,
  membershipId: number,
  target: PlanRecord,
  payment: Payment | undefined,
): Promise<MembershipRecord | RequiresAction> {
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
): Promise<MembershipRecord | RequiresAction> {
  const { store, clock, processor } = deps;
  const now = clock();
  const held = (await store.getPlan(site.id, membership.planId))!;
  const quote = changeQuote(membership, held, target, now);
  if (quote.when === 'periodEnd') {
    // Choosing a plan is choosing to go on: a cancellation at the period's end is lifted.
    const after = (await store.updateMembership(site.id, membership.id, { nextPlanId: target.id, cancelsAt: null }))!;
    await changedEvent(deps, site, member, membership, held, target, { when: 'periodEnd' });
    return after;
  }
  if (quote.dueNow.grandTotalCents === 0) return applyNow(deps, site, member, membership, held, target, quote, undefined);
  const card = payment ? await saveCard(deps, site, member, payment) : await store.getPaymentMethod(site.id, member.id);
  if (!card) throw MemberError.of(400, 'invalidField', 'Enter a card to pay with', cardPathOf(processor));
  const customerId = (await store.getMember(site.id, member.id))!.processorCustomerId!;
  // One charge per membership, plan change, period and card: asked again after a lost answer, the same charge.
  const idempotencyKey = `plan-change:${site.id}:${membership.id}:${target.id}:${membership.billingPeriodEnd}:${card.processorId}`;
  const request = { amountCents: quote.dueNow.grandTotalCents, currency: quote.currency, description: describe(held, target), idempotencyKey };
  let receipt: ChargeReceipt;
  try {
    // The member is here: a processor that can ask the bank's questions in the browser does (3-D Secure).
    const paid = processor.chargeOnSession
      ? await processor.chargeOnSession(customerId, card.processorId, { ...request, metadata: changeMetadata(site, membership, target, now) })
      : await processor.charge(customerId, card.processorId, request);
    if ('intentId' in paid) return paid;
    receipt = paid;
  } catch (error) {
    if (!(error instanceof PaymentDeclinedError)) throw error;
    await recordFailed(deps, site, member, membership, held, target, quote, error.invoiceId, error.chargeId, now);
    throw MemberError.of(402, 'paymentDeclined', error.message, cardPathOf(processor));
  }
  return applyNow(deps, site, member, membership, held, target, quote, receipt);
}

/**
 * An upgrade whose payment the bank wanted confirmed (POST /memberships/{id}/change/confirm): the
 * service asks the processor how it ended (never the browser), checks it is this member's change
 * of this membership, and makes the change only if it was paid, at the price the quote had when
 * it was charged. Confirmed again, the same answer: the membership as it is, or the refusal.
 */
export async function confirmPlanChange(deps: BillingDeps, site: SiteRecord, member: MemberRecord, membershipId: number, intentId: string): Promise<MembershipRecord> {
  const { store, processor } = deps;
  const outcome = await askProcessor(processor, intentId);
  const meta = outcome.metadata;
  if (meta.svc_site !== String(site.id) || meta.svc_member !== String(member.id) || meta.svc_membership !== String(membershipId) || !meta.svc_change_to) throw notYourPayment();
  const target = await store.getPlan(site.id, Number(meta.svc_change_to));
  if (!target) throw notYourPayment();
  const done = await underClaim(deps, site, { id: membershipId, memberId: member.id }, async (membership) => {
    const refused = () => MemberError.of(402, 'paymentDeclined', 'Your bank did not confirm the payment.', 'intentId');
    const recorded = (await store.listInvoicesOfMember(site.id, member.id)).find((i) => i.processorInvoiceId === (outcome.receipt?.invoiceId ?? intentId));
    if (recorded?.status === 'paid') return membership;
    if (recorded) throw refused();
    if (outcome.status === 'requiresAction') {
      throw MemberError.of(409, 'paymentPending', 'The payment still waits for your bank: confirm it in the window your bank opened', 'intentId');
    }
    const held = (await store.getPlan(site.id, membership.planId))!;
    const pricedAt = Number(meta.svc_at);
    const quote = changeQuote(membership, held, target, pricedAt);
    if (outcome.status === 'failed' || !outcome.receipt) {
      await recordFailed(deps, site, member, membership, held, target, quote, intentId, `${intentId}:declined`, deps.clock());
      throw refused();
    }
    return applyNow(deps, site, member, membership, held, target, quote, outcome.receipt);
  });
  if (done === CLAIMED_ELSEWHERE) throw MemberError.of(409, 'paymentPending', 'The membership is being billed or changed in another request: try again in a moment', 'id');
  if (!done) throw notYourPayment();
  return done;
}

/** What the service writes on an upgrade's payment, so its confirmation finds the change, and its price, again. */
const changeMetadata = (site: SiteRecord, membership: MembershipRecord, target: PlanRecord, now: number) => ({
  svc_site: String(site.id), svc_member: String(membership.memberId), svc_membership: String(membership.id), svc_change_to: String(target.id), svc_at: String(now),
});

const describe = (held: PlanRecord, target: PlanRecord) => `${target.name} (from ${held.name})`;

/** The ledger's line for an upgrade's charge (paid or failed), priced by the quote. */
function upgradeInvoice(site: SiteRecord, member: MemberRecord, membership: MembershipRecord, held: PlanRecord, target: PlanRecord, quote: PlanChangeQuote, createdAt: number) {
  return {
    siteId: site.id, memberId: member.id, planId: target.id, membershipId: membership.id, currency: quote.currency, description: describe(held, target), createdAt,
    subTotalCents: quote.dueNow.subTotalCents, taxCents: quote.dueNow.taxCents, totalCents: quote.dueNow.grandTotalCents,
  };
}

/** A refused upgrade changes nothing but the ledger: a failed invoice. */
async function recordFailed(
  { store }: BillingDeps, site: SiteRecord, member: MemberRecord, membership: MembershipRecord, held: PlanRecord, target: PlanRecord,
  quote: PlanChangeQuote, processorInvoiceId: string, processorChargeId: string, now: number,
): Promise<void> {
  await store.createInvoice({ ...upgradeInvoice(site, member, membership, held, target, quote, now), processorInvoiceId, processorChargeId, status: 'failed' });
}

/**
 * The change made now: its invoice and receipt when it was paid, then the membership on the new
 * plan at its price now (no kept billing), no downgrade waiting, not cancelled; an upgrade starts a
 * new period (longer when the credit was worth more than it), a trial keeps its end.
 */
async function applyNow(
  deps: BillingDeps, site: SiteRecord, member: MemberRecord, membership: MembershipRecord, held: PlanRecord, target: PlanRecord,
  quote: PlanChangeQuote, receipt: ChargeReceipt | undefined,
): Promise<MembershipRecord> {
  const { store, clock } = deps;
  if (receipt) {
    const invoice: NewInvoice = { ...upgradeInvoice(site, member, membership, held, target, quote, clock()), processorInvoiceId: receipt.invoiceId, processorChargeId: receipt.chargeId, status: 'paid' };
    await store.createInvoice(invoice, receiptMails(site, member, target, invoice));
  }
  const after = (await store.updateMembership(site.id, membership.id, { planId: target.id, billing: null, nextPlanId: null, cancelsAt: null, paymentFailure: false, billingPeriodEnd: quote.next.at }))!;
  await changedEvent(deps, site, member, membership, held, target, { when: 'now', ...(receipt && { invoiceId: receipt.invoiceId }) });
  return after;
}

const changedEvent = ({ store, clock }: BillingDeps, site: SiteRecord, member: MemberRecord, membership: MembershipRecord, held: PlanRecord, target: PlanRecord, details: Record<string, unknown>) =>
  store.createMemberEvents([{ siteId: site.id, memberId: member.id, eventType: 'planChanged', createdAt: clock(), details: { membershipId: membership.id, fromPlanId: held.id, toPlanId: target.id, ...details } }]);
