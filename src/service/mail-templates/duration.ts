/**
 * How long a link or code works, in the largest whole unit: 30 → 30 minutes, 60 → 1 hour,
 * 1440 → 1 day. "1440 minutes" is correct but makes the reader do the sums.
 */
export type DurationUnit = 'minute' | 'hour' | 'day';

export function toDuration(minutes: number): { count: number; unit: DurationUnit } {
  // Less than a minute, or not a number, still reads as "1 minute" rather than "0" or "NaN".
  const whole = Math.max(1, Math.round(minutes) || 0);
  if (whole % 1440 === 0) return { count: whole / 1440, unit: 'day' };
  if (whole % 60 === 0) return { count: whole / 60, unit: 'hour' };
  return { count: whole, unit: 'minute' };
}
