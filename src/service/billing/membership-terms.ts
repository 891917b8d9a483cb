/**
 * The dates of a new membership, and how they move when a later payment succeeds. The rules
 * (docs/decisions/0013-plan-pricing.md):
 *
 * - Access ends under the plan's PlanExpiration, counted from sign-up (a trial included);
 *   subscriptions never expire, they are cancelled.
 * - `billingPeriodEnd` is when the next charge is due. A trial ends the first period: the first
 *   charge is at its end. Without a trial the first charge is at sign-up.
 * - A subscription period started by a charge at `t` runs one interval, or with a fixed billing
 *   date until the next fixed date after `t` (no proration: the first period may be short, later
 *   ones are whole intervals from one fixed date to the next).
 * - Multi-payment instalments are due one interval apart from the first charge, whenever each
 *   one was actually paid; the last one removes `billingPeriodEnd`.
 * - Schedules keep their day of the month: 31 Jan, 28 Feb, 31 Mar (see calendar.ts).
 */
import type { MultiPaymentBilling, SubscriptionBilling } from '../../contract/admin';
import type { EpochMs, MembershipRecord, NewMembership, PlanRecord } from '../store/records';
import { addInterval, expiryFrom, nextFixedBillingDate } from './calendar';

export type MembershipTerms = Pick<NewMembership, 'status' | 'createdAt' | 'expiresAt' | 'billingPeriodEnd' | 'paymentFailure'> & {
  /** Multi-payment only: instalments paid so far (0 during a trial). */
  paymentsMade?: number;
};

type MultiPaymentPlan = Extract<PlanRecord, { type: 'multiPayment' }>;
type SubscriptionPlan = Extract<PlanRecord, { type: 'subscription' }>;

export function newMembershipTerms(plan: PlanRecord, now: EpochMs): MembershipTerms {
  const terms: MembershipTerms = { status: 'active', createdAt: now, paymentFailure: false };
  if (plan.type === 'subscription') {
    terms.billingPeriodEnd = plan.billing.trialPeriodDays ? firstChargeAt(plan.billing, now) : subscriptionPeriodEnd(plan.billing, now);
    return terms;
  }
  const expiresAt = expiryFrom(plan.expiration, now);
  if (expiresAt !== undefined) terms.expiresAt = expiresAt;
  if (plan.type === 'multiPayment') {
    const inTrial = Boolean(plan.billing.trialPeriodDays);
    terms.paymentsMade = inTrial ? 0 : 1;
    const due = instalmentDue(plan.billing, now, terms.paymentsMade);
    if (due !== undefined) terms.billingPeriodEnd = due;
  }
  return terms;
}

/** True while a membership is in its trial: the charge due is its first, at the trial's end (none made yet). */
export function inTrial(billing: MultiPaymentBilling | SubscriptionBilling, m: Pick<MembershipTerms, 'createdAt' | 'billingPeriodEnd' | 'paymentsMade'>): boolean {
  return !!billing.trialPeriodDays && m.billingPeriodEnd === firstChargeAt(billing, m.createdAt) && !m.paymentsMade;
}

/** When the first recurring charge is taken: at the end of the trial, else at sign-up. */
export function firstChargeAt(billing: MultiPaymentBilling | SubscriptionBilling, signedUpAt: EpochMs): EpochMs {
  return billing.trialPeriodDays ? addInterval(signedUpAt, billing.trialPeriodDays, 'day') : signedUpAt;
}

/** The terms after the instalment due at `billingPeriodEnd` was paid. */
export function advanceMultiPayment(terms: MembershipTerms, plan: MultiPaymentPlan): MembershipTerms {
  const paid = terms.paymentsMade ?? 0;
  if (paid >= plan.billing.paymentCountRequired) throw new RangeError('the plan is already paid off');
  const { billingPeriodEnd: _previous, ...rest } = terms;
  const next: MembershipTerms = { ...rest, paymentsMade: paid + 1, paymentFailure: false };
  const due = instalmentDue(plan.billing, terms.createdAt, paid + 1);
  if (due !== undefined) next.billingPeriodEnd = due;
  return next;
}

/** The terms after the charge due at `billingPeriodEnd` renewed the subscription for a period. */
export function renewSubscription(terms: MembershipTerms, plan: SubscriptionPlan): MembershipTerms {
  if (terms.billingPeriodEnd === undefined) throw new RangeError('a subscription always has a billing period end');
  const { interval, billingDate } = plan.billing;
  const chargedAt = terms.billingPeriodEnd;
  const start = firstChargeAt(plan.billing, terms.createdAt);
  // After the first period, whole intervals on the schedule's day: the fixed day, or the day of the first charge.
  const end =
    billingDate && chargedAt === start
      ? nextFixedBillingDate(chargedAt, billingDate)
      : addInterval(chargedAt, interval.count, interval.unit, billingDate?.day ?? new Date(start).getUTCDate());
  return { ...terms, billingPeriodEnd: end, paymentFailure: false };
}

/** End of the period a charge at `chargedAt` pays for, when that charge starts the schedule. */
export function subscriptionPeriodEnd(billing: SubscriptionBilling, chargedAt: EpochMs): EpochMs {
  return billing.billingDate
    ? nextFixedBillingDate(chargedAt, billing.billingDate)
    : addInterval(chargedAt, billing.interval.count, billing.interval.unit);
}

/** When the instalment after `paid` ones is due; undefined once all are paid. */
function instalmentDue(billing: MultiPaymentBilling, signedUpAt: EpochMs, paid: number): EpochMs | undefined {
  if (paid >= billing.paymentCountRequired) return undefined;
  const first = firstChargeAt(billing, signedUpAt);
  // Counted from the first charge, so a late payment does not move the schedule.
  return paid === 0 ? first : addInterval(first, paid * billing.interval.count, billing.interval.unit);
}

/**
 * A membership still stored as `active` past its expiry date is `expired`: the widget grants
 * content by status (docs/decisions/0012), and no background job has to run on time (the
 * billing run stores it so later, for the Admin API).
 */
export function membershipStatus(m: MembershipRecord, now: EpochMs): MembershipRecord['status'] {
  return m.status === 'active' && m.expiresAt !== undefined && m.expiresAt <= now ? 'expired' : m.status;
}
