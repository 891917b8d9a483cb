/**
 * The SQLite store's shared limits (issue 16, decision 0025). A rate token is one upsert: SQLite
 * has one writer at a time, so concurrent takes from any number of processes are serialized
 * and each sees the one before. A throttled key's read, rules (../throttle-state) and write run
 * in one IMMEDIATE transaction, which takes the write lock first, so no other process's check
 * comes between them.
 *
 * Written around `conn.write`: these rows are no input of the cached aggregates, so they do not
 * make this connection's metrics be computed again.
 */
import type { SqliteConnection } from './connection';
import type { AttemptOutcome, ThrottleRule } from '../records';
import { beginAttempt, endAttempt, throttleExpiresAt, type ThrottleState } from '../throttle-state';
import type { LimitMethods } from '../store';

export function sqliteLimits({ db }: SqliteConnection): LimitMethods {
  /*
   * SET expressions read the row as it was, so `allowed` and `tat` are decided from the same
   * state. A refused take leaves `tat`, and RETURNING hands it back to reckon the wait with.
   */
  const take = db.prepare(
    `INSERT INTO rate_cells (key, tat, allowed) VALUES (@key, @now + @interval, 1)
     ON CONFLICT (key) DO UPDATE SET
       allowed = max(tat, @now) + @interval - @now <= @window,
       tat = CASE WHEN max(tat, @now) + @interval - @now <= @window THEN max(tat, @now) + @interval ELSE tat END
     RETURNING tat, allowed`,
  );
  const readThrottle = db.prepare('SELECT failures, pending, pending_until FROM throttles WHERE key = ?');
  const writeThrottle = db.prepare(
    `INSERT INTO throttles (key, failures, pending, pending_until, expires_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, pending = excluded.pending,
       pending_until = excluded.pending_until, expires_at = excluded.expires_at`,
  );
  const clear = db.prepare(`UPDATE throttles SET failures = '[]' WHERE key = ?`);
  const sweeps = [
    db.prepare('DELETE FROM rate_cells WHERE tat <= ?'),
    db.prepare('DELETE FROM throttles WHERE expires_at <= ?'),
    db.prepare('DELETE FROM leases WHERE expires_at <= ?'),
  ];

  const stateOf = (key: string): ThrottleState | undefined => {
    const row = readThrottle.get(key) as { failures: string; pending: number; pending_until: number } | undefined;
    return row && { failures: JSON.parse(row.failures) as number[], pending: row.pending, pendingUntil: row.pending_until };
  };
  const save = (key: string, state: ThrottleState, rule: ThrottleRule) =>
    writeThrottle.run(key, JSON.stringify(state.failures), state.pending, state.pendingUntil, throttleExpiresAt(state, rule));

  const begin = db.transaction((key: string, now: number, rule: ThrottleRule) => {
    const { state, decision } = beginAttempt(stateOf(key), now, rule);
    if (decision.allowed) save(key, state!, rule);
    return decision;
  });
  const end = db.transaction((key: string, outcome: AttemptOutcome, now: number, rule: ThrottleRule) => {
    save(key, endAttempt(stateOf(key), outcome, now, rule), rule);
  });
  const sweep = db.transaction((now: number) => sweeps.reduce((n, statement) => n + statement.run(now).changes, 0));

  return {
    async takeRateToken(key, now, rate) {
      const interval = rate.windowMs / rate.limit;
      const { tat, allowed } = take.get({ key, now, interval, window: rate.windowMs }) as { tat: number; allowed: number };
      if (allowed) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((tat + interval - rate.windowMs - now) / 1000)) };
    },
    beginThrottledAttempt: async (key, now, rule) => begin.immediate(key, now, rule),
    endThrottledAttempt: async (key, outcome, now, rule) => end.immediate(key, outcome, now, rule),
    clearThrottle: async (key) => void clear.run(key),
    deleteExpiredLimits: async (now) => sweep.immediate(now),
  };
}
