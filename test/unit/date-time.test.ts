import { expect, test } from 'vitest';
import { parseDateTime } from '../../src/service/admin/params';

test('reads RFC 3339 date-times with any zone, and plain dates as UTC midnight', () => {
  expect(parseDateTime('2026-01-31T00:00:00Z')).toBe(Date.UTC(2026, 0, 31));
  expect(parseDateTime('2026-01-31t10:20:30z')).toBe(Date.UTC(2026, 0, 31, 10, 20, 30));
  expect(parseDateTime('2026-01-31T10:20:30.123Z')).toBe(Date.UTC(2026, 0, 31, 10, 20, 30, 123));
  expect(parseDateTime('2026-01-31T10:20:30.1Z')).toBe(Date.UTC(2026, 0, 31, 10, 20, 30, 100));
  expect(parseDateTime('2026-01-31T10:20:30.123000000000Z')).toBe(Date.UTC(2026, 0, 31, 10, 20, 30, 123));
  expect(parseDateTime('0000-02-29')).toBe(new Date('0000-02-29T00:00:00Z').getTime());
  expect(parseDateTime('2026-01-31T02:00:00+02:00')).toBe(Date.UTC(2026, 0, 31));
  expect(parseDateTime('2026-01-30T19:00:00-05:00')).toBe(Date.UTC(2026, 0, 31));
  expect(parseDateTime('2026-01-31')).toBe(Date.UTC(2026, 0, 31));
  expect(parseDateTime('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
});

test('digits finer than a millisecond round up, so bounds keep their meaning on whole-millisecond times', () => {
  expect(parseDateTime('2026-01-31T10:20:30.123456Z')).toBe(Date.UTC(2026, 0, 31, 10, 20, 30, 124));
  expect(parseDateTime('2026-01-31T10:20:30.000000001Z')).toBe(Date.UTC(2026, 0, 31, 10, 20, 30, 1));
});

test('refuses dates that do not exist and anything that is not RFC 3339', () => {
  for (const bad of [
    '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-31T24:00:00Z', '2026-01-31T10:60:00Z',
    '2026-01-31T10:00:60Z', '2026-01-31T10:00:00', '2026-01-31T10:00Z', '31/01/2026', '1706659200', 'yesterday', '',
    ' 2026-01-31', '2026-1-31', '+2026-01-31', '2026-01-31T10:00:00+24:00', '2026-01-31T10:00:00+01:60', '2026-01-31T10:00:00.Z',
    '1900-02-29',
  ]) {
    expect(parseDateTime(bad), bad).toBeUndefined();
  }
});
