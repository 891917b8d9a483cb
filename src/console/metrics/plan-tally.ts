/**
 * Active memberships counted per plan while they are read, a page at a time: all of them, the
 * comped ones, the paying ones and the recurring ones (./mrr). Counts only, so a million
 * memberships cost a few numbers per plan, not a million objects. A recurring membership that
 * pays the price it joined at (its plan's has changed since) is summed at that price, per
 * currency, instead of counted at its plan's.
 */
import type { Membership } from '../../contract/admin';
import { addToLine, isRecurring, joinedRecurringBilling, type MrrLine, monthlyAmount, type RecurringCounts } from './mrr';

/** Per plan; `subscriptions` and `instalmentPlans` count the recurring memberships at the plan's price now. */
export interface PlanCounts extends RecurringCounts {
  active: number;
  comped: number;
  /** Active, not comped, on a plan that costs something. */
  paid: number;
  /** Active on a free plan. */
  free: number;
}

const empty = (): PlanCounts => ({ active: 0, comped: 0, paid: 0, free: 0, subscriptions: 0, instalmentPlans: 0 });

export class PlanTally {
  readonly byPlan = new Map<number, PlanCounts>();
  /** The recurring memberships that pay the price they joined at, summed per currency. */
  private readonly joinedLines = new Map<string, MrrLine>();

  get atJoinedPrices(): MrrLine[] {
    return [...this.joinedLines.values()];
  }

  add(memberships: readonly Membership[]): void {
    for (const membership of memberships) {
      if (membership.status !== 'active') continue;
      let counts = this.byPlan.get(membership.planId);
      if (!counts) this.byPlan.set(membership.planId, (counts = empty()));
      counts.active++;
      if (membership.comp) counts.comped++;
      else if (membership.type === 'free') counts.free++;
      else counts.paid++;
      if (isRecurring(membership)) this.addRecurring(membership, counts);
    }
  }

  private addRecurring(membership: Membership, counts: RecurringCounts): void {
    const kind = membership.type === 'subscription' ? 'subscriptions' : 'instalmentPlans';
    const joined = joinedRecurringBilling(membership);
    if (!joined) {
      counts[kind]++;
      return;
    }
    addToLine(this.joinedLines, { ...monthlyAmount(joined), subscriptions: 0, instalmentPlans: 0, [kind]: 1 });
  }

  /** The sums over every plan. */
  totals(): PlanCounts {
    const sum = empty();
    for (const counts of this.byPlan.values()) {
      for (const key of Object.keys(sum) as (keyof PlanCounts)[]) sum[key] += counts[key];
    }
    return sum;
  }
}
