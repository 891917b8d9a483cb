import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isoTime } from '../../src/service/http/json';

const iso = (ms: number) => new Date(ms).toISOString();

test('writes every instant exactly as Date#toISOString does', () => {
  // Date's whole range (±8.64e15 ms): years 1000–9999 by arithmetic, the rest by Date itself.
  fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => isoTime(ms) === iso(ms)), { numRuns: 20_000 });
  fc.assert(fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (ms) => isoTime(ms) === iso(ms)), {
    numRuns: 50_000,
  });
});

test('the edges: the epoch, leap days, century and 400-year leap rules, the ends of the four-digit years', () => {
  const instants = [
    0, -1, 1, Date.UTC(1969, 11, 31, 23, 59, 59, 999),
    Date.UTC(2000, 1, 29), Date.UTC(2000, 2, 1) - 1, Date.UTC(1900, 1, 28, 12), Date.UTC(1900, 2, 1), Date.UTC(2100, 1, 28, 23, 59, 59, 999),
    Date.UTC(2024, 1, 29, 8, 30), Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1),
    Date.UTC(1000, 0, 1), Date.UTC(1000, 0, 1) - 1, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1,
  ];
  for (const ms of instants) expect(isoTime(ms), String(ms)).toBe(iso(ms));
});

test('what is no whole millisecond goes to Date too: fractions are cut as Date cuts them, NaN throws as Date throws', () => {
  expect(isoTime(1.5)).toBe(iso(1.5));
  expect(isoTime(-0.5)).toBe(iso(-0.5));
  expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
});
