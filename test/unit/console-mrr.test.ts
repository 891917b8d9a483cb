/**
 * The owner console's monthly recurring revenue (src/console/metrics/mrr.ts), as the overview
 * states it: what a membership pays (the price it joined at when its plan's has changed since,
 * else the plan's) normalised to a month from its interval (day × 30.4375 / count, week × 4.348 /
 * count, month / count, year / 12 / count), for active subscriptions and instalment plans with
 * instalments left; comped, cancelled and expired memberships bring nothing.
 */
import { expect, test } from 'vitest';
import type { Membership, Plan } from '../../src/contract/admin';
import { isRecurring, monthlyFactor, mrrByCurrency } from '../../src/console/metrics/mrr';
import { PlanTally } from '../../src/console/metrics/plan-tally';

const common = { publicId: 'p', status: 'enabled', isPublic: true, activeMemberCount: 0, colorCode: '#000000', createdAt: '2026-01-01T00:00:00Z' } as const;
const monthly: Plan = { ...common, id: 1, name: 'Monthly', type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } } };
const quarterly: Plan = { ...common, id: 2, name: 'Team', type: 'subscription', billing: { price: 300, currency: 'usd', interval: { count: 3, unit: 'month' } } };
const yearly: Plan = { ...common, id: 3, name: 'Yearly', type: 'subscription', billing: { price: 120, currency: 'eur', interval: { count: 1, unit: 'year' } } };
const weekly: Plan = { ...common, id: 4, name: 'Weekly', type: 'subscription', billing: { price: 5, currency: 'usd', interval: { count: 2, unit: 'week' } } };
const daily: Plan = { ...common, id: 5, name: 'Daily', type: 'subscription', billing: { price: 1, currency: 'usd', interval: { count: 1, unit: 'day' } } };
const course: Plan = {
  ...common,
  id: 6,
  name: 'Course',
  type: 'multiPayment',
  expiration: { mode: 'none' },
  billing: { price: 60, currency: 'usd', interval: { count: 1, unit: 'month' }, paymentCountRequired: 3 },
};
const free: Plan = { ...common, id: 7, name: 'Free', type: 'free', expiration: { mode: 'none' } };
const lifetime: Plan = { ...common, id: 8, name: 'Lifetime', type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { price: 199, currency: 'usd' } };
const plans = new Map([monthly, quarterly, yearly, weekly, daily, course, free, lifetime].map((p) => [p.id, p]));

let ids = 0;
const membership = (plan: Plan, extra: Partial<Membership> = {}): Membership => ({
  id: ++ids,
  memberId: ids,
  planId: plan.id,
  planPublicId: plan.publicId,
  status: 'active',
  type: plan.type,
  createdAt: '2026-01-01T00:00:00Z',
  ...(plan.type === 'subscription' || plan.type === 'multiPayment' ? { billing: { billingPeriodEnd: '2026-02-01T00:00:00Z' } } : {}),
  ...extra,
});

test('a month is a month; a day is 30.4375 of them a month; a week 4.348; a year a twelfth; each divided by the count', () => {
  expect(monthlyFactor({ count: 1, unit: 'month' })).toBe(1);
  expect(monthlyFactor({ count: 3, unit: 'month' })).toBeCloseTo(1 / 3, 12);
  expect(monthlyFactor({ count: 1, unit: 'day' })).toBe(30.4375);
  expect(monthlyFactor({ count: 7, unit: 'day' })).toBeCloseTo(30.4375 / 7, 12);
  expect(monthlyFactor({ count: 1, unit: 'week' })).toBe(4.348);
  expect(monthlyFactor({ count: 2, unit: 'week' })).toBe(2.174);
  expect(monthlyFactor({ count: 1, unit: 'year' })).toBeCloseTo(1 / 12, 12);
  expect(monthlyFactor({ count: 2, unit: 'year' })).toBeCloseTo(1 / 24, 12);
});

test('recurring: active subscriptions and instalment plans with instalments left; not comped, cancelled, expired, paid off or one-off', () => {
  expect(isRecurring(membership(monthly))).toBe(true);
  expect(isRecurring(membership(monthly, { cancelsOn: '2026-02-01T00:00:00Z' }))).toBe(true);
  expect(isRecurring(membership(course))).toBe(true);
  expect(isRecurring(membership(course, { billing: undefined }))).toBe(false);
  expect(isRecurring(membership(monthly, { comp: true }))).toBe(false);
  expect(isRecurring(membership(monthly, { status: 'cancelled' }))).toBe(false);
  expect(isRecurring(membership(monthly, { status: 'expired' }))).toBe(false);
  expect(isRecurring(membership(lifetime))).toBe(false);
  expect(isRecurring(membership(free))).toBe(false);
});

test('MRR per currency from memberships counted per plan: never adds two currencies, counts subscriptions and instalment plans apart', () => {
  const tally = new PlanTally();
  tally.add([
    membership(monthly),
    membership(monthly),
    membership(monthly, { comp: true }),
    membership(monthly, { status: 'cancelled' }),
    membership(quarterly),
    membership(yearly),
    membership(yearly),
    membership(weekly),
    membership(daily),
    membership(course),
    membership(course, { billing: undefined }),
    membership(lifetime),
    membership(free),
  ]);
  const { lines, unpriced } = mrrByCurrency(tally, plans);
  expect(unpriced).toEqual([]);
  expect(lines.map((l) => l.currency)).toEqual(['eur', 'usd']);
  const [eur, usd] = lines;
  expect(eur!.amount).toBeCloseTo(2 * 10, 9);
  expect(eur).toMatchObject({ subscriptions: 2, instalmentPlans: 0 });
  // 2 × 12 + 300 / 3 + 5 × 2.174 + 1 × 30.4375 + 60 (one instalment plan with instalments left)
  expect(usd!.amount).toBeCloseTo(24 + 100 + 10.87 + 30.4375 + 60, 9);
  expect(usd).toMatchObject({ subscriptions: 5, instalmentPlans: 1 });
});

test('the tally counts active memberships per plan: paid, comped and free apart; the inactive not at all', () => {
  const tally = new PlanTally();
  tally.add([membership(monthly), membership(monthly, { comp: true }), membership(monthly, { status: 'expired' }), membership(free), membership(lifetime)]);
  expect(tally.byPlan.get(monthly.id)).toEqual({ active: 2, comped: 1, paid: 1, free: 0, subscriptions: 1, instalmentPlans: 0 });
  expect(tally.byPlan.get(free.id)).toMatchObject({ active: 1, free: 1, paid: 0 });
  expect(tally.totals()).toEqual({ active: 4, comped: 1, paid: 2, free: 1, subscriptions: 1, instalmentPlans: 0 });
});

test('a plan the console could not read is left out of MRR and named', () => {
  const tally = new PlanTally();
  tally.add([membership(monthly), { ...membership(monthly), planId: 99 }]);
  const { lines, unpriced } = mrrByCurrency(tally, plans);
  expect(unpriced).toEqual([99]);
  expect(lines).toEqual([{ currency: 'usd', amount: 12, subscriptions: 1, instalmentPlans: 0 }]);
});

test('a membership that pays the price it joined at counts at that price, in its currency, not at its plan\'s price now', () => {
  const tally = new PlanTally();
  tally.add([
    membership(monthly),
    // Joined at $10 a month before the plan went to $12.
    membership(monthly, { joinedBilling: { price: 10, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 7 } }),
    // Joined the course at 3 × €50 every 2 months.
    membership(course, { joinedBilling: { price: 50, currency: 'eur', interval: { count: 2, unit: 'month' }, paymentCountRequired: 3 } }),
    // Comped, or a one-time price kept: no recurring revenue at any price.
    membership(monthly, { comp: true, joinedBilling: { price: 10, currency: 'usd', interval: { count: 1, unit: 'month' } } }),
    membership(lifetime, { joinedBilling: { price: 150, currency: 'usd' } }),
  ]);
  const { lines, unpriced } = mrrByCurrency(tally, plans);
  expect(unpriced).toEqual([]);
  expect(lines).toEqual([
    { currency: 'eur', amount: 25, subscriptions: 0, instalmentPlans: 1 },
    { currency: 'usd', amount: 22, subscriptions: 2, instalmentPlans: 0 },
  ]);
  // The plan's table still counts every active membership of the plan.
  expect(tally.byPlan.get(monthly.id)).toMatchObject({ active: 3, paid: 2, comped: 1 });
});

test('memberships at the price they joined at are priced without their plan: a plan the console could not read leaves them in', () => {
  const tally = new PlanTally();
  tally.add([{ ...membership(monthly, { joinedBilling: { price: 9, currency: 'usd', interval: { count: 1, unit: 'month' } } }), planId: 99 }]);
  expect(mrrByCurrency(tally, plans)).toEqual({ lines: [{ currency: 'usd', amount: 9, subscriptions: 1, instalmentPlans: 0 }], unpriced: [] });
});
