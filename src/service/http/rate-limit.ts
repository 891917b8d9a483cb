/**
 * Per-key rate limits (Admin API keys, sign-ups per e-mail and per client address) as a generic
 * cell rate algorithm: `limit` requests per `windowMs`, with bursts up to `limit`. The cell lives
 * in the store (Store.takeRateToken), so every process serving the database counts against one
 * allowance (issue 16, decision 0025), and the wait it reports is exact rather than "until the
 * window resets".
 */
import type { LimitDecision, RateRule } from '../store/records';
import type { Store } from '../store/store';

export type RateLimit = RateRule;
export type RateDecision = LimitDecision;

export class RateLimiter {
  /** `namespace` keeps this limiter's keys apart from every other's in the store's one table. */
  constructor(
    private readonly store: Pick<Store, 'takeRateToken'>,
    private readonly namespace: string,
    private readonly rate: RateLimit,
  ) {}

  check(key: string | number, now: number): Promise<RateDecision> {
    return this.store.takeRateToken(`${this.namespace}:${key}`, now, this.rate);
  }
}

/** Parses `N/Ts` (e.g. `120/60s`; `ms`, `s`, `m`, `h` accepted); `off` disables the limit. */
export function parseRateLimit(text: string): RateLimit | 'off' | undefined {
  if (text.trim() === 'off') return 'off';
  const match = /^(\d{1,9})\/(\d{1,9})(ms|s|m|h)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[3] as 'ms' | 's' | 'm' | 'h'];
  const limit = Number(match[1]);
  const windowMs = Number(match[2]) * unit;
  return limit > 0 && windowMs > 0 ? { limit, windowMs } : undefined;
}
