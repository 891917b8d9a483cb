/** The member page's "Pays" column (src/console/views/membership-pays.ts): the price the member pays, and whose it is. */
import { expect, test } from 'vitest';
import type { Membership, Plan } from '../../src/contract/admin';
import { membershipPays } from '../../src/console/views/membership-pays';

const common = { publicId: 'p', status: 'enabled', isPublic: true, activeMemberCount: 0, colorCode: '#000000', createdAt: '2026-01-01T00:00:00Z' } as const;
const monthly: Plan = { ...common, id: 1, name: 'Monthly', type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } } };
const course: Plan = {
  ...common,
  id: 2,
  name: 'Course',
  type: 'multiPayment',
  expiration: { mode: 'none' },
  billing: { price: 50, currency: 'eur', interval: { count: 2, unit: 'week' }, paymentCountRequired: 3 },
};
const lifetime: Plan = { ...common, id: 3, name: 'Lifetime', type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { price: 199, currency: 'usd' } };
const free: Plan = { ...common, id: 4, name: 'Free', type: 'free', expiration: { mode: 'none' } };

const of = (plan: Plan, extra: Partial<Membership> = {}): Membership => ({
  id: 9,
  memberId: 3,
  planId: plan.id,
  planPublicId: plan.publicId,
  status: 'active',
  type: plan.type,
  createdAt: '2026-01-01T00:00:00Z',
  ...extra,
});

test('the plan’s price and how often, for a membership that pays its plan’s price now', () => {
  expect(membershipPays(of(monthly), monthly)).toBe('$12.00 every month');
  expect(membershipPays(of(course), course)).toBe('€50.00 every 2 weeks');
  expect(membershipPays(of(lifetime), lifetime)).toBe('$199.00 once');
});

test('the price it joined at, said so, when its plan’s has changed since; even when the plan cannot be read', () => {
  const joined = of(monthly, { joinedBilling: { price: 10, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 7 } });
  expect(membershipPays(joined, monthly)).toBe('$10.00 every month, the price it joined at');
  expect(membershipPays(joined, undefined)).toBe('$10.00 every month, the price it joined at');
});

test('nothing for a comped membership or a free plan; no words when the plan cannot be read', () => {
  expect(membershipPays(of(monthly, { comp: true }), monthly)).toBe('nothing (given for free)');
  expect(membershipPays(of(free), free)).toBe('nothing (a free plan)');
  expect(membershipPays(of(monthly), undefined)).toBe('');
});
