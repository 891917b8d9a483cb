/**
 * A renewal or instalment that failed, paid now with the member there (issue 28): the way back
 * for a payment the bank would not take without them (`authentication_required`: 3-D Secure on a
 * renewal). POST /memberships/{id}/pay charges what the membership owes on the saved card as a
 * sign-up is charged, so the bank may ask its question in the browser (202, as a sign-up's); POST
 * /memberships/{id}/pay/confirm then asks the processor how the payment ended, never the browser.
 * Either way the charge is recorded as the billing run records one (billing/renewals.ts): paid,
 * the membership's next period; refused, a failed invoice and a `paymentFailed` attempt.
 */
import type { RequiresAction } from '../payments/processor';
import {
  CLAIMED_ELSEWHERE,
  dueCharge,
  failedCharge,
  isDue,
  recordCharge,
  renewalKey,
  underClaim,
  type ChargeOutcome,
  type DueCharge,
  type RenewalDeps,
} from '../billing/renewals';
import type { MembershipRecord, SiteRecord } from '../store/records';
import { MemberError } from './errors';
import { askProcessor, notYourPayment } from './plan-signup';

/** What the service writes on a payment it makes for a due membership, so its confirmation finds it again. */
const payNowMetadata = (site: SiteRecord, membership: MembershipRecord) => ({
  svc_site: String(site.id), svc_member: String(membership.memberId), svc_membership: String(membership.id), svc_due: String(membership.billingPeriodEnd),
});

/** `work` on the member's membership under its claim, if it is theirs and owes a payment now. */
async function onDue<T>(deps: RenewalDeps, site: SiteRecord, memberId: number, membershipId: number, work: (membership: MembershipRecord) => Promise<T>): Promise<T> {
  const mine = (await deps.store.listMembershipsOfMember(site.id, memberId)).find((m) => m.id === membershipId);
  if (!mine) throw MemberError.of(404, 'notFound', 'You have no membership with that id', 'id');
  const answer = await underClaim(deps, site, mine, async (membership) => {
    if (!isDue(membership, deps.clock())) throw MemberError.of(409, 'notDue', 'This membership owes no payment now', 'id');
    return work(membership);
  });
  if (answer === CLAIMED_ELSEWHERE || answer === undefined) {
    throw MemberError.of(409, 'paymentPending', 'A payment of this membership is being taken right now: look again in a moment', 'id');
  }
  return answer;
}

/**
 * Charges what the membership owes now, with the member there. Answers the membership as it then
 * is, or the bank's question (nothing recorded until the confirmation). A refusal is recorded as
 * a failed attempt, and is a 402.
 */
export async function payNow(deps: RenewalDeps, site: SiteRecord, memberId: number, membershipId: number): Promise<MembershipRecord | RequiresAction> {
  return onDue(deps, site, memberId, membershipId, async (membership) => {
    const due = await dueCharge(deps, site, membership);
    if (!due) throw MemberError.of(409, 'notDue', 'This membership owes no payment here', 'id');
    if (!due.card) throw MemberError.of(400, 'invalidField', 'Save a card first: there is none to pay with', 'paymentMethodId');
    // A key of its own: the billing run's for the same attempt charged without the member.
    const request = {
      amountCents: due.amountCents, currency: due.currency, description: due.description,
      idempotencyKey: `${renewalKey(site, membership, due)}:on-session`, metadata: payNowMetadata(site, membership),
    };
    let outcome: ChargeOutcome;
    try {
      const paid = due.processor.chargeOnSession
        ? await due.processor.chargeOnSession(due.customerId, due.card.processorId, request)
        : await due.processor.charge(due.customerId, due.card.processorId, request);
      if ('intentId' in paid) return paid;
      outcome = { paid: true, ...paid };
    } catch (error) {
      outcome = failedCharge(error);
    }
    return settle(deps, site, membership, due, outcome, 'paymentMethodId');
  });
}

/**
 * How the payment the bank asked about ended, as the processor says: recorded as payNow records
 * a charge. Confirming again once it is recorded answers the membership as it is.
 */
export async function confirmPayNow(deps: RenewalDeps, site: SiteRecord, memberId: number, membershipId: number, intentId: string): Promise<MembershipRecord> {
  const outcome = await askProcessor(deps.processorFor?.(site) ?? deps.processor, intentId);
  const meta = outcome.metadata;
  if (meta.svc_site !== String(site.id) || meta.svc_member !== String(memberId) || meta.svc_membership !== String(membershipId)) throw notYourPayment();
  const mine = (await deps.store.listMembershipsOfMember(site.id, memberId)).find((m) => m.id === membershipId);
  if (!mine) throw notYourPayment();
  // The due date it paid for is behind the membership: recorded already (an earlier confirmation).
  if (String(mine.billingPeriodEnd) !== meta.svc_due) return mine;
  return onDue(deps, site, memberId, membershipId, async (membership) => {
    if (String(membership.billingPeriodEnd) !== meta.svc_due) return membership;
    if (outcome.status === 'requiresAction') {
      throw MemberError.of(409, 'paymentPending', 'The payment still waits for your bank: confirm it in the window your bank opened', 'intentId');
    }
    const invoices = await deps.store.listInvoicesOfMember(site.id, memberId);
    if (outcome.status === 'failed' && invoices.some((i) => i.processorInvoiceId === intentId)) {
      throw MemberError.of(402, 'paymentDeclined', 'Your bank did not confirm the payment.', 'intentId');
    }
    const due = await dueCharge(deps, site, membership);
    if (!due) throw MemberError.of(409, 'notDue', 'This membership owes no payment here', 'id');
    const settled: ChargeOutcome =
      outcome.status === 'succeeded' && outcome.receipt
        ? { paid: true, ...outcome.receipt }
        : { paid: false, chargeId: `${intentId}:declined`, invoiceId: intentId, reason: 'authentication_required' };
    return settle(deps, site, membership, due, settled, 'intentId');
  });
}

/** The charge recorded as the billing run records one; a refusal is then a 402. */
async function settle(
  deps: RenewalDeps,
  site: SiteRecord,
  membership: MembershipRecord,
  due: DueCharge,
  outcome: ChargeOutcome,
  path: 'paymentMethodId' | 'intentId',
): Promise<MembershipRecord> {
  await recordCharge(deps, site, membership, due, outcome);
  if (!outcome.paid) {
    throw MemberError.of(402, 'paymentDeclined', outcome.reason === 'authentication_required' ? 'Your bank did not confirm the payment.' : 'Your card was declined.', path);
  }
  return (await deps.store.listMembershipsOfMember(site.id, membership.memberId)).find((m) => m.id === membership.id)!;
}
