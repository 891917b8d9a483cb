/**
 * Monthly recurring revenue, as the overview states it on the page: for each active membership
 * that still brings money in (a subscription, or an instalment plan with instalments left), what
 * it pays normalised to a month from its interval: the price it joined at when its plan's has
 * changed since (the API's `joinedBilling`, what renewals charge), else its plan's price now.
 * Comped memberships (`comp: true`) and cancelled or expired ones bring nothing. One amount per
 * currency: amounts in different currencies are never added.
 */
import type { Interval, Membership, MultiPaymentBilling, OneTimePaymentBilling, Plan, SubscriptionBilling } from '../../contract/admin';

/** Average days in a month (365.25 / 12) and weeks in a month (that / 7, to three places). */
const DAYS_PER_MONTH = 30.4375;
const WEEKS_PER_MONTH = 4.348;

/** What one payment every `interval` is worth a month. */
export function monthlyFactor({ count, unit }: Interval): number {
  switch (unit) {
    case 'day':
      return DAYS_PER_MONTH / count;
    case 'week':
      return WEEKS_PER_MONTH / count;
    case 'month':
      return 1 / count;
    case 'year':
      return 1 / 12 / count;
  }
}

/**
 * Whether a membership brings recurring money: active, not comped, and a subscription or an
 * instalment plan that is not paid off (the API names its next charge, `billing.billingPeriodEnd`,
 * only while instalments are left).
 */
export function isRecurring(membership: Membership): boolean {
  if (membership.status !== 'active' || membership.comp) return false;
  if (membership.type === 'subscription') return true;
  return membership.type === 'multiPayment' && membership.billing !== undefined;
}

/** What one payment of `billing` every interval is worth a month, in its currency (major units). */
export const monthlyAmount = ({ price, currency, interval }: SubscriptionBilling | MultiPaymentBilling): { currency: string; amount: number } => ({
  currency,
  amount: price * monthlyFactor(interval),
});

/** Whether a billing charges every interval (a subscription's or an instalment plan's), not once. */
export const isRecurringBilling = (billing: OneTimePaymentBilling | MultiPaymentBilling | SubscriptionBilling): billing is MultiPaymentBilling | SubscriptionBilling =>
  'interval' in billing;

/** The billing a recurring membership pays: the one it joined at, when the API names one with an interval; else undefined (its plan's). */
export function joinedRecurringBilling(membership: Membership): SubscriptionBilling | MultiPaymentBilling | undefined {
  const joined = membership.joinedBilling;
  return joined && isRecurringBilling(joined) ? joined : undefined;
}

export interface MrrLine {
  currency: string;
  /** In the currency's major unit (dollars, not cents), unrounded. */
  amount: number;
  subscriptions: number;
  instalmentPlans: number;
}

/** Recurring memberships counted per plan, as `PlanTally` (./plan-tally) gives them: those that pay their plan's price now. */
export interface RecurringCounts {
  subscriptions: number;
  instalmentPlans: number;
}

/** Adds `more` to the line of its currency in `lines`. */
export function addToLine(lines: Map<string, MrrLine>, more: MrrLine): void {
  const line = lines.get(more.currency) ?? { currency: more.currency, amount: 0, subscriptions: 0, instalmentPlans: 0 };
  line.amount += more.amount;
  line.subscriptions += more.subscriptions;
  line.instalmentPlans += more.instalmentPlans;
  lines.set(more.currency, line);
}

/**
 * MRR per currency from a tally: the memberships counted per plan at their plan's price, plus
 * those summed already at the price they joined at. Plans it cannot price are left out (and
 * returned).
 */
export function mrrByCurrency(
  tally: { byPlan: ReadonlyMap<number, RecurringCounts>; atJoinedPrices: readonly MrrLine[] },
  plans: ReadonlyMap<number, Plan>,
): { lines: MrrLine[]; unpriced: number[] } {
  const lines = new Map<string, MrrLine>();
  for (const line of tally.atJoinedPrices) addToLine(lines, line);
  const unpriced: number[] = [];
  for (const [planId, counts] of tally.byPlan) {
    if (counts.subscriptions + counts.instalmentPlans === 0) continue;
    const plan = plans.get(planId);
    if (plan?.type !== 'subscription' && plan?.type !== 'multiPayment') {
      unpriced.push(planId);
      continue;
    }
    const { currency, amount } = monthlyAmount(plan.billing);
    const { subscriptions, instalmentPlans } = counts;
    addToLine(lines, { currency, amount: amount * (subscriptions + instalmentPlans), subscriptions, instalmentPlans });
  }
  return { lines: [...lines.values()].sort((a, b) => a.currency.localeCompare(b.currency)), unpriced };
}
