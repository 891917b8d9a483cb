/** The fixture's time: a fixed "now", the units tests count in, and a clock tests move by hand. */
import type { Clock } from '../../../src/service/domain/clock';

/** 2026-02-01T12:00:00Z: the fixture's "now" until a test moves its clock. */
export const FIXTURE_NOW = Date.UTC(2026, 1, 1, 12, 0, 0);
export const SECOND = 1000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** A clock that stands still until told to move. */
export interface FixtureClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function fixtureClock(start = FIXTURE_NOW): FixtureClock {
  let now = start;
  return Object.assign(() => now, {
    set: (ms: number) => void (now = ms),
    advance: (ms: number) => void (now += ms),
  });
}
