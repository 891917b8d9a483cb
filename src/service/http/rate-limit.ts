/**
 * Per-key rate limit (Admin API keys, sign-ups per e-mail and per client address) as a generic cell rate algorithm: `limit` requests per `windowMs`, with
 * bursts up to `limit`. One number per key (its theoretical arrival time), so memory stays
 * small, and the wait it reports is exact rather than "until the window resets".
 */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter<Key = number> {
  private readonly tat = new Map<Key, number>();
  private readonly intervalMs: number;
  private checks = 0;

  constructor(private readonly rate: RateLimit) {
    this.intervalMs = rate.windowMs / rate.limit;
  }

  check(keyId: Key, now: number): RateDecision {
    if (++this.checks % 10_000 === 0) this.forgetIdle(now);
    const tat = Math.max(this.tat.get(keyId) ?? now, now);
    const next = tat + this.intervalMs;
    if (next - now > this.rate.windowMs) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((next - this.rate.windowMs - now) / 1000)) };
    }
    this.tat.set(keyId, next);
    return { allowed: true };
  }

  /** Keys whose allowance is full again hold no information worth keeping. */
  private forgetIdle(now: number): void {
    for (const [keyId, tat] of this.tat) if (tat <= now) this.tat.delete(keyId);
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
