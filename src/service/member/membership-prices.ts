/**
 * GET /memberships: what each of the member's running subscriptions and instalment plans costs
 * them, priced as the renewals are (quote.ts on the membership's own billing: the price it joined
 * at when the plan's has changed since, records.ts `MembershipRecord.billing`), and whether it is
 * still in its trial (its first period: the charge due is the first one).
 */
import type { MembershipPrice } from '../../contract/member';
import { inTrial, membershipStatus } from '../billing/membership-terms';
import { quotePlan } from '../billing/quote';
import { asJoined } from '../billing/renewals';
import type { EpochMs, MembershipRecord, PlanRecord } from '../store/records';
import type { Store } from '../store/store';

export async function membershipPrices(store: Store, siteId: number, memberId: number, now: EpochMs): Promise<MembershipPrice[]> {
  const memberships = (await store.listMembershipsOfMember(siteId, memberId)).filter(
    // Only while a charge is still to come: an instalment plan paid off has nothing more to cost.
    (m) => (m.type === 'subscription' || m.type === 'multiPayment') && membershipStatus(m, now) === 'active' && m.billingPeriodEnd !== undefined,
  );
  const plans = new Map<number, PlanRecord | undefined>();
  const prices: MembershipPrice[] = [];
  for (const m of memberships) {
    if (!plans.has(m.planId)) plans.set(m.planId, await store.getPlan(siteId, m.planId));
    const price = priceOf(m, plans.get(m.planId));
    if (price) prices.push(price);
  }
  return prices;
}

function priceOf(m: MembershipRecord, plan: PlanRecord | undefined): MembershipPrice | undefined {
  if (plan?.type !== 'subscription' && plan?.type !== 'multiPayment') return undefined;
  const joined = asJoined(plan, m);
  const { currency, recurring } = quotePlan(joined, m.createdAt);
  if (!currency || !recurring) return undefined;
  return {
    id: m.id,
    currency,
    recurring: { amountCents: recurring.amountCents, subTotalCents: recurring.subTotalCents, taxCents: recurring.taxCents, interval: recurring.interval },
    ...(inTrial(joined.billing, m) && { trialEndsAt: new Date(m.billingPeriodEnd!).toISOString() }),
  };
}
