/** Calendar rules for plans (src/service/billing/calendar.ts): UTC, month ends clamped, never a skipped month. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { IntervalUnit } from '../../src/contract/admin';
import { addInterval, daysInMonth, expiryFrom, nextFixedBillingDate } from '../../src/service/billing/calendar';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('addInterval', () => {
  const cases: Array<[string, string, number, IntervalUnit, string]> = [
    ['a day', '2026-01-31T10:15:00Z', 1, 'day', '2026-02-01T10:15:00Z'],
    ['a week across a year end', '2026-12-28T00:00:00Z', 1, 'week', '2027-01-04T00:00:00Z'],
    ['14 days (a trial) over a European DST change is still 14 × 24 h', '2026-03-20T12:00:00Z', 14, 'day', '2026-04-03T12:00:00Z'],
    ['a month on an ordinary day', '2026-11-23T12:00:00Z', 1, 'month', '2026-12-23T12:00:00Z'],
    ['31 January + 1 month is the last day of February, not 3 March', '2027-01-31T09:00:00Z', 1, 'month', '2027-02-28T09:00:00Z'],
    ['31 January + 1 month in a leap year is 29 February', '2028-01-31T09:00:00Z', 1, 'month', '2028-02-29T09:00:00Z'],
    ['31 March + 1 month is 30 April', '2026-03-31T00:00:00Z', 1, 'month', '2026-04-30T00:00:00Z'],
    ['30 November + 3 months is the end of February', '2026-11-30T00:00:00Z', 3, 'month', '2027-02-28T00:00:00Z'],
    ['31 December + 2 months crosses the year', '2026-12-31T23:59:59Z', 2, 'month', '2027-02-28T23:59:59Z'],
    ['31 October + 13 months', '2026-10-31T00:00:00Z', 13, 'month', '2027-11-30T00:00:00Z'],
    ['29 February + 1 year is 28 February', '2028-02-29T08:00:00Z', 1, 'year', '2029-02-28T08:00:00Z'],
    ['29 February + 4 years is 29 February', '2028-02-29T08:00:00Z', 4, 'year', '2032-02-29T08:00:00Z'],
    ['a year on an ordinary day', '2026-07-04T00:00:00Z', 1, 'year', '2027-07-04T00:00:00Z'],
  ];
  test.each(cases)('%s', (_name, start, count, unit, expected) => {
    expect(iso(addInterval(at(start), count, unit))).toBe(iso(at(expected)));
  });

  test('a schedule day keeps a long schedule on its day: 28 Feb + 1 month on day 31 is 31 Mar', () => {
    expect(iso(addInterval(at('2027-02-28T06:00:00Z'), 1, 'month', 31))).toBe('2027-03-31T06:00:00.000Z');
    expect(iso(addInterval(at('2027-02-28T06:00:00Z'), 1, 'month', 30))).toBe('2027-03-30T06:00:00.000Z');
    expect(iso(addInterval(at('2029-02-28T00:00:00Z'), 3, 'year', 29))).toBe('2032-02-29T00:00:00.000Z');
  });

  test('adding n months never skips a month and never leaves the target month', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 240 }),
        (start, n) => {
          const from = new Date(start.getTime());
          const to = new Date(addInterval(start.getTime(), n, 'month'));
          const monthsApart = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
          expect(monthsApart).toBe(n);
          expect(to.getUTCDate()).toBe(Math.min(from.getUTCDate(), daysInMonth(to.getUTCFullYear(), to.getUTCMonth())));
          expect(to.getTime() % 86_400_000).toBe(from.getTime() % 86_400_000);
        },
      ),
    );
  });

  test('n monthly steps on the schedule day land where n months at once do', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 * 365 }), fc.integer({ min: 1, max: 60 }), (dayNumber, steps) => {
        const start = Date.UTC(2000, 0, 1) + dayNumber * 86_400_000;
        const day = new Date(start).getUTCDate();
        let stepped = start;
        for (let i = 0; i < steps; i++) stepped = addInterval(stepped, 1, 'month', day);
        expect(stepped).toBe(addInterval(start, steps, 'month'));
      }),
    );
  });
});

describe('nextFixedBillingDate', () => {
  const cases: Array<[string, string, { day: number; month?: number }, string]> = [
    ['the same month when the day is still ahead', '2026-11-23T12:00:00Z', { day: 25 }, '2026-11-25T00:00:00Z'],
    ['next month when the day has passed', '2026-11-23T12:00:00Z', { day: 1 }, '2026-12-01T00:00:00Z'],
    ['strictly after now: on the day itself, the next one', '2026-12-01T00:00:00Z', { day: 1 }, '2027-01-01T00:00:00Z'],
    ['later the same day is already past', '2026-12-01T00:00:01Z', { day: 1 }, '2027-01-01T00:00:00Z'],
    ['day 31 in a 30-day month falls on the 30th', '2026-04-10T00:00:00Z', { day: 31 }, '2026-04-30T00:00:00Z'],
    ['day 31 in February falls on the 28th', '2027-02-10T00:00:00Z', { day: 31 }, '2027-02-28T00:00:00Z'],
    ['day 30 in a leap February falls on the 29th', '2028-02-10T00:00:00Z', { day: 30 }, '2028-02-29T00:00:00Z'],
    ['after a clamped 30 April, 31 May', '2026-04-30T00:00:00Z', { day: 31 }, '2026-05-31T00:00:00Z'],
    ['yearly: the next such month and day', '2026-11-23T12:00:00Z', { day: 15, month: 3 }, '2027-03-15T00:00:00Z'],
    ['yearly: later this year', '2026-01-10T00:00:00Z', { day: 15, month: 3 }, '2026-03-15T00:00:00Z'],
    ['yearly 29 February off a leap year is 28 February', '2026-03-01T00:00:00Z', { day: 29, month: 2 }, '2027-02-28T00:00:00Z'],
    ['yearly 29 February in a leap year', '2027-03-01T00:00:00Z', { day: 29, month: 2 }, '2028-02-29T00:00:00Z'],
  ];
  test.each(cases)('%s', (_name, now, date, expected) => {
    expect(iso(nextFixedBillingDate(at(now), date))).toBe(iso(at(expected)));
  });

  test('is always after now, at most 31 days (monthly) or 366 days (yearly) away, at midnight UTC', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) }),
        fc.integer({ min: 1, max: 31 }),
        fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
        (now, day, month) => {
          const safeDay = month === 2 ? Math.min(day, 29) : day;
          const next = nextFixedBillingDate(now, month === undefined ? { day: safeDay } : { day: safeDay, month });
          expect(next).toBeGreaterThan(now);
          // The longest gaps: 28 Feb → 31 Mar for day 31; 28 Feb 2027 → 29 Feb 2028 for 29 February.
          expect(next - now).toBeLessThanOrEqual((month === undefined ? 31 : 366) * 86_400_000);
          expect(next % 86_400_000).toBe(0);
          if (month !== undefined) expect(new Date(next).getUTCMonth()).toBe(month - 1);
        },
      ),
    );
  });
});

describe('expiryFrom', () => {
  const start = at('2026-01-31T10:00:00Z');
  test('mode none never expires', () => {
    expect(expiryFrom({ mode: 'none' }, start)).toBeUndefined();
  });
  test('mode interval counts from the start, month ends clamped', () => {
    expect(iso(expiryFrom({ mode: 'interval', count: 1, unit: 'month' }, start))).toBe('2026-02-28T10:00:00.000Z');
    expect(iso(expiryFrom({ mode: 'interval', count: 7, unit: 'day' }, start))).toBe('2026-02-07T10:00:00.000Z');
    expect(iso(expiryFrom({ mode: 'interval', count: 2, unit: 'week' }, start))).toBe('2026-02-14T10:00:00.000Z');
    expect(iso(expiryFrom({ mode: 'interval', count: 1, unit: 'year' }, start))).toBe('2027-01-31T10:00:00.000Z');
  });
  test('mode specificTime is that time, whatever the start', () => {
    expect(iso(expiryFrom({ mode: 'specificTime', expiresAt: '2027-12-31T23:59:59.000Z' }, start))).toBe('2027-12-31T23:59:59.000Z');
  });
});
