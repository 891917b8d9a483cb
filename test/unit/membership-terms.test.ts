/**
 * The dates of a new membership and how later payments move them
 * (src/service/billing/membership-terms.ts, docs/decisions/0013-plan-pricing.md).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Interval } from '../../src/contract/admin';
import { advanceMultiPayment, newMembershipTerms, renewSubscription, type MembershipTerms } from '../../src/service/billing/membership-terms';
import type { PlanRecord, PlanTerms } from '../../src/service/store/records';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const DAY = 86_400_000;

const COMMON = { id: 7, siteId: 1, key: 'plan', publicId: 'pLaN7xyz', name: 'Plan', status: 'enabled', isPublic: true, colorCode: '#4f46e5', createdAt: 0 } as const;
type SubscriptionPlan = Extract<PlanRecord, { type: 'subscription' }>;
type MultiPaymentPlan = Extract<PlanRecord, { type: 'multiPayment' }>;

function plan(terms: PlanTerms): PlanRecord {
  return { ...COMMON, ...terms };
}
const monthly: Interval = { count: 1, unit: 'month' };
const none = { mode: 'none' } as const;
const active = { status: 'active', createdAt: NOW, paymentFailure: false } as const;

function subscription(billing: Partial<SubscriptionPlan['billing']> = {}): SubscriptionPlan {
  return { ...COMMON, type: 'subscription', billing: { price: 12, currency: 'usd', interval: monthly, ...billing } };
}
function multiPayment(billing: Partial<MultiPaymentPlan['billing']> = {}, expiration: MultiPaymentPlan['expiration'] = none): MultiPaymentPlan {
  return { ...COMMON, type: 'multiPayment', expiration, billing: { price: 20, currency: 'usd', interval: monthly, paymentCountRequired: 3, ...billing } };
}

describe('newMembershipTerms', () => {
  const cases: Array<[string, PlanRecord, MembershipTerms]> = [
    ['free, never expiring: active, no dates', plan({ type: 'free', expiration: none }), { ...active }],
    ['free for 7 days', plan({ type: 'free', expiration: { mode: 'interval', count: 7, unit: 'day' } }), { ...active, expiresAt: NOW + 7 * DAY }],
    [
      'one-time until a specific time',
      plan({ type: 'oneTimePayment', expiration: { mode: 'specificTime', expiresAt: '2027-12-31T23:59:59.000Z' }, billing: { price: 49, currency: 'usd' } }),
      { ...active, expiresAt: at('2027-12-31T23:59:59Z') },
    ],
    [
      'one-time for a year: no billing period',
      plan({ type: 'oneTimePayment', expiration: { mode: 'interval', count: 1, unit: 'year' }, billing: { price: 49, currency: 'usd' } }),
      { ...active, expiresAt: at('2027-11-23T12:00:00Z') },
    ],
    [
      'multi-payment: one paid at sign-up, the next due an interval later, expiry from sign-up',
      multiPayment({}, { mode: 'interval', count: 1, unit: 'year' }),
      { ...active, paymentsMade: 1, billingPeriodEnd: at('2026-12-23T12:00:00Z'), expiresAt: at('2027-11-23T12:00:00Z') },
    ],
    [
      'multi-payment with a trial: none paid, the first due at the trial end',
      multiPayment({ trialPeriodDays: 10 }),
      { ...active, paymentsMade: 0, billingPeriodEnd: NOW + 10 * DAY },
    ],
    ['multi-payment in a single payment: paid off at sign-up, nothing due', multiPayment({ paymentCountRequired: 1 }), { ...active, paymentsMade: 1 }],
    [
      'multi-payment in a single payment after a trial: that payment is due at the trial end',
      multiPayment({ paymentCountRequired: 1, trialPeriodDays: 3 }),
      { ...active, paymentsMade: 0, billingPeriodEnd: NOW + 3 * DAY },
    ],
    ['subscription: the first period ends an interval later, never expires', subscription(), { ...active, billingPeriodEnd: at('2026-12-23T12:00:00Z') }],
    ['subscription every 2 weeks', subscription({ interval: { count: 2, unit: 'week' } }), { ...active, billingPeriodEnd: NOW + 14 * DAY }],
    ['subscription with a trial: the period ends with the trial', subscription({ trialPeriodDays: 14 }), { ...active, billingPeriodEnd: NOW + 14 * DAY }],
    ['subscription on the 1st: the first period ends on the next 1st', subscription({ billingDate: { day: 1 } }), { ...active, billingPeriodEnd: at('2026-12-01T00:00:00Z') }],
    ['subscription on day 31 in a 30-day month: the 30th', subscription({ billingDate: { day: 31 } }), { ...active, billingPeriodEnd: at('2026-11-30T00:00:00Z') }],
    [
      'subscription on the 1st with a trial: the trial end, not the 1st',
      subscription({ billingDate: { day: 1 }, trialPeriodDays: 14 }),
      { ...active, billingPeriodEnd: at('2026-12-07T12:00:00Z') },
    ],
    [
      'subscription yearly on 29 February, off a leap year: 28 February',
      subscription({ interval: { count: 1, unit: 'year' }, billingDate: { day: 29, month: 2 } }),
      { ...active, billingPeriodEnd: at('2027-02-28T00:00:00Z') },
    ],
  ];
  test.each(cases)('%s', (_name, p, expected) => {
    expect(newMembershipTerms(p, NOW)).toStrictEqual(expected);
  });

  test('a subscription never has an expiry, whatever its billing', () => {
    expect(newMembershipTerms(subscription({ billingDate: { day: 5 }, signupFee: 3 }), NOW)).not.toHaveProperty('expiresAt');
  });
});

describe('advanceMultiPayment', () => {
  test('each payment moves the due date one interval on from the first charge, the last one clears it', () => {
    const p = multiPayment({ paymentCountRequired: 3 }, { mode: 'interval', count: 1, unit: 'year' });
    const signedUp = newMembershipTerms(p, at('2027-01-31T09:00:00Z'));
    expect(iso(signedUp.billingPeriodEnd)).toBe('2027-02-28T09:00:00.000Z');
    const second = advanceMultiPayment(signedUp, p);
    expect(second.paymentsMade).toBe(2);
    // Back on the 31st: the schedule keeps the sign-up day.
    expect(iso(second.billingPeriodEnd)).toBe('2027-03-31T09:00:00.000Z');
    const third = advanceMultiPayment(second, p);
    expect(third).toStrictEqual({ status: 'active', createdAt: at('2027-01-31T09:00:00Z'), paymentFailure: false, paymentsMade: 3, expiresAt: signedUp.expiresAt });
    expect(() => advanceMultiPayment(third, p)).toThrow(RangeError);
  });

  test('after a trial, the first payment sets the next due date from the trial end', () => {
    const p = multiPayment({ trialPeriodDays: 7, interval: { count: 1, unit: 'week' }, paymentCountRequired: 2 });
    const first = advanceMultiPayment(newMembershipTerms(p, NOW), p);
    expect(first.paymentsMade).toBe(1);
    expect(first.billingPeriodEnd).toBe(NOW + 14 * DAY);
  });

  test('a successful payment clears a payment failure', () => {
    const p = multiPayment();
    const failing = { ...newMembershipTerms(p, NOW), paymentFailure: true };
    expect(advanceMultiPayment(failing, p).paymentFailure).toBe(false);
  });

  test('the k-th due date is k intervals after the first charge, for any start', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2080, 0, 1) }), fc.integer({ min: 2, max: 36 }), (start, count) => {
        const p = multiPayment({ paymentCountRequired: count });
        let terms = newMembershipTerms(p, start);
        const dues: number[] = [];
        while (terms.billingPeriodEnd !== undefined) {
          dues.push(terms.billingPeriodEnd);
          terms = advanceMultiPayment(terms, p);
        }
        expect(dues).toHaveLength(count - 1);
        expect(terms.paymentsMade).toBe(count);
        // One due date per calendar month, none skipped.
        const month = (ms: number) => new Date(ms).getUTCFullYear() * 12 + new Date(ms).getUTCMonth();
        dues.forEach((due, k) => { expect(month(due) - month(start)).toBe(k + 1); });
      }),
    );
  });
});

describe('renewSubscription', () => {
  function periodEnds(p: SubscriptionPlan, signedUpAt: number, periods: number): string[] {
    let terms = newMembershipTerms(p, signedUpAt);
    const ends = [iso(terms.billingPeriodEnd)!];
    for (let i = 1; i < periods; i++) {
      terms = renewSubscription(terms, p);
      ends.push(iso(terms.billingPeriodEnd)!);
    }
    return ends;
  }

  test('monthly from 31 January keeps to the month end: 28 Feb, 31 Mar, 30 Apr', () => {
    expect(periodEnds(subscription(), at('2027-01-31T09:00:00Z'), 4)).toEqual([
      '2027-02-28T09:00:00.000Z', '2027-03-31T09:00:00.000Z', '2027-04-30T09:00:00.000Z', '2027-05-31T09:00:00.000Z',
    ]);
  });

  test('on a fixed day 31: the short first period, then every month end', () => {
    expect(periodEnds(subscription({ billingDate: { day: 31 } }), at('2027-01-31T09:00:00Z'), 4)).toEqual([
      '2027-02-28T00:00:00.000Z', '2027-03-31T00:00:00.000Z', '2027-04-30T00:00:00.000Z', '2027-05-31T00:00:00.000Z',
    ]);
  });

  test('quarterly on the 1st: to the next 1st, then every three months', () => {
    expect(periodEnds(subscription({ interval: { count: 3, unit: 'month' }, billingDate: { day: 1 } }), NOW, 3)).toEqual([
      '2026-12-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z', '2027-06-01T00:00:00.000Z',
    ]);
  });

  test('with a trial and a fixed day: the trial end, then the next fixed day, then whole intervals', () => {
    expect(periodEnds(subscription({ billingDate: { day: 1 }, trialPeriodDays: 14 }), NOW, 4)).toEqual([
      '2026-12-07T12:00:00.000Z', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z',
    ]);
  });

  test('with a trial and no fixed day: months counted from the trial end', () => {
    expect(periodEnds(subscription({ trialPeriodDays: 8 }), at('2027-01-23T10:00:00Z'), 3)).toEqual([
      '2027-01-31T10:00:00.000Z', '2027-02-28T10:00:00.000Z', '2027-03-31T10:00:00.000Z',
    ]);
  });

  test('yearly on 29 February: 28 February off leap years, 29 February in them', () => {
    expect(periodEnds(subscription({ interval: { count: 1, unit: 'year' }, billingDate: { day: 29, month: 2 } }), NOW, 3)).toEqual([
      '2027-02-28T00:00:00.000Z', '2028-02-29T00:00:00.000Z', '2029-02-28T00:00:00.000Z',
    ]);
  });

  test('renewal clears a payment failure and keeps the rest', () => {
    const p = subscription();
    const failing: MembershipTerms = { ...newMembershipTerms(p, NOW), paymentFailure: true };
    expect(renewSubscription(failing, p)).toStrictEqual({ ...failing, paymentFailure: false, billingPeriodEnd: at('2027-01-23T12:00:00Z') });
  });
});
