/**
 * What the service would have written for a seeded membership, had its member signed up through
 * the member API (POST /memberships, plan-signup.ts) and the billing run (billing/renewals.ts)
 * charged it ever since: the membership as it stands now, and every charge, paid or failed, each
 * of which is an invoice in the ledger. Amounts come from quotePlan and dates from
 * membership-terms.ts, the functions those two use, so the seed never works out a price or a date
 * of its own.
 *
 * The billing run is taken to have run on time: a charge is taken when it falls due, a failed one
 * is tried again a day later (RETRY_AFTER_MS), and the MAX_ATTEMPTS-th failure ends the
 * membership. A membership whose charges fail is therefore in that state only for the few days of
 * its retries; earlier failures have ended theirs.
 */
import { advanceMultiPayment, newMembershipTerms, renewSubscription, type MembershipTerms } from '../billing/membership-terms';
import { quotePlan, type ChargeAmounts } from '../billing/quote';
import { chargeDescription, MAX_ATTEMPTS, RETRY_AFTER_MS } from '../billing/renewals';
import type { EpochMs, NewMembership, PlanRecord } from '../store/records';

export interface MembershipStory {
  plan: PlanRecord;
  createdAt: EpochMs;
  now: EpochMs;
  /**
   * When the member ended the membership. A subscription is cancelled at the end of the period
   * it falls in (POST /memberships/{id}/cancel); any other membership ends then.
   */
  cancelledAt?: EpochMs;
  /**
   * A subscription the member cancels during the period running now: where in that period, as a
   * fraction of the time from its start to `now`.
   */
  cancelsInCurrentPeriod?: number;
  /** Every charge at or after this time is declined (the member's card is one that fails). */
  declinedFrom?: EpochMs;
}

/** One charge attempt: one invoice. */
export interface SeededCharge {
  at: EpochMs;
  amounts: ChargeAmounts;
  currency: string;
  description: string;
  status: 'paid' | 'failed';
  /** The sign-up's charge (the conversion's order); the others are renewals and instalments. */
  signUp: boolean;
  /** A failed renewal or instalment: which attempt at it, from 1. */
  attempt?: number;
}

export interface MembershipHistory {
  membership: Omit<NewMembership, 'siteId' | 'memberId'>;
  /** In the order they were made. */
  charges: SeededCharge[];
  /** When the member asked to cancel (a `cancellation` event), if they did while it ran. */
  cancellationAt?: EpochMs;
  /** When the last failed attempt ended the membership (a `cancellation` event, reason `paymentFailed`). */
  endedByFailuresAt?: EpochMs;
}

type RecurringPlan = Extract<PlanRecord, { type: 'subscription' | 'multiPayment' }>;

/** The membership and its charges, from sign-up until `now`. */
export function membershipHistory(story: MembershipStory): MembershipHistory {
  const { plan, createdAt, now } = story;
  const terms = newMembershipTerms(plan, createdAt);
  const membership: MembershipHistory['membership'] = { planId: plan.id, status: 'active', createdAt, paymentFailure: false };
  if (terms.expiresAt !== undefined) membership.expiresAt = terms.expiresAt;
  const history: MembershipHistory = { membership, charges: [] };
  if (plan.type !== 'free') {
    // POST /memberships charges what is due now; nothing is due at the start of a trial.
    const { dueNow } = amountsOf(plan, createdAt);
    if (dueNow.grandTotalCents > 0) {
      history.charges.push({ at: createdAt, amounts: dueNow, currency: plan.billing.currency, description: plan.name, status: 'paid', signUp: true });
    }
  }
  if (plan.type === 'subscription' || plan.type === 'multiPayment') return recurring(story, plan, terms, history);

  // Free and one-time plans: nothing more is charged; access ends at expiry, or when cancelled.
  if (membership.expiresAt !== undefined && membership.expiresAt <= now) membership.status = 'expired';
  else if (story.cancelledAt !== undefined) {
    membership.status = 'cancelled';
    history.cancellationAt = story.cancelledAt;
  }
  return history;
}

/** Renewals or instalments, as the billing run takes them when they fall due. */
function recurring(story: MembershipStory, plan: RecurringPlan, first: MembershipTerms, history: MembershipHistory): MembershipHistory {
  const { now, cancelledAt, declinedFrom } = story;
  const { membership } = history;
  let terms = first;
  let periodStart = story.createdAt;
  for (;;) {
    const due = terms.billingPeriodEnd;
    if (due === undefined || due > now) break;
    if (plan.type === 'subscription' && cancelledAt !== undefined && cancelledAt <= due) {
      // Cancelled at period end: never charged again, and it ended when the period did.
      return ended(history, { status: 'cancelled', cancelsAt: due, cancellationAt: cancelledAt });
    }
    // Access that ended first is not billed (the run expires and ends memberships before it charges).
    if (plan.type === 'multiPayment') {
      if (membership.expiresAt !== undefined && membership.expiresAt <= due) break;
      if (cancelledAt !== undefined && cancelledAt <= due) break;
    }
    const amounts = amountsOf(plan, due).recurring;
    const { currency } = plan.billing;
    const description = chargeDescription(plan, terms);
    if (declinedFrom !== undefined && due >= declinedFrom) {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const at = due + (attempt - 1) * RETRY_AFTER_MS;
        if (at > now) break;
        history.charges.push({ at, amounts, currency, description, status: 'failed', signUp: false, attempt });
        if (attempt === MAX_ATTEMPTS) {
          history.endedByFailuresAt = at;
          return ended(history, { status: 'cancelled', paymentFailure: true, ...paid(terms) });
        }
      }
      // Retried a day after each failure, access kept meanwhile.
      Object.assign(membership, { paymentFailure: true, billingPeriodEnd: due, ...paid(terms) });
      return history;
    }
    history.charges.push({ at: due, amounts, currency, description, status: 'paid', signUp: false });
    terms = plan.type === 'subscription' ? renewSubscription(terms, plan) : advanceMultiPayment(terms, plan);
    periodStart = due;
  }

  Object.assign(membership, paid(terms));
  if (membership.expiresAt !== undefined && membership.expiresAt <= now) return ended(history, { status: 'expired' });
  if (plan.type === 'multiPayment' && cancelledAt !== undefined) return ended(history, { status: 'cancelled', cancellationAt: cancelledAt });
  if (terms.billingPeriodEnd !== undefined) membership.billingPeriodEnd = terms.billingPeriodEnd;
  if (plan.type === 'subscription') {
    const askedAt =
      cancelledAt ?? (story.cancelsInCurrentPeriod === undefined ? undefined : periodStart + Math.floor((now - periodStart) * story.cancelsInCurrentPeriod));
    if (askedAt !== undefined) {
      // Asked during the period running now: it stays active until that period ends.
      membership.cancelsAt = terms.billingPeriodEnd!;
      history.cancellationAt = askedAt;
    }
  }
  return history;
}

/** A membership that has ended has no next charge (the run clears it as it ends or expires one). */
function ended(
  history: MembershipHistory,
  end: { status: 'cancelled' | 'expired'; cancelsAt?: EpochMs; cancellationAt?: EpochMs; paymentFailure?: boolean; paymentsMade?: number },
): MembershipHistory {
  const { cancellationAt, ...patch } = end;
  const { billingPeriodEnd: _none, ...rest } = history.membership;
  history.membership = { ...rest, ...patch };
  if (cancellationAt !== undefined) history.cancellationAt = cancellationAt;
  return history;
}

/**
 * What the plan charges at sign-up and at each renewal or instalment: quotePlan's amounts, which
 * depend on the plan alone (prices, fee, tax; no proration), so they are asked once per plan.
 */
const planAmounts = new WeakMap<PlanRecord, { dueNow: ChargeAmounts; recurring: ChargeAmounts }>();
export function amountsOf(plan: Exclude<PlanRecord, { type: 'free' }>, at: EpochMs): { dueNow: ChargeAmounts; recurring: ChargeAmounts } {
  let amounts = planAmounts.get(plan);
  if (!amounts) {
    const { dueNow, recurring } = quotePlan(plan, at);
    amounts = {
      dueNow,
      recurring: recurring
        ? { subTotalCents: recurring.subTotalCents, taxCents: recurring.taxCents, grandTotalCents: recurring.amountCents }
        : { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 },
    };
    planAmounts.set(plan, amounts);
  }
  return amounts;
}

const paid = (terms: MembershipTerms) => (terms.paymentsMade === undefined ? {} : { paymentsMade: terms.paymentsMade });
