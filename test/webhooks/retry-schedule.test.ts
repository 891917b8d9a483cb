/** The retry schedule and the disabling rule, at their edges. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, RETRY_WAITS_MS, RETRY_WINDOW_MS, shouldDisable } from '../../src/service/webhooks';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const first = Date.UTC(2026, 4, 1, 12, 0, 0);

test('the waits are 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h each', () => {
  expect(RETRY_WAITS_MS).toEqual([5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, ...new Array(6).fill(10 * HOUR)]);
  expect(Object.isFrozen(RETRY_WAITS_MS)).toBe(true);
});

test('the schedule spans about three days, and one more 10 h wait would pass three days', () => {
  const total = RETRY_WAITS_MS.reduce((sum, wait) => sum + wait, 0);
  expect(total).toBe(2 * DAY + 19 * HOUR + 35 * MINUTE + 5 * SECOND);
  expect(total).toBeLessThanOrEqual(RETRY_WINDOW_MS);
  expect(total + 10 * HOUR).toBeGreaterThan(RETRY_WINDOW_MS);
  expect(RETRY_WINDOW_MS).toBe(3 * DAY);
});

test('the next attempt is due the sum of the waits so far after the first', () => {
  expect(nextAttemptAt(first, 0)).toBe(first);
  expect(nextAttemptAt(first, 1)).toBe(first + 5 * SECOND);
  expect(nextAttemptAt(first, 2)).toBe(first + 5 * MINUTE + 5 * SECOND);
  expect(nextAttemptAt(first, 3)).toBe(first + 35 * MINUTE + 5 * SECOND);
  expect(nextAttemptAt(first, 6)).toBe(first + 17 * HOUR + 35 * MINUTE + 5 * SECOND);
});

test('after the twelfth attempt the schedule is over', () => {
  expect(nextAttemptAt(first, 11)).toBe(first + 67 * HOUR + 35 * MINUTE + 5 * SECOND);
  expect(nextAttemptAt(first, 12)).toBeUndefined();
  expect(nextAttemptAt(first, 1000)).toBeUndefined();
});

test('attempts come due in order, each one wait after the one before, within three days', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: RETRY_WAITS_MS.length }), (made) => {
      const next = nextAttemptAt(first, made)!;
      expect(next - nextAttemptAt(first, made - 1)!).toBe(RETRY_WAITS_MS[made - 1]);
      expect(next - first).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    }),
  );
});

test.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('an attempt count of %s is a mistake', (made) => {
  expect(() => nextAttemptAt(first, made)).toThrow(RangeError);
});

test('an endpoint is disabled once it has been failing for five days, not a millisecond before', () => {
  expect(DISABLE_AFTER_FAILING_MS).toBe(5 * DAY);
  expect(shouldDisable(first, first)).toBe(false);
  expect(shouldDisable(first, first + 5 * DAY - 1)).toBe(false);
  expect(shouldDisable(first, first + 5 * DAY)).toBe(true);
  expect(shouldDisable(first, first + 30 * DAY)).toBe(true);
});

test('a failing streak lasts longer than one message schedule before the endpoint is disabled', () => {
  expect(DISABLE_AFTER_FAILING_MS).toBeGreaterThan(RETRY_WAITS_MS.reduce((sum, wait) => sum + wait, 0));
});
