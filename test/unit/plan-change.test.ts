/**
 * What changing a running subscription to another plan would do (src/service/billing/plan-change.ts),
 * by the rules of docs/decisions/0036-changing-plans.md.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { addInterval } from '../../src/service/billing/calendar';
import { NotChangeableError, quotePlanChange } from '../../src/service/billing/plan-change';
import type { MembershipRecord, PlanRecord, PlanTerms } from '../../src/service/store/records';

const DAY = 86_400_000;
/** Sunday 1 November 2026, noon UTC: a monthly membership started then runs to 1 December (30 days). */
const START = Date.parse('2026-11-01T12:00:00Z');
const END = addInterval(START, 1, 'month');

let ids = 0;
function plan(name: string, terms: PlanTerms): PlanRecord {
  const id = ++ids;
  return { id, siteId: 1, key: name, publicId: `p${id}`, name, status: 'enabled', isPublic: true, colorCode: '#4f46e5', createdAt: 0, ...terms };
}
const subscription = (name: string, price: number, unit: 'month' | 'year' = 'month', extra: object = {}) =>
  plan(name, { type: 'subscription', billing: { price, currency: 'usd', interval: { count: 1, unit }, ...extra } });
const membership = (on: PlanRecord, extra: Partial<MembershipRecord> = {}): MembershipRecord => ({
  id: 5, siteId: 1, memberId: 3, planId: on.id, planPublicId: on.publicId, type: 'subscription', status: 'active', createdAt: START,
  billingPeriodEnd: END, paymentFailure: false, ...extra,
});

const basic = subscription('Basic', 10);
const pro = subscription('Pro', 30);
const yearly = subscription('Yearly', 100, 'year');

test('an upgrade is now: the days left of the period paid for are credited by the day, the new period starts now', () => {
  const now = START + 10 * DAY; // 20 of 30 days left
  const quote = quotePlanChange(membership(basic), basic, pro, now);
  expect(quote.when).toBe('now');
  // $10 × 20/30 = $6.66 (rounded down: the credit never exceeds what was paid).
  expect(quote.creditCents).toBe(666);
  expect(quote.dueNow).toEqual({ subTotalCents: 3000 - 666, taxCents: 0, grandTotalCents: 2334 });
  expect(quote.next).toEqual({ amountCents: 3000, at: addInterval(now, 1, 'month') });
});

test('the new plan’s tax is on what is due after the credit', () => {
  const taxed = subscription('Pro, taxed', 30, 'month', { taxPercentage: 20 });
  const quote = quotePlanChange(membership(basic), basic, taxed, START + 10 * DAY);
  expect(quote.dueNow).toEqual({ subTotalCents: 2334, taxCents: 467, grandTotalCents: 2801 });
  expect(quote.next.amountCents).toBe(3600);
});

test('a downgrade (a lower price per day) is at the period’s end, with nothing due now', () => {
  // Yearly at $100 is $0.27 a day against Pro's $0.99: a downgrade, though a year costs more than a month.
  const quote = quotePlanChange(membership(pro), pro, yearly, START + 3 * DAY);
  expect(quote).toEqual({ when: 'periodEnd', currency: 'usd', creditCents: 0, dueNow: { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 }, next: { amountCents: 10000, at: END } });
  // And the other way round, monthly to yearly of a higher daily price, is an upgrade.
  expect(quotePlanChange(membership(basic), basic, subscription('Yearly plus', 500, 'year'), START + 3 * DAY).when).toBe('now');
});

test('during a trial: now and free, the trial’s end kept, the new price from then', () => {
  const trialled = subscription('Basic with a trial', 10, 'month', { trialPeriodDays: 14 });
  const trialEnd = START + 14 * DAY;
  const quote = quotePlanChange(membership(trialled, { billingPeriodEnd: trialEnd }), trialled, pro, START + 2 * DAY);
  expect(quote).toEqual({ when: 'now', currency: 'usd', creditCents: 0, dueNow: { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 }, next: { amountCents: 3000, at: trialEnd } });
});

test('what the rules refuse: instalment plans, not a subscription, the same plan, another currency, a membership not running', () => {
  const course = plan('Course', { type: 'multiPayment', expiration: { mode: 'none' }, billing: { price: 20, currency: 'usd', interval: { count: 1, unit: 'month' }, paymentCountRequired: 3 } });
  const once = plan('Once', { type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { price: 50, currency: 'usd' } });
  const euro = plan('Euro', { type: 'subscription', billing: { price: 30, currency: 'eur', interval: { count: 1, unit: 'month' } } });
  const now = START + DAY;
  const refused = [
    () => quotePlanChange(membership(course, { type: 'multiPayment' }), course, pro, now),
    () => quotePlanChange(membership(basic), basic, course, now),
    () => quotePlanChange(membership(basic), basic, once, now),
    () => quotePlanChange(membership(basic), basic, basic, now),
    () => quotePlanChange(membership(basic), basic, euro, now),
    () => quotePlanChange(membership(basic, { status: 'cancelled' }), basic, pro, now),
    () => quotePlanChange(membership(basic), basic, pro, END + DAY),
  ];
  for (const change of refused) expect(change).toThrow(NotChangeableError);
});

test('an upgrade’s credit is never more than was paid, never negative, and nothing is due below zero', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 29 }), (from, to, day) => {
      const a = subscription('A', from / 100);
      const b = subscription('B', to / 100);
      const quote = quotePlanChange(membership(a), a, b, START + day * DAY);
      expect(quote.creditCents).toBeGreaterThanOrEqual(0);
      expect(quote.creditCents).toBeLessThanOrEqual(from);
      expect(quote.dueNow.grandTotalCents).toBeGreaterThanOrEqual(0);
      expect(quote.when).toBe(to > from ? 'now' : 'periodEnd');
      if (quote.when === 'periodEnd') expect(quote.next.at).toBe(END);
    }),
  );
});

test('a credit worth more than the new period is not lost: nothing is due, and the new period runs longer by the days the rest pays for', () => {
  // A year paid ($100) for a monthly plan of a higher daily price ($30 a month): 10 days in, ~$97 of credit.
  const year = subscription('Year', 100, 'year');
  const start = START;
  const m = membership(year, { billingPeriodEnd: addInterval(start, 1, 'year') });
  const now = start + 10 * DAY;
  const quote = quotePlanChange(m, year, pro, now);
  expect(quote.when).toBe('now');
  expect(quote.dueNow.grandTotalCents).toBe(0);
  const leftover = quote.creditCents - 3000;
  expect(leftover).toBeGreaterThan(6000);
  const perDay = 3000 / (365.25 / 12);
  expect(quote.next.at).toBe(addInterval(now, 1, 'month') + Math.floor(leftover / perDay) * DAY);
});
