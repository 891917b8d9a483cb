/**
 * Sign-up attempts are limited per e-mail and per client address (audit, issue 12): a sign-up
 * answers 409 `emailTaken` for an address that is a member already, so unlimited sign-ups would
 * tell anyone, fast, which e-mails are members. Counted before the e-mail is looked up, so every
 * attempt counts, whatever it answers. (Mailed verification, planned next, closes it for good.)
 * The counts live in the store, shared by every process (issue 16, decision 0025).
 */
import { RateLimiter, type RateLimit } from '../http/rate-limit';
import type { Store } from '../store/store';
import { MemberError } from './errors';

export const SIGNUPS_PER_EMAIL: RateLimit = { limit: 5, windowMs: 15 * 60_000 };
/** The default of SVC_SIGNUP_RATE_LIMIT: a household or an office signs up well within it. */
export const DEFAULT_SIGNUPS_PER_ADDRESS: RateLimit = { limit: 20, windowMs: 15 * 60_000 };

export class SignupLimits {
  private readonly perEmail: RateLimiter;
  private readonly perAddress: RateLimiter | undefined;

  /** `perAddress` undefined: no limit per client address (SVC_SIGNUP_RATE_LIMIT=off). */
  constructor(store: Pick<Store, 'takeRateToken'>, perAddress: RateLimit | undefined) {
    this.perEmail = new RateLimiter(store, 'sign-up-email', SIGNUPS_PER_EMAIL);
    this.perAddress = perAddress && new RateLimiter(store, 'sign-up-address', perAddress);
  }

  /** Counts one sign-up attempt; throws 429 `rateLimited` with `Retry-After` past either limit. */
  async count(siteId: number, email: string, address: string | undefined, now: number): Promise<void> {
    if (address !== undefined && this.perAddress) {
      const decision = await this.perAddress.check(`${siteId}:${address}`, now);
      if (!decision.allowed) throw refused('Too many sign-ups from this address', 'base', decision.retryAfterSeconds);
    }
    const decision = await this.perEmail.check(`${siteId}:${email}`, now);
    if (!decision.allowed) throw refused('Too many sign-up attempts for this e-mail', 'email', decision.retryAfterSeconds);
  }
}

const refused = (what: string, path: string, wait: number) =>
  MemberError.of(429, 'rateLimited', `${what}; try again in ${wait} s`, path, { 'retry-after': String(wait) });
