/**
 * The memory store's shared limits (issue 16): rate cells and throttled keys in Maps, with the
 * rules the SQLite store applies in its statements. One process only, so every method is one
 * synchronous step: nothing can come between its read and its write.
 */
import { beginAttempt, endAttempt, throttleExpiresAt, type ThrottleState } from '../throttle-state';
import type { LimitMethods } from '../store';

/** Idle entries are swept every this many calls, as well as by deleteExpiredLimits. */
const SWEEP_EVERY = 10_000;

export interface MemoryLimits {
  methods: Omit<LimitMethods, 'deleteExpiredLimits'>;
  deleteExpired(now: number): number;
}

export function memoryLimits(): MemoryLimits {
  /** Theoretical arrival time per key (GCRA). */
  const cells = new Map<string, number>();
  const throttles = new Map<string, { state: ThrottleState; expiresAt: number }>();
  let calls = 0;

  function deleteExpired(now: number): number {
    let deleted = 0;
    for (const [key, tat] of cells) if (tat <= now && cells.delete(key)) deleted++;
    for (const [key, entry] of throttles) if (entry.expiresAt <= now && throttles.delete(key)) deleted++;
    return deleted;
  }
  const sweep = (now: number) => {
    if (++calls % SWEEP_EVERY === 0) deleteExpired(now);
  };

  return {
    deleteExpired,
    methods: {
      async takeRateToken(key, now, rate) {
        sweep(now);
        const interval = rate.windowMs / rate.limit;
        const tat = cells.get(key) ?? now;
        const next = Math.max(tat, now) + interval;
        if (next - now > rate.windowMs) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((next - rate.windowMs - now) / 1000)) };
        }
        cells.set(key, next);
        return { allowed: true };
      },

      async beginThrottledAttempt(key, now, rule) {
        sweep(now);
        const { state, decision } = beginAttempt(throttles.get(key)?.state, now, rule);
        if (decision.allowed) throttles.set(key, { state: state!, expiresAt: throttleExpiresAt(state!, rule) });
        return decision;
      },

      async endThrottledAttempt(key, outcome, now, rule) {
        const state = endAttempt(throttles.get(key)?.state, outcome, now, rule);
        throttles.set(key, { state, expiresAt: throttleExpiresAt(state, rule) });
      },

      async clearThrottle(key) {
        const entry = throttles.get(key);
        if (entry) entry.state = { ...entry.state, failures: [] };
      },
    },
  };
}
