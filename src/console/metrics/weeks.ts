/**
 * Weeks for the overview's charts: Monday 00:00 UTC to the next, as ISO 8601 weeks run. UTC and
 * not the browser's zone, so two owners in different places see the same numbers, and the
 * numbers match the API's own time stamps (which are UTC).
 */
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** The start of the week (Monday 00:00 UTC) that `ms` falls in. 1 January 1970 was a Thursday. */
export function weekStart(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const sinceMonday = (((day + 3) % 7) + 7) % 7;
  return (day - sinceMonday) * DAY_MS;
}

/** The starts of the last `count` weeks up to the one `now` is in, oldest first. */
export function lastWeeks(now: number, count: number): number[] {
  const current = weekStart(now);
  return Array.from({ length: count }, (_, i) => current - (count - 1 - i) * WEEK_MS);
}

/** Counts of things per week over fixed weeks; things outside them are counted apart (`outside`). */
export class WeeklyCounts {
  private readonly counts: number[];
  outside = 0;

  constructor(readonly weeks: readonly number[]) {
    this.counts = weeks.map(() => 0);
  }

  add(ms: number, by = 1): void {
    const first = this.weeks[0];
    const index = first === undefined ? -1 : Math.floor((weekStart(ms) - first) / WEEK_MS);
    if (index >= 0 && index < this.counts.length) this.counts[index]! += by;
    else this.outside += by;
  }

  values(): number[] {
    return [...this.counts];
  }
}

/** `2026-03-02`: a week by its Monday, as the charts' tables name it. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
