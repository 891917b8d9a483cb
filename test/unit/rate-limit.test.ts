import { expect, test } from 'vitest';
import { parseRateLimit, RateLimiter } from '../../src/service/http/rate-limit';

test('parses N/Ts windows in every unit, and off', () => {
  expect(parseRateLimit('120/60s')).toEqual({ limit: 120, windowMs: 60_000 });
  expect(parseRateLimit('5/500ms')).toEqual({ limit: 5, windowMs: 500 });
  expect(parseRateLimit('1000/1h')).toEqual({ limit: 1000, windowMs: 3_600_000 });
  expect(parseRateLimit(' 10/2m ')).toEqual({ limit: 10, windowMs: 120_000 });
  expect(parseRateLimit('off')).toBe('off');
});

test('refuses malformed or empty limits', () => {
  for (const bad of ['', '120', '120/', '/60s', '0/60s', '10/0s', '10/60', '10/60d', '-1/60s', '1.5/60s', 'lots']) {
    expect(parseRateLimit(bad), bad).toBeUndefined();
  }
});

test('allows a burst of the limit, then refuses with the exact whole-second wait', () => {
  const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 });
  for (let i = 0; i < 3; i++) expect(limiter.check(1, 0)).toEqual({ allowed: true });
  // One request's worth of allowance comes back every 20 s.
  expect(limiter.check(1, 0)).toEqual({ allowed: false, retryAfterSeconds: 20 });
  expect(limiter.check(1, 19_001)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  expect(limiter.check(1, 20_000)).toEqual({ allowed: true });
  expect(limiter.check(1, 20_000)).toEqual({ allowed: false, retryAfterSeconds: 20 });
});

test('a refused request does not use up allowance', () => {
  const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
  expect(limiter.check(1, 0).allowed).toBe(true);
  for (let t = 0; t < 1000; t += 100) expect(limiter.check(1, t).allowed).toBe(false);
  expect(limiter.check(1, 1000).allowed).toBe(true);
});

test('keys are limited independently', () => {
  const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
  expect(limiter.check(1, 0).allowed).toBe(true);
  expect(limiter.check(2, 0).allowed).toBe(true);
  expect(limiter.check(1, 0).allowed).toBe(false);
});

test('the wait is never below one second', () => {
  const limiter = new RateLimiter({ limit: 10, windowMs: 100 });
  for (let i = 0; i < 10; i++) limiter.check(1, 0);
  expect(limiter.check(1, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
});
