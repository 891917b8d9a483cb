/**
 * What a plan costs at sign-up (src/service/billing/quote.ts), for every plan type and every
 * optional billing field; the rules are in docs/decisions/0013-plan-pricing.md.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { IntervalUnit } from '../../src/contract/admin';
import { quotePlan, type PlanQuote } from '../../src/service/billing/quote';
import type { PlanRecord, PlanTerms } from '../../src/service/store/records';

/** Monday 23 November 2026, noon UTC. */
const NOW = Date.parse('2026-11-23T12:00:00Z');
const at = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

function plan(terms: PlanTerms): PlanRecord {
  return { id: 7, siteId: 1, key: 'plan', publicId: 'pLaN7xyz', name: 'Plan', status: 'enabled', isPublic: true, colorCode: '#4f46e5', createdAt: 0, ...terms };
}
const monthly = { count: 1, unit: 'month' } as const;
const none = { mode: 'none' } as const;
const zero = { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 };

describe('quotePlan', () => {
  const cases: Array<[string, PlanTerms, PlanQuote]> = [
    ['free, never expiring: nothing due, no currency', { type: 'free', expiration: none }, { type: 'free', dueNow: zero }],
    [
      'free for seven days',
      { type: 'free', expiration: { mode: 'interval', count: 7, unit: 'day' } },
      { type: 'free', dueNow: zero, expiresAt: NOW + 7 * DAY },
    ],
    [
      'one-time, tax 20%: the price plus tax, once',
      { type: 'oneTimePayment', expiration: none, billing: { price: 199, currency: 'usd', taxPercentage: 20, taxDescription: '<p>VAT</p>' } },
      { type: 'oneTimePayment', currency: 'usd', taxPercentage: 20, dueNow: { subTotalCents: 19900, taxCents: 3980, grandTotalCents: 23880 } },
    ],
    [
      'one-time 19.99 at 7.5%, until a specific time',
      { type: 'oneTimePayment', expiration: { mode: 'specificTime', expiresAt: '2027-12-31T23:59:59.000Z' }, billing: { price: 19.99, currency: 'usd', taxPercentage: 7.5 } },
      {
        type: 'oneTimePayment', currency: 'usd', taxPercentage: 7.5, expiresAt: at('2027-12-31T23:59:59Z'),
        dueNow: { subTotalCents: 1999, taxCents: 150, grandTotalCents: 2149 },
      },
    ],
    [
      'one-time in yen, a zero-decimal currency: ¥1,500 at 7.5% is ¥112.5 tax, rounded up',
      { type: 'oneTimePayment', expiration: { mode: 'interval', count: 1, unit: 'year' }, billing: { price: 1500, currency: 'jpy', taxPercentage: 7.5 } },
      { type: 'oneTimePayment', currency: 'jpy', taxPercentage: 7.5, expiresAt: at('2027-11-23T12:00:00Z'), dueNow: { subTotalCents: 1500, taxCents: 113, grandTotalCents: 1613 } },
    ],
    [
      'multi-payment with a sign-up fee: first instalment and fee now, the next a month later',
      {
        type: 'multiPayment', expiration: { mode: 'interval', count: 1, unit: 'year' },
        billing: { price: 60, currency: 'usd', interval: monthly, paymentCountRequired: 3, signupFee: 10 },
      },
      {
        type: 'multiPayment', currency: 'usd', signupFeeCents: 1000,
        dueNow: { subTotalCents: 7000, taxCents: 0, grandTotalCents: 7000 },
        recurring: { amountCents: 6000, subTotalCents: 6000, taxCents: 0, interval: monthly, paymentCount: 3, firstChargeAt: NOW },
        billingPeriodEnd: at('2026-12-23T12:00:00Z'), expiresAt: at('2027-11-23T12:00:00Z'),
      },
    ],
    [
      'multi-payment with a trial and tax: nothing now, the first instalment at the trial end',
      {
        type: 'multiPayment', expiration: none,
        billing: { price: 33.33, currency: 'eur', interval: { count: 2, unit: 'week' }, paymentCountRequired: 4, trialPeriodDays: 7, taxPercentage: 19 },
      },
      {
        type: 'multiPayment', currency: 'eur', taxPercentage: 19, trialDays: 7, dueNow: zero,
        recurring: { amountCents: 3966, subTotalCents: 3333, taxCents: 633, interval: { count: 2, unit: 'week' }, paymentCount: 4, firstChargeAt: NOW + 7 * DAY },
        billingPeriodEnd: NOW + 7 * DAY,
      },
    ],
    [
      'multi-payment, sign-up fee and tax: one charge, taxed once on price plus fee',
      {
        type: 'multiPayment', expiration: none,
        billing: { price: 19.99, currency: 'usd', interval: monthly, paymentCountRequired: 2, signupFee: 5, taxPercentage: 7.5 },
      },
      {
        type: 'multiPayment', currency: 'usd', taxPercentage: 7.5, signupFeeCents: 500,
        // 24.99 × 7.5% = 1.87425
        dueNow: { subTotalCents: 2499, taxCents: 187, grandTotalCents: 2686 },
        recurring: { amountCents: 2149, subTotalCents: 1999, taxCents: 150, interval: monthly, paymentCount: 2, firstChargeAt: NOW },
        billingPeriodEnd: at('2026-12-23T12:00:00Z'),
      },
    ],
    [
      'subscription, monthly: a period now, the next in a month',
      { type: 'subscription', billing: { price: 12, currency: 'usd', interval: monthly } },
      {
        type: 'subscription', currency: 'usd', dueNow: { subTotalCents: 1200, taxCents: 0, grandTotalCents: 1200 },
        recurring: { amountCents: 1200, subTotalCents: 1200, taxCents: 0, interval: monthly, firstChargeAt: NOW },
        billingPeriodEnd: at('2026-12-23T12:00:00Z'),
      },
    ],
    [
      'subscription, yearly at 8.5% tax',
      { type: 'subscription', billing: { price: 120, currency: 'usd', interval: { count: 1, unit: 'year' }, taxPercentage: 8.5 } },
      {
        type: 'subscription', currency: 'usd', taxPercentage: 8.5, dueNow: { subTotalCents: 12000, taxCents: 1020, grandTotalCents: 13020 },
        recurring: { amountCents: 13020, subTotalCents: 12000, taxCents: 1020, interval: { count: 1, unit: 'year' }, firstChargeAt: NOW },
        billingPeriodEnd: at('2027-11-23T12:00:00Z'),
      },
    ],
    [
      'subscription on the 1st with a sign-up fee: a whole period and the fee now, no proration; the period ends on the 1st',
      { type: 'subscription', billing: { price: 12, currency: 'usd', interval: monthly, billingDate: { day: 1 }, signupFee: 5 } },
      {
        type: 'subscription', currency: 'usd', signupFeeCents: 500, billingDate: { day: 1 },
        dueNow: { subTotalCents: 1700, taxCents: 0, grandTotalCents: 1700 },
        recurring: { amountCents: 1200, subTotalCents: 1200, taxCents: 0, interval: monthly, firstChargeAt: NOW },
        billingPeriodEnd: at('2026-12-01T00:00:00Z'),
      },
    ],
    [
      'subscription on the 1st with a 14-day trial: nothing now; the first charge ends the trial',
      { type: 'subscription', billing: { price: 12, currency: 'usd', interval: monthly, billingDate: { day: 1 }, trialPeriodDays: 14 } },
      {
        type: 'subscription', currency: 'usd', trialDays: 14, billingDate: { day: 1 }, dueNow: zero,
        recurring: { amountCents: 1200, subTotalCents: 1200, taxCents: 0, interval: monthly, firstChargeAt: at('2026-12-07T12:00:00Z') },
        billingPeriodEnd: at('2026-12-07T12:00:00Z'),
      },
    ],
    [
      'subscription on day 31 in November (30 days): the period ends on the 30th',
      { type: 'subscription', billing: { price: 12, currency: 'usd', interval: monthly, billingDate: { day: 31 } } },
      {
        type: 'subscription', currency: 'usd', billingDate: { day: 31 }, dueNow: { subTotalCents: 1200, taxCents: 0, grandTotalCents: 1200 },
        recurring: { amountCents: 1200, subTotalCents: 1200, taxCents: 0, interval: monthly, firstChargeAt: NOW },
        billingPeriodEnd: at('2026-11-30T00:00:00Z'),
      },
    ],
    [
      'subscription yearly on 29 February, signed up off a leap year: the period ends 28 February',
      { type: 'subscription', billing: { price: 99, currency: 'gbp', interval: { count: 1, unit: 'year' }, billingDate: { day: 29, month: 2 } } },
      {
        type: 'subscription', currency: 'gbp', billingDate: { day: 29, month: 2 }, dueNow: { subTotalCents: 9900, taxCents: 0, grandTotalCents: 9900 },
        recurring: { amountCents: 9900, subTotalCents: 9900, taxCents: 0, interval: { count: 1, unit: 'year' }, firstChargeAt: NOW },
        billingPeriodEnd: at('2027-02-28T00:00:00Z'),
      },
    ],
    [
      'subscription in won with a fee and 10% tax',
      { type: 'subscription', billing: { price: 9900, currency: 'krw', interval: monthly, signupFee: 1000, taxPercentage: 10 } },
      {
        type: 'subscription', currency: 'krw', taxPercentage: 10, signupFeeCents: 1000,
        dueNow: { subTotalCents: 10900, taxCents: 1090, grandTotalCents: 11990 },
        recurring: { amountCents: 10890, subTotalCents: 9900, taxCents: 990, interval: monthly, firstChargeAt: NOW },
        billingPeriodEnd: at('2026-12-23T12:00:00Z'),
      },
    ],
  ];
  test.each(cases)('%s', (_name, terms, expected) => {
    expect(quotePlan(plan(terms), NOW)).toStrictEqual(expected);
  });
});

test('tax is rounded once per charge, on price plus fee, not per line', () => {
  // 5¢ + 5¢ at 10%: 1¢ on the 10¢ charge; rounding each half-cent line up would make it 2¢.
  const quote = quotePlan(plan({ type: 'subscription', billing: { price: 0.05, currency: 'usd', interval: monthly, signupFee: 0.05, taxPercentage: 10 } }), NOW);
  expect(quote.dueNow).toEqual({ subTotalCents: 10, taxCents: 1, grandTotalCents: 11 });
  expect(quote.recurring).toMatchObject({ subTotalCents: 5, taxCents: 1, amountCents: 6 });
});

test('tax on an exact half-cent goes up where floating point would round it down', () => {
  // 7.50 at 4.6% = 0.345 exactly; 750 * 4.6 / 100 is 34.49999… in floating point.
  const quote = quotePlan(plan({ type: 'oneTimePayment', expiration: none, billing: { price: 7.5, currency: 'usd', taxPercentage: 4.6 } }), NOW);
  expect(quote.dueNow).toEqual({ subTotalCents: 750, taxCents: 35, grandTotalCents: 785 });
});

test('a plan with a fixed billing date is charged the whole price however close the date is', () => {
  const lastEvening = Date.parse('2026-11-30T23:00:00Z');
  const quote = quotePlan(plan({ type: 'subscription', billing: { price: 12, currency: 'usd', interval: monthly, billingDate: { day: 1 } } }), lastEvening);
  expect(quote.dueNow.grandTotalCents).toBe(1200);
  expect(quote.billingPeriodEnd).toBe(Date.parse('2026-12-01T00:00:00Z'));
});

test('the quote does not share objects with the plan', () => {
  const p = plan({ type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, billingDate: { day: 3 } } });
  const quote = quotePlan(p, NOW);
  quote.recurring!.interval.count = 99;
  quote.billingDate!.day = 9;
  expect(p.type === 'subscription' && p.billing).toMatchObject({ interval: { count: 1 }, billingDate: { day: 3 } });
});

const units: IntervalUnit[] = ['day', 'week', 'month', 'year'];
const anyPaidTerms: fc.Arbitrary<PlanTerms> = fc
  .record({
    type: fc.constantFrom('oneTimePayment', 'multiPayment', 'subscription'),
    price: fc.integer({ min: 0, max: 1_000_000_00 }).map((c) => c / 100),
    currency: fc.constantFrom('usd', 'eur', 'jpy', 'kwd'),
    taxPercentage: fc.option(fc.integer({ min: 0, max: 100_000 }).map((t) => t / 1000), { nil: undefined }),
    interval: fc.record({ count: fc.integer({ min: 1, max: 12 }), unit: fc.constantFrom(...units) }),
    extra: fc.oneof(
      fc.constant({}),
      fc.integer({ min: 1, max: 60 }).map((trialPeriodDays) => ({ trialPeriodDays })),
      fc.integer({ min: 0, max: 100_00 }).map((c) => ({ signupFee: c / 100 })),
    ),
    paymentCountRequired: fc.integer({ min: 2, max: 24 }),
  })
  .map(({ type, price, currency, taxPercentage, interval, extra, paymentCountRequired }): PlanTerms => {
    const tax = taxPercentage === undefined ? {} : { taxPercentage };
    if (type === 'oneTimePayment') return { type, expiration: none, billing: { price, currency, ...tax } };
    if (type === 'multiPayment') return { type, expiration: none, billing: { price, currency, ...tax, interval, paymentCountRequired, ...extra } };
    return { type, billing: { price, currency, ...tax, interval, ...extra } };
  });

test('every charge adds up: grand total = subtotal + tax, tax never more than the subtotal', () => {
  fc.assert(
    fc.property(anyPaidTerms, fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2080, 0, 1) }), (terms, now) => {
      const quote = quotePlan(plan(terms), now);
      const charges = [quote.dueNow, ...(quote.recurring ? [{ ...quote.recurring, grandTotalCents: quote.recurring.amountCents }] : [])];
      for (const c of charges) {
        expect(c.grandTotalCents).toBe(c.subTotalCents + c.taxCents);
        expect(Number.isSafeInteger(c.subTotalCents) && Number.isSafeInteger(c.taxCents)).toBe(true);
        expect(c.taxCents).toBeLessThanOrEqual(c.subTotalCents);
        if (!quote.taxPercentage) expect(c.taxCents).toBe(0);
      }
    }),
  );
});

test('recurring plans: nothing due now exactly during a trial; otherwise the first charge is now and the next one later', () => {
  fc.assert(
    fc.property(anyPaidTerms, fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2080, 0, 1) }), (terms, now) => {
      if (terms.type === 'oneTimePayment' || terms.type === 'free') return;
      const quote = quotePlan(plan(terms), now);
      const recurring = quote.recurring!;
      expect(recurring.paymentCount).toBe(terms.type === 'multiPayment' ? terms.billing.paymentCountRequired : undefined);
      if (terms.billing.trialPeriodDays) {
        expect(quote.dueNow).toEqual(zero);
        expect(recurring.firstChargeAt).toBe(now + terms.billing.trialPeriodDays * DAY);
        expect(quote.billingPeriodEnd).toBe(recurring.firstChargeAt);
      } else {
        expect(quote.dueNow.subTotalCents).toBe(recurring.subTotalCents + (quote.signupFeeCents ?? 0));
        expect(recurring.firstChargeAt).toBe(now);
        expect(quote.billingPeriodEnd).toBeGreaterThan(now);
      }
    }),
  );
});
