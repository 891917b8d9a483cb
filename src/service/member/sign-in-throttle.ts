/**
 * Slows password guessing per site and e-mail: after MAX_FAILURES failed sign-ins within
 * WINDOW_MS, further attempts are refused (429, with the seconds to wait) until the oldest of
 * those failures leaves the window. A successful sign-in clears the record. The check runs
 * before the password is hashed, so a throttled guess costs the server nothing.
 * Kept in memory: one process serves a site (docs/decisions/0008).
 */
import { MemberError } from './errors';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60_000;
const MAX_TRACKED = 100_000;

export class SignInThrottle {
  /** Failure times, oldest first, at most MAX_FAILURES per key. */
  private readonly failures = new Map<string, number[]>();

  /** Seconds to wait before trying again, or 0 when an attempt may go ahead. */
  retryAfterSeconds(key: string, now: number): number {
    const times = this.failures.get(key);
    if (!times || times.length < MAX_FAILURES) return 0;
    const until = times[0]! + WINDOW_MS;
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  /**
   * Throws 429 `rateLimited` (with `Retry-After`; `path` names the field) while the key is
   * throttled. Sign-in and the account routes that ask for the current password both call it.
   */
  refuseWhileThrottled(key: string, now: number, path: string): void {
    const wait = this.retryAfterSeconds(key, now);
    if (wait > 0) {
      throw MemberError.of(429, 'rateLimited', `Too many failed attempts for this e-mail; try again in ${wait} s`, path, {
        'retry-after': String(wait),
      });
    }
  }

  /** Counts the outcome of a password check: a failure is recorded, a success clears the record. */
  count(key: string, valid: boolean, now: number): void {
    if (valid) this.recordSuccess(key);
    else this.recordFailure(key, now);
  }

  recordFailure(key: string, now: number): void {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    times.push(now);
    if (times.length > MAX_FAILURES) times.shift();
    this.failures.delete(key); // re-insert: Map order then runs from least to most recently failed
    this.failures.set(key, times);
    if (this.failures.size > MAX_TRACKED) this.forgetOldest(now);
  }

  recordSuccess(key: string): void {
    this.failures.delete(key);
  }

  private forgetOldest(now: number): void {
    for (const [key, times] of this.failures) {
      if (this.failures.size <= MAX_TRACKED / 2 && times[times.length - 1]! > now - WINDOW_MS) break;
      this.failures.delete(key);
    }
  }
}
