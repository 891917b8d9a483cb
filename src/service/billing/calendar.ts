/**
 * Calendar arithmetic for plans, in UTC: intervals, fixed billing dates, expiries.
 *
 * Months have different lengths, so "one month after 31 January" has no exact answer. We clamp:
 * a day the target month lacks falls on that month's last day (28 or 29 February, 30 April),
 * never spills into the next month as `Date#setUTCMonth` does (31 January + 1 month would be
 * 3 March, skipping February altogether). The same holds for years: 29 February + 1 year is
 * 28 February. The time of day is kept.
 */
import type { BillingDate, IntervalUnit, PlanExpiration } from '../../contract/admin';
import type { EpochMs } from '../store/records';

export const DAY_MS = 86_400_000;

/** Days in a month; `month` is 0-based and may overflow (12 is next January). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * `count` days, weeks, months or years after `ms`. For months and years the result lands on
 * `dayOfMonth` (by default the day of `ms`), clamped to the target month's last day.
 * Passing the day a schedule started on keeps a long schedule from drifting: 31 Jan → 28 Feb →
 * 31 Mar, not 28 Mar.
 */
export function addInterval(ms: EpochMs, count: number, unit: IntervalUnit, dayOfMonth?: number): EpochMs {
  // UTC days have no daylight-saving changes: a day is always DAY_MS.
  if (unit === 'day') return ms + count * DAY_MS;
  if (unit === 'week') return ms + 7 * count * DAY_MS;
  const d = new Date(ms);
  const startOfDay = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const firstOfTarget = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + (unit === 'month' ? count : 12 * count), 1));
  const year = firstOfTarget.getUTCFullYear();
  const month = firstOfTarget.getUTCMonth();
  const day = Math.min(dayOfMonth ?? d.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month, day) + (ms - startOfDay);
}

/**
 * The first fixed billing date after `now`: the day of every month, or the day and month of
 * every year, at 00:00 UTC; a day the month lacks (31 in April, 29 February off leap years)
 * falls on its last day.
 */
export function nextFixedBillingDate(now: EpochMs, date: BillingDate): EpochMs {
  const start = new Date(now);
  for (let step = 0; step <= 48; step++) {
    const year = start.getUTCFullYear() + Math.floor((start.getUTCMonth() + step) / 12);
    const month = (start.getUTCMonth() + step) % 12;
    if (date.month !== undefined && month !== date.month - 1) continue;
    const candidate = Date.UTC(year, month, Math.min(date.day, daysInMonth(year, month)));
    if (candidate > now) return candidate;
  }
  throw new Error(`no billing date for ${JSON.stringify(date)}`);
}

/** When access from a plan started at `start` ends under its PlanExpiration; undefined for `none`. */
export function expiryFrom(expiration: PlanExpiration, start: EpochMs): EpochMs | undefined {
  if (expiration.mode === 'interval') return addInterval(start, expiration.count, expiration.unit);
  if (expiration.mode === 'specificTime') return Date.parse(expiration.expiresAt);
  return undefined;
}
