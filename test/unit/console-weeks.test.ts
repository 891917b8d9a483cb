/** The owner console's weeks (src/console/metrics/weeks.ts): Monday 00:00 UTC to the next, as ISO weeks run. */
import { expect, test } from 'vitest';
import { isoDay, lastWeeks, WEEK_MS, weekStart, WeeklyCounts } from '../../src/console/metrics/weeks';

const at = (iso: string) => Date.parse(iso);

test('a week starts on Monday at 00:00 UTC, whatever the day and hour', () => {
  expect(isoDay(weekStart(at('2026-03-02T00:00:00Z')))).toBe('2026-03-02'); // a Monday
  expect(isoDay(weekStart(at('2026-03-08T23:59:59.999Z')))).toBe('2026-03-02'); // its Sunday, last moment
  expect(isoDay(weekStart(at('2026-03-09T00:00:00Z')))).toBe('2026-03-09');
  expect(isoDay(weekStart(at('2026-01-01T12:00:00Z')))).toBe('2025-12-29'); // a week across the new year
  expect(isoDay(weekStart(at('1970-01-01T00:00:00Z')))).toBe('1969-12-29'); // a Thursday, before the epoch's Monday
  // A time with a zone counts by its UTC moment: Monday 01:00 in Berlin is Sunday in UTC.
  expect(isoDay(weekStart(at('2026-03-09T01:00:00+02:00')))).toBe('2026-03-02');
});

test('the last N weeks end with the one now is in, oldest first, a week apart', () => {
  const weeks = lastWeeks(at('2026-03-04T10:00:00Z'), 3);
  expect(weeks.map(isoDay)).toEqual(['2026-02-16', '2026-02-23', '2026-03-02']);
  expect(weeks[1]! - weeks[0]!).toBe(WEEK_MS);
});

test('counts land in their week; times before the first week or after the last are counted apart', () => {
  const counts = new WeeklyCounts(lastWeeks(at('2026-03-04T10:00:00Z'), 2));
  counts.add(at('2026-02-23T00:00:00Z'));
  counts.add(at('2026-03-01T23:59:59Z'));
  counts.add(at('2026-03-02T00:00:00Z'));
  counts.add(at('2026-03-04T09:00:00Z'), 3);
  counts.add(at('2026-02-22T23:59:59Z')); // the Sunday before
  counts.add(at('2026-03-09T00:00:00Z')); // next week
  expect(counts.values()).toEqual([2, 4]);
  expect(counts.outside).toBe(2);
});
