/**
 * Contract: state every process shares (issue 16, decision 0025). Rate cells (GCRA) give bursts
 * of the limit and exact waits; a throttled key counts a check from its start, failures within
 * the window and checks under way alike; leases have one holder at a time. Concurrent calls get
 * exactly the allowance between them, whatever the store runs them on. What no longer limits
 * anything is swept.
 */
import { expect, test } from 'vitest';
import type { LimitDecision, ThrottleRule } from '../../src/service/store/records';
import { type Ctx, T0 } from './fixtures';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const RULE: ThrottleRule = { maxFailures: 5, windowMs: 15 * MINUTE, pendingMs: MINUTE };
const allowedOf = (decisions: LimitDecision[]) => decisions.filter((d) => d.allowed).length;

export function limitTests(ctx: Ctx): void {
  const rate = { limit: 3, windowMs: MINUTE };

  test('takeRateToken: a burst of the limit, then refused with the exact whole-second wait; allowance comes back one interval at a time', async () => {
    const take = (now: number) => ctx.store.takeRateToken('admin-key:1', now, rate);
    for (let i = 0; i < 3; i++) expect(await take(T0)).toEqual({ allowed: true });
    // One request's worth comes back every 20 s.
    expect(await take(T0)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(await take(T0 + 19_001)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await take(T0 + 20_000)).toEqual({ allowed: true });
    expect(await take(T0 + 20_000)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    // A whole window after the last, the whole burst again.
    for (let i = 0; i < 3; i++) expect(await take(T0 + 20_000 + MINUTE)).toEqual({ allowed: true });
    expect((await take(T0 + 20_000 + MINUTE)).allowed).toBe(false);
  });

  test('takeRateToken: a refused take uses nothing up, keys are apart, the wait is never below a second, the rate is the caller\'s', async () => {
    const one = { limit: 1, windowMs: SECOND };
    expect(await ctx.store.takeRateToken('k:1', T0, one)).toEqual({ allowed: true });
    for (let t = 0; t < SECOND; t += 100) expect((await ctx.store.takeRateToken('k:1', T0 + t, one)).allowed).toBe(false);
    expect((await ctx.store.takeRateToken('k:1', T0 + SECOND, one)).allowed).toBe(true);
    expect((await ctx.store.takeRateToken('k:2', T0, one)).allowed).toBe(true);
    expect((await ctx.store.takeRateToken('other:1', T0, one)).allowed).toBe(true);
    const fast = { limit: 10, windowMs: 100 };
    for (let i = 0; i < 10; i++) await ctx.store.takeRateToken('fast', T0, fast);
    expect(await ctx.store.takeRateToken('fast', T0, fast)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // A rate with an interval that is no whole number of ms (60 s / 7) keeps its burst too.
    const seventh = { limit: 7, windowMs: MINUTE };
    const takes = [];
    for (let i = 0; i < 8; i++) takes.push(await ctx.store.takeRateToken('seventh', T0 + 123, seventh));
    expect(allowedOf(takes)).toBe(7);
  });

  test('takeRateToken: 200 takes at once against 50 per 10 s: exactly 50 allowed, the others told to wait', async () => {
    const fifty = { limit: 50, windowMs: 10 * SECOND };
    const decisions = await Promise.all(Array.from({ length: 200 }, () => ctx.store.takeRateToken('admin-key:9', T0, fifty)));
    expect(allowedOf(decisions)).toBe(50);
    for (const d of decisions) if (!d.allowed) expect(d.retryAfterSeconds).toBe(1);
  });

  test('beginThrottledAttempt: 60 checks at once on one key: exactly 5 go ahead, the rest wait a second for the checks under way', async () => {
    const decisions = await Promise.all(Array.from({ length: 60 }, () => ctx.store.beginThrottledAttempt('sign-in:1:ann@example.com', T0, RULE)));
    expect(allowedOf(decisions)).toBe(5);
    for (const d of decisions) if (!d.allowed) expect(d.retryAfterSeconds).toBe(1);
    // Another key is not touched.
    expect(await ctx.store.beginThrottledAttempt('sign-in:1:bob@example.com', T0, RULE)).toEqual({ allowed: true });
  });

  test('five failures: refused until the oldest leaves the 15-minute window, whatever ended since', async () => {
    const key = 'sign-in:1:ann@example.com';
    for (let i = 0; i < 5; i++) {
      const at = T0 + i * MINUTE;
      expect(await ctx.store.beginThrottledAttempt(key, at, RULE)).toEqual({ allowed: true });
      await ctx.store.endThrottledAttempt(key, 'failed', at, RULE);
    }
    expect(await ctx.store.beginThrottledAttempt(key, T0 + 5 * MINUTE, RULE)).toEqual({ allowed: false, retryAfterSeconds: 10 * 60 });
    expect(await ctx.store.beginThrottledAttempt(key, T0 + 15 * MINUTE - SECOND, RULE)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // The first failure has left the window: one place, then full again.
    expect(await ctx.store.beginThrottledAttempt(key, T0 + 15 * MINUTE, RULE)).toEqual({ allowed: true });
    expect(await ctx.store.beginThrottledAttempt(key, T0 + 15 * MINUTE, RULE)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  test('a success forgets the failures, a check that neither succeeded nor failed counts as nothing once ended', async () => {
    const key = 'sign-in:2:ann@example.com';
    const attempt = async (outcome: 'succeeded' | 'failed' | 'abandoned', at = T0) => {
      expect((await ctx.store.beginThrottledAttempt(key, at, RULE)).allowed).toBe(true);
      await ctx.store.endThrottledAttempt(key, outcome, at, RULE);
    };
    for (let i = 0; i < 4; i++) await attempt('failed');
    await attempt('succeeded');
    for (let i = 0; i < 4; i++) await attempt('failed');
    for (let i = 0; i < 10; i++) await attempt('abandoned');
    await attempt('failed');
    expect((await ctx.store.beginThrottledAttempt(key, T0, RULE)).allowed).toBe(false);
  });

  test('failures older than the window do not count; checks under way lapse after pendingMs (their process died)', async () => {
    const key = 'sign-in:3:ann@example.com';
    for (let i = 0; i < 4; i++) {
      await ctx.store.beginThrottledAttempt(key, T0, RULE);
      await ctx.store.endThrottledAttempt(key, 'failed', T0, RULE);
    }
    const later = T0 + RULE.windowMs;
    for (let i = 0; i < 5; i++) expect((await ctx.store.beginThrottledAttempt(key, later, RULE)).allowed).toBe(true);
    expect(await ctx.store.beginThrottledAttempt(key, later + RULE.pendingMs - 1, RULE)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Never ended: a minute on they hold no place.
    for (let i = 0; i < 5; i++) expect((await ctx.store.beginThrottledAttempt(key, later + RULE.pendingMs, RULE)).allowed).toBe(true);
  });

  test('clearThrottle forgets the failures and keeps the checks under way counted', async () => {
    const key = 'sign-in:4:ann@example.com';
    for (let i = 0; i < 3; i++) {
      await ctx.store.beginThrottledAttempt(key, T0, RULE);
      await ctx.store.endThrottledAttempt(key, 'failed', T0, RULE);
    }
    await ctx.store.beginThrottledAttempt(key, T0, RULE);
    await ctx.store.beginThrottledAttempt(key, T0, RULE);
    expect((await ctx.store.beginThrottledAttempt(key, T0, RULE)).allowed).toBe(false);
    await ctx.store.clearThrottle(key);
    await ctx.store.clearThrottle('sign-in:4:nobody@example.com');
    for (let i = 0; i < 3; i++) expect((await ctx.store.beginThrottledAttempt(key, T0, RULE)).allowed).toBe(true);
    expect((await ctx.store.beginThrottledAttempt(key, T0, RULE)).allowed).toBe(false);
  });

  test('tryLease: one holder at a time; the holder renews; a lapsed lease goes to the next; only the holder releases', async () => {
    expect(await ctx.store.tryLease('billing-run', 'a', T0, MINUTE)).toBe(true);
    expect(await ctx.store.tryLease('billing-run', 'b', T0 + MINUTE - 1, MINUTE)).toBe(false);
    expect(await ctx.store.tryLease('other', 'b', T0, MINUTE)).toBe(true);
    // Renewed at T0 + 30 s: held until T0 + 90 s.
    expect(await ctx.store.tryLease('billing-run', 'a', T0 + 30 * SECOND, MINUTE)).toBe(true);
    expect(await ctx.store.tryLease('billing-run', 'b', T0 + 90 * SECOND - 1, MINUTE)).toBe(false);
    expect(await ctx.store.tryLease('billing-run', 'b', T0 + 90 * SECOND, MINUTE)).toBe(true);
    // `a` lost it: it cannot release it, nor take it back while b holds it.
    expect(await ctx.store.releaseLease('billing-run', 'a')).toBe(false);
    expect(await ctx.store.tryLease('billing-run', 'a', T0 + 100 * SECOND, MINUTE)).toBe(false);
    expect(await ctx.store.releaseLease('billing-run', 'b')).toBe(true);
    expect(await ctx.store.releaseLease('billing-run', 'b')).toBe(false);
    expect(await ctx.store.tryLease('billing-run', 'a', T0 + 100 * SECOND, MINUTE)).toBe(true);
  });

  test('tryLease: 20 holders at once, exactly one gets it', async () => {
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => ctx.store.tryLease('renewal:1:7', `holder-${i}`, T0, MINUTE)));
    expect(got.filter(Boolean)).toHaveLength(1);
  });

  test('deleteExpiredLimits sweeps what limits nothing any more, and what it keeps still limits', async () => {
    const one = { limit: 1, windowMs: MINUTE };
    await ctx.store.takeRateToken('rate:idle', T0, one); // full again at T0 + 1 min
    await ctx.store.takeRateToken('rate:busy', T0 + MINUTE, one); // at T0 + 2 min
    await ctx.store.beginThrottledAttempt('throttle:old', T0, RULE);
    await ctx.store.endThrottledAttempt('throttle:old', 'failed', T0, RULE); // counts until T0 + 15 min
    await ctx.store.beginThrottledAttempt('throttle:recent', T0 + MINUTE, RULE);
    await ctx.store.endThrottledAttempt('throttle:recent', 'failed', T0 + MINUTE, RULE);
    await ctx.store.tryLease('lease:lapsed', 'a', T0, MINUTE);
    await ctx.store.tryLease('lease:held', 'a', T0, 20 * MINUTE);
    expect(await ctx.store.deleteExpiredLimits(T0)).toBe(0);

    expect(await ctx.store.deleteExpiredLimits(T0 + 90 * SECOND)).toBe(2);
    expect(await ctx.store.deleteExpiredLimits(T0 + 90 * SECOND)).toBe(0);
    expect((await ctx.store.takeRateToken('rate:busy', T0 + 90 * SECOND, one)).allowed).toBe(false);
    expect(await ctx.store.tryLease('lease:lapsed', 'b', T0 + 90 * SECOND, MINUTE)).toBe(true);

    const at = T0 + RULE.windowMs;
    expect(await ctx.store.deleteExpiredLimits(at)).toBe(3); // rate:busy, throttle:old, b's lease:lapsed
    expect(await ctx.store.tryLease('lease:held', 'b', at, MINUTE)).toBe(false);
    expect((await ctx.store.takeRateToken('rate:idle', at, one)).allowed).toBe(true);
    for (let i = 0; i < 4; i++) expect((await ctx.store.beginThrottledAttempt('throttle:recent', at, RULE)).allowed).toBe(true);
    expect((await ctx.store.beginThrottledAttempt('throttle:recent', at, RULE)).allowed).toBe(false);
    for (let i = 0; i < 5; i++) expect((await ctx.store.beginThrottledAttempt('throttle:old', at, RULE)).allowed).toBe(true);
  });
}
