/**
 * Slows password guessing per site and e-mail: at most MAX_FAILURES password checks count
 * against a key within WINDOW_MS, and a check counts from the moment it starts, not when its
 * slow hash ends. So guesses sent all at once are refused past the fifth, exactly as guesses
 * sent one after another are (audit, issue 12: 60 concurrent guesses were all checked before).
 * Refused attempts get 429 with the seconds to wait; a successful check clears the record, and
 * so does a password reset. The counts live in the store, so every process serving the database
 * shares them (issue 16, decision 0025).
 */
import type { Clock } from '../domain/clock';
import type { AttemptOutcome, ThrottleRule } from '../store/records';
import type { Store } from '../store/store';
import { MemberError } from './errors';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60_000;
/**
 * A check under way holds its place at most this long: far more than a hash takes, even behind
 * a full hashing queue, and the time a process that died mid-check keeps a place taken.
 */
export const PENDING_MS = 60_000;
const RULE: ThrottleRule = { maxFailures: MAX_FAILURES, windowMs: WINDOW_MS, pendingMs: PENDING_MS };

/**
 * Mailed codes, per site and e-mail, across codes (audit, issue 26): each code allows CODE_TRIES
 * guesses, but an address can be sent a new code again and again, so its wrong codes are counted
 * together too. Unknown addresses count alike, so the lock tells nobody who is a member.
 */
export const CODE_FAILURES = 10;
export const CODE_WINDOW_MS = 3600_000;
export const CODE_RULE: ThrottleRule = { maxFailures: CODE_FAILURES, windowMs: CODE_WINDOW_MS, pendingMs: PENDING_MS };

type ThrottleStore = Pick<Store, 'beginThrottledAttempt' | 'endThrottledAttempt' | 'clearThrottle'>;

export class SignInThrottle {
  /** `namespace` and `rule`: passwords by default; mailed codes with ('sign-in-code', CODE_RULE). */
  constructor(
    private readonly store: ThrottleStore,
    private readonly namespace = 'sign-in',
    private readonly rule: ThrottleRule = RULE,
  ) {}

  /**
   * Runs one password check for the site's e-mail, counted before it starts: throws 429
   * `rateLimited` (with `Retry-After`; `path` names the field) while the key's allowance is used
   * up by recent failures and checks under way. `check` resolves true for the right password. A
   * check that throws (the hashing queue is full) counts as neither outcome.
   */
  async attempt(siteId: number, email: string, clock: Clock, path: string, check: () => Promise<boolean>): Promise<boolean> {
    const key = this.keyOf(siteId, email);
    const decision = await this.store.beginThrottledAttempt(key, clock(), this.rule);
    if (!decision.allowed) {
      const wait = decision.retryAfterSeconds;
      throw MemberError.of(429, 'rateLimited', `Too many failed attempts for this e-mail; try again in ${wait} s`, path, {
        'retry-after': String(wait),
      });
    }
    let outcome: AttemptOutcome = 'abandoned';
    try {
      const valid = await check();
      outcome = valid ? 'succeeded' : 'failed';
      return valid;
    } finally {
      await this.store.endThrottledAttempt(key, outcome, clock(), this.rule);
    }
  }

  /** Forgets the e-mail's failures: its owner proved they read its mail (a password reset). */
  clear(siteId: number, email: string): Promise<void> {
    return this.store.clearThrottle(this.keyOf(siteId, email));
  }

  private keyOf(siteId: number, email: string): string {
    return `${this.namespace}:${siteId}:${email}`;
  }
}
