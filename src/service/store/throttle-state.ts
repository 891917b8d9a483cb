/**
 * The throttle's rules over one key's state (Store.beginThrottledAttempt and friends), as pure
 * functions: the memory store applies them to a Map, the SQLite store inside one write
 * transaction, so both answer alike. A PostgreSQL store says the same in one upsert statement
 * (docs/decisions/0025-shared-limits-and-workers.md).
 */
import type { AttemptOutcome, EpochMs, LimitDecision, ThrottleRule } from './records';

export interface ThrottleState {
  /** Failure times, oldest first; at most `rule.maxFailures`. */
  failures: EpochMs[];
  /** Checks under way, counted while `pendingUntil > now` (a dead process's checks lapse then). */
  pending: number;
  pendingUntil: EpochMs;
}

const failuresIn = (state: ThrottleState | undefined, now: EpochMs, rule: ThrottleRule) =>
  (state?.failures ?? []).filter((t) => t > now - rule.windowMs);
const pendingAt = (state: ThrottleState | undefined, now: EpochMs) => (state && state.pendingUntil > now ? state.pending : 0);

/** Counts a check from its start when the allowance has room: the new state, and the answer. */
export function beginAttempt(
  state: ThrottleState | undefined,
  now: EpochMs,
  rule: ThrottleRule,
): { state: ThrottleState | undefined; decision: LimitDecision } {
  const failures = failuresIn(state, now, rule);
  const pending = pendingAt(state, now);
  if (failures.length + pending < rule.maxFailures) {
    return { state: { failures, pending: pending + 1, pendingUntil: now + rule.pendingMs }, decision: { allowed: true } };
  }
  // Failures alone fill the allowance: it frees up as the oldest leaves the window. Otherwise
  // checks under way fill it, and they end within a second or two, one way or the other.
  const retryAfterSeconds =
    failures.length >= rule.maxFailures ? Math.max(1, Math.ceil((failures[0]! + rule.windowMs - now) / 1000)) : 1;
  return { state, decision: { allowed: false, retryAfterSeconds } };
}

/** A check ended: no longer under way; a success forgets the failures, a failure adds one. */
export function endAttempt(state: ThrottleState | undefined, outcome: AttemptOutcome, now: EpochMs, rule: ThrottleRule): ThrottleState {
  const pending = Math.max(0, pendingAt(state, now) - 1);
  const pendingUntil = pending > 0 ? state!.pendingUntil : 0;
  const kept = outcome === 'succeeded' ? [] : failuresIn(state, now, rule);
  // Sorted: processes' clocks may differ by a little, and the oldest kept one dates the wait.
  const failures = outcome === 'failed' ? [...kept, now].sort((a, b) => a - b).slice(-rule.maxFailures) : kept;
  return { failures, pending, pendingUntil };
}

/** When the state stops limiting anything: its newest failure leaves the window and its checks lapse. */
export function throttleExpiresAt(state: ThrottleState, rule: ThrottleRule): EpochMs {
  const newest = state.failures.at(-1);
  return Math.max(state.pending > 0 ? state.pendingUntil : 0, newest === undefined ? 0 : newest + rule.windowMs);
}
