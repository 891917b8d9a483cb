/** Money in minor units (src/service/billing/money.ts): currency digits, exact conversion, tax rounding. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fromMinor, minorDigits, percentOf, toMinor } from '../../src/service/billing/money';

describe('minorDigits', () => {
  test.each([
    ['usd', 2], ['EUR', 2], ['gbp', 2],
    // Two digits in ISO 4217, though some processors write them without decimals.
    ['huf', 2], ['twd', 2],
    ['jpy', 0], ['JPY', 0], ['krw', 0], ['vnd', 0], ['clp', 0], ['isk', 0], ['xof', 0], ['ugx', 0],
    ['kwd', 3], ['bhd', 3], ['JOD', 3], ['omr', 3], ['tnd', 3],
    ['xyz', 2],
  ])('%s has %i', (currency, digits) => {
    expect(minorDigits(currency)).toBe(digits);
  });
});

describe('toMinor', () => {
  test.each([
    [19.99, 'usd', 1999],
    [0.07, 'usd', 7],
    [1.15, 'usd', 115],
    [199, 'usd', 19900],
    [0, 'usd', 0],
    [12, 'eur', 1200],
    [1500, 'jpy', 1500],
    [1500.4, 'jpy', 1500],
    [1500.5, 'jpy', 1501],
    [12.345, 'kwd', 12345],
    // More digits than the currency has: half-up on the decimal as written.
    [1.005, 'usd', 101],
    [1.004, 'usd', 100],
    [19.999, 'usd', 2000],
    [1e-7, 'usd', 0],
    [1e21, 'jpy', undefined],
  ])('%d %s is %s minor units', (amount, currency, expected) => {
    if (expected === undefined) expect(() => toMinor(amount, currency)).toThrow(RangeError);
    else expect(toMinor(amount, currency)).toBe(expected);
  });

  test('refuses negative, infinite and NaN amounts', () => {
    for (const bad of [-1, -0.01, Infinity, NaN]) expect(() => toMinor(bad, 'usd')).toThrow(RangeError);
  });

  test('agrees with Math.round(x * 100) on every amount with at most two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), (cents) => {
        const amount = cents / 100;
        expect(toMinor(amount, 'usd')).toBe(Math.round(amount * 100));
        expect(toMinor(amount, 'usd')).toBe(cents);
      }),
    );
  });
});

describe('fromMinor', () => {
  test.each([
    [1999, 'usd', 19.99],
    [7, 'usd', 0.07],
    [1500, 'jpy', 1500],
    [12345, 'kwd', 12.345],
    [0, 'eur', 0],
  ])('%i %s is %d', (minor, currency, expected) => {
    expect(fromMinor(minor, currency)).toBe(expected);
  });

  test('refuses fractions of a minor unit', () => {
    expect(() => fromMinor(19.5, 'usd')).toThrow(RangeError);
  });

  test('round-trips with toMinor in two-, zero- and three-digit currencies', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000_000 }), fc.constantFrom('usd', 'jpy', 'kwd'), (minor, currency) => {
        const major = fromMinor(minor, currency);
        expect(toMinor(major, currency)).toBe(minor);
        expect(fromMinor(toMinor(major, currency), currency)).toBe(major);
      }),
    );
  });
});

describe('percentOf (tax, half-up to the minor unit)', () => {
  test.each([
    ['19.99 at 7.5% is 1.49925', 1999, 7.5, 150],
    ['19.80 at 7.5% is exactly 1.485: half goes up', 1980, 7.5, 149],
    ['19.90 at 7.5% is 1.4925', 1990, 7.5, 149],
    ['7.50 at 4.6% is exactly 0.345, where floating point says 0.34499…', 750, 4.6, 35],
    ['27.50 at 1.4% is exactly 0.385, where floating point says 0.38499…', 2750, 1.4, 39],
    ['12.00 at 8.25%', 1200, 8.25, 99],
    ['10.00 at 8.875%', 1000, 8.875, 89],
    ['0.01 at 50% is half a cent: up', 1, 50, 1],
    ['0.01 at 49.9% is less than half: down', 1, 49.9, 0],
    ['anything at 0%', 1999, 0, 0],
    ['at 100%', 1999, 100, 1999],
    ['¥999 at 7.5% is ¥74.925', 999, 7.5, 75],
    ['nothing at 20%', 0, 20, 0],
  ])('%s', (_name, minor, percentage, expected) => {
    expect(percentOf(minor, percentage)).toBe(expected);
  });

  test('refuses fractional or negative amounts and negative percentages', () => {
    expect(() => percentOf(19.99, 10)).toThrow(RangeError);
    expect(() => percentOf(-1, 10)).toThrow(RangeError);
    expect(() => percentOf(100, -1)).toThrow(RangeError);
  });

  test('is the exact product rounded half-up, for percentages with up to three decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 100_000 }), (minor, thousandths) => {
        const percentage = thousandths / 1000;
        // Exact: minor * thousandths / 100_000, halves up; in integers only.
        const numerator = BigInt(minor) * BigInt(thousandths);
        const expected = Number((2n * numerator + 100_000n) / 200_000n);
        expect(percentOf(minor, percentage)).toBe(expected);
      }),
    );
  });
});
