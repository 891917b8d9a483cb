import { expect, test } from 'vitest';
import { parseRateLimit, RateLimiter } from '../../src/service/http/rate-limit';
import { createMemoryStore } from '../../src/service/store/memory';

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

test('allows a burst of the limit, then refuses with the exact whole-second wait', async () => {
  const limiter = new RateLimiter(createMemoryStore(), 'test', { limit: 3, windowMs: 60_000 });
  for (let i = 0; i < 3; i++) expect(await limiter.check(1, 0)).toEqual({ allowed: true });
  // One request's worth of allowance comes back every 20 s.
  expect(await limiter.check(1, 0)).toEqual({ allowed: false, retryAfterSeconds: 20 });
  expect(await limiter.check(1, 19_001)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  expect(await limiter.check(1, 20_000)).toEqual({ allowed: true });
  expect(await limiter.check(1, 20_000)).toEqual({ allowed: false, retryAfterSeconds: 20 });
});

test('keys are limited independently, and so are limiters of other namespaces on the same store', async () => {
  const store = createMemoryStore();
  const limiter = new RateLimiter(store, 'admin-key', { limit: 1, windowMs: 1000 });
  const other = new RateLimiter(store, 'sign-up-email', { limit: 1, windowMs: 1000 });
  expect((await limiter.check(1, 0)).allowed).toBe(true);
  expect((await limiter.check(2, 0)).allowed).toBe(true);
  expect((await other.check(1, 0)).allowed).toBe(true);
  expect((await limiter.check(1, 0)).allowed).toBe(false);
});

test('two limiters of one namespace on one store share the allowance, as two processes do', async () => {
  const store = createMemoryStore();
  const rate = { limit: 2, windowMs: 1000 };
  const [a, b] = [new RateLimiter(store, 'admin-key', rate), new RateLimiter(store, 'admin-key', rate)];
  expect((await a.check(7, 0)).allowed).toBe(true);
  expect((await b.check(7, 0)).allowed).toBe(true);
  expect((await a.check(7, 0)).allowed).toBe(false);
  expect((await b.check(7, 0)).allowed).toBe(false);
});
