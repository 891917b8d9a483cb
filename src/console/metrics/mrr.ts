/**
 * Monthly recurring revenue, as the overview states it on the page: for each active membership
 * that still brings money in (a subscription, or an instalment plan with instalments left), its
 * plan's price normalised to a month from the plan's interval; comped memberships (`comp: true`)
 * and cancelled or expired ones bring nothing. One amount per currency: amounts in different
 * currencies are never added.
 */
import type { Interval, Membership, Plan } from '../../contract/admin';

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

/** What one recurring membership of `plan` is worth a month, in the plan's currency; undefined for a plan without an interval. */
export function monthlyAmount(plan: Plan): { currency: string; amount: number } | undefined {
  if (plan.type !== 'subscription' && plan.type !== 'multiPayment') return undefined;
  return { currency: plan.billing.currency, amount: plan.billing.price * monthlyFactor(plan.billing.interval) };
}

export interface MrrLine {
  currency: string;
  /** In the currency's major unit (dollars, not cents), unrounded. */
  amount: number;
  subscriptions: number;
  instalmentPlans: number;
}

/** Recurring memberships counted per plan, as `PlanTally` (./plan-tally) gives them. */
export interface RecurringCounts {
  subscriptions: number;
  instalmentPlans: number;
}

/** MRR per currency from recurring memberships counted per plan; plans it cannot price are left out (and returned). */
export function mrrByCurrency(
  counts: ReadonlyMap<number, RecurringCounts>,
  plans: ReadonlyMap<number, Plan>,
): { lines: MrrLine[]; unpriced: number[] } {
  const lines = new Map<string, MrrLine>();
  const unpriced: number[] = [];
  for (const [planId, { subscriptions, instalmentPlans }] of counts) {
    if (subscriptions + instalmentPlans === 0) continue;
    const plan = plans.get(planId);
    const monthly = plan && monthlyAmount(plan);
    if (!monthly) {
      unpriced.push(planId);
      continue;
    }
    const line = lines.get(monthly.currency) ?? { currency: monthly.currency, amount: 0, subscriptions: 0, instalmentPlans: 0 };
    line.amount += monthly.amount * (subscriptions + instalmentPlans);
    line.subscriptions += subscriptions;
    line.instalmentPlans += instalmentPlans;
    lines.set(monthly.currency, line);
  }
  return { lines: [...lines.values()].sort((a, b) => a.currency.localeCompare(b.currency)), unpriced };
}
