/**
 * The PostgreSQL store's shared limits and leases (issue 16; ../sqlite/limits and ../sqlite/leases
 * ported). Every call that decides is one INSERT … ON CONFLICT DO UPDATE on the pool: PostgreSQL
 * locks the key's row, and at READ COMMITTED evaluates the SET and WHERE on the row as the
 * previous holder of the lock left it, so concurrent calls from any number of processes get
 * exactly the allowance between them, with no transaction to retry.
 *
 * The throttle's rules are ../throttle-state's, said in SQL (its header promises one upsert):
 * failures within the window are kept, checks under way count until `pending_until`. Only the
 * wait of a refused check is reckoned in TypeScript, with those functions, from the row read
 * after: the refusal itself was decided in the statement.
 */
import type { LimitDecision } from '../records';
import { beginAttempt } from '../throttle-state';
import type { LeaseMethods, LimitMethods } from '../store';
import type { PostgresConnection } from './connection';

/*
 * GCRA: allowed when max(tat, now) + interval - now <= window, which moves `tat` there; a
 * refusal leaves `tat`, and RETURNING hands it back to reckon the wait with. A new key's first
 * take is allowed, as SQLite's insert is.
 */
const TAKE = `WITH a AS (SELECT ?::text AS key, ?::float8 AS now, ?::float8 AS step, ?::float8 AS win)
  INSERT INTO rate_cells AS c (key, tat, allowed) SELECT key, now + step, 1 FROM a
  ON CONFLICT (key) DO UPDATE SET (tat, allowed) = (
    SELECT CASE WHEN s.next - a.now <= a.win THEN s.next ELSE c.tat END, (s.next - a.now <= a.win)::integer
    FROM a, LATERAL (SELECT greatest(c.tat, a.now) + a.step AS next) s)
  RETURNING tat, allowed`;

/** The key's failures within the window, oldest first, and its checks under way (`t`: the row; `a`: the arguments). */
const STATE = `SELECT ARRAY(SELECT f::bigint FROM jsonb_array_elements_text(t.failures::jsonb) AS f WHERE f::bigint > a.now - a.win ORDER BY 1)
    AS failures, CASE WHEN t.pending_until > a.now THEN t.pending ELSE 0 END AS pending`;
/** A bigint[] of failure times as the column keeps them: a JSON array, as JSON.stringify writes it. */
const asJson = (failures: string) => `'[' || array_to_string(${failures}, ',') || ']'`;

/** beginAttempt: room for one more check counts it from now; a full allowance writes nothing and RETURNING gives no row. */
const BEGIN = `WITH a AS (SELECT ?::text AS key, ?::bigint AS now, ?::bigint AS win, ?::bigint AS pend, ?::integer AS max)
  INSERT INTO throttles AS t (key, failures, pending, pending_until, expires_at)
  SELECT key, '[]', 1, now + pend, now + pend FROM a WHERE max > 0
  ON CONFLICT (key) DO UPDATE SET (failures, pending, pending_until, expires_at) = (
    SELECT ${asJson('s.failures')}, s.pending + 1, a.now + a.pend,
      greatest(a.now + a.pend, coalesce(s.failures[cardinality(s.failures)] + a.win, 0))
    FROM a, LATERAL (${STATE}) s)
  WHERE (SELECT cardinality(s.failures) + s.pending < a.max FROM a, LATERAL (${STATE}) s)
  RETURNING 1`;

/**
 * endAttempt: one check fewer under way; a success forgets the failures, a failure adds `now`
 * and keeps the newest `max`. A key without a row gets one, as SQLite's save writes it.
 */
const END = `WITH a AS (SELECT ?::text AS key, ?::bigint AS now, ?::bigint AS win, ?::integer AS max, ?::text AS outcome)
  INSERT INTO throttles AS t (key, failures, pending, pending_until, expires_at)
  SELECT key, CASE WHEN outcome = 'failed' THEN '[' || now || ']' ELSE '[]' END, 0, 0,
    CASE WHEN outcome = 'failed' THEN now + win ELSE 0 END FROM a
  ON CONFLICT (key) DO UPDATE SET (failures, pending, pending_until, expires_at) = (
    SELECT ${asJson('n.failures')}, p.pending, p.until,
      greatest(p.until, coalesce(n.failures[cardinality(n.failures)] + a.win, 0))
    FROM a, LATERAL (${STATE}) s,
      LATERAL (SELECT greatest(0, s.pending - 1) AS pending, CASE WHEN s.pending > 1 THEN t.pending_until ELSE 0 END AS until) p,
      LATERAL (SELECT ARRAY(SELECT f FROM (
        SELECT f FROM (SELECT unnest(s.failures) AS f WHERE a.outcome <> 'succeeded' UNION ALL SELECT a.now WHERE a.outcome = 'failed') AS kept
        ORDER BY f DESC LIMIT CASE WHEN a.outcome = 'failed' THEN a.max END) AS newest ORDER BY f) AS failures) n)`;

/** Each table's rows that limit nothing at `now`, in one statement; answers how many. */
const SWEEP = `WITH r AS (DELETE FROM rate_cells WHERE tat <= ? RETURNING 1),
    t AS (DELETE FROM throttles WHERE expires_at <= ? RETURNING 1),
    l AS (DELETE FROM leases WHERE expires_at <= ? RETURNING 1)
  SELECT (SELECT count(*) FROM r) + (SELECT count(*) FROM t) + (SELECT count(*) FROM l) AS n`;

/** Writes only when the lease is free, lapsed or the holder's own: a row comes back exactly when the caller holds it now. */
const TAKE_LEASE = `INSERT INTO leases AS l (name, holder, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
    WHERE l.holder = excluded.holder OR l.expires_at <= ?
  RETURNING holder`;

export function postgresLimits(conn: PostgresConnection): LimitMethods {
  return {
    async takeRateToken(key, now, rate) {
      const interval = rate.windowMs / rate.limit;
      const { tat, allowed } = (await conn.first(TAKE, key, now, interval, rate.windowMs))! as { tat: number; allowed: number };
      if (allowed) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((tat + interval - rate.windowMs - now) / 1000)) };
    },

    async beginThrottledAttempt(key, now, rule): Promise<LimitDecision> {
      if (await conn.first(BEGIN, key, now, rule.windowMs, rule.pendingMs, rule.maxFailures)) return { allowed: true };
      // Refused in the statement; the wait from the row as it is now (a check that ended since
      // may have made room: then the next try is a second away).
      const row = await conn.first('SELECT failures, pending, pending_until FROM throttles WHERE key = ?', key);
      const state = row && { failures: JSON.parse(row.failures as string) as number[], pending: row.pending as number, pendingUntil: row.pending_until as number };
      const { decision } = beginAttempt(state, now, rule);
      return { allowed: false, retryAfterSeconds: decision.allowed ? 1 : decision.retryAfterSeconds };
    },

    async endThrottledAttempt(key, outcome, now, rule) {
      await conn.run(END, key, now, rule.windowMs, rule.maxFailures, outcome);
    },
    async clearThrottle(key) {
      await conn.run(`UPDATE throttles SET failures = '[]' WHERE key = ?`, key);
    },
    deleteExpiredLimits: async (now) => (await conn.first(SWEEP, now, now, now))!.n as number,
  };
}

export function postgresLeases(conn: PostgresConnection): LeaseMethods {
  return {
    tryLease: async (name, holder, now, leaseMs) => (await conn.first(TAKE_LEASE, name, holder, now + leaseMs, now)) !== undefined,
    releaseLease: async (name, holder) => (await conn.run('DELETE FROM leases WHERE name = ? AND holder = ?', name, holder)) > 0,
  };
}
