/**
 * Slows password guessing per site and e-mail: at most MAX_FAILURES password checks count
 * against a key within WINDOW_MS, and a check counts from the moment it starts, not when its
 * slow hash ends. So guesses sent all at once are refused past the fifth, exactly as guesses
 * sent one after another are (audit, issue 12: 60 concurrent guesses were all checked before).
 * Refused attempts get 429 with the seconds to wait; a successful check clears the record.
 * Kept in memory: one process serves a site (docs/decisions/0008).
 */
import type { Clock } from '../domain/clock';
import { MemberError } from './errors';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60_000;
const MAX_TRACKED = 100_000;

export class SignInThrottle {
  /** Failure times, oldest first, at most MAX_FAILURES per key. */
  private readonly failures = new Map<string, number[]>();
  /** Checks started and not finished yet, per key: they count as failures until they end. */
  private readonly inFlight = new Map<string, number>();

  /** Seconds to wait before trying again, or 0 when an attempt may go ahead. */
  private retryAfterSeconds(key: string, now: number): number {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    const pending = this.inFlight.get(key) ?? 0;
    if (times.length + pending < MAX_FAILURES) return 0;
    // Failures alone fill the allowance: it frees up as the oldest leaves the window.
    if (times.length >= MAX_FAILURES) return Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
    // Checks under way fill it: they end within a second or two, one way or the other.
    return 1;
  }

  /**
   * Runs one password check for `key`, counted before it starts: throws 429 `rateLimited` (with
   * `Retry-After`; `path` names the field) while the key's allowance is used up by recent
   * failures and checks under way. `check` resolves true for the right password. A check that
   * throws (the hashing queue is full) counts as neither outcome.
   */
  async attempt(key: string, clock: Clock, path: string, check: () => Promise<boolean>): Promise<boolean> {
    const wait = this.retryAfterSeconds(key, clock());
    if (wait > 0) {
      throw MemberError.of(429, 'rateLimited', `Too many failed attempts for this e-mail; try again in ${wait} s`, path, {
        'retry-after': String(wait),
      });
    }
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    let valid: boolean | undefined;
    try {
      valid = await check();
      return valid;
    } finally {
      const left = this.inFlight.get(key)! - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
      if (valid === true) this.failures.delete(key);
      else if (valid === false) this.recordFailure(key, clock());
    }
  }

  private recordFailure(key: string, now: number): void {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    times.push(now);
    if (times.length > MAX_FAILURES) times.shift();
    this.failures.delete(key); // re-insert: Map order then runs from least to most recently failed
    this.failures.set(key, times);
    if (this.failures.size > MAX_TRACKED) this.forgetOldest(now);
  }

  private forgetOldest(now: number): void {
    for (const [key, times] of this.failures) {
      if (this.failures.size <= MAX_TRACKED / 2 && times[times.length - 1]! > now - WINDOW_MS) break;
      this.failures.delete(key);
    }
  }
}
