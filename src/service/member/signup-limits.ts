/**
 * Sign-up attempts are limited per e-mail and per client address (audit, issue 12): a sign-up
 * answers 409 `emailTaken` for an address that is a member already, so unlimited sign-ups would
 * tell anyone, fast, which e-mails are members. Counted before the e-mail is looked up, so every
 * attempt counts, whatever it answers. (Mailed verification, planned next, closes it for good.)
 * In memory, like the sign-in throttle: one process serves a site (docs/decisions/0008).
 */
import { RateLimiter, type RateLimit } from '../http/rate-limit';
import { MemberError } from './errors';

export const SIGNUPS_PER_EMAIL: RateLimit = { limit: 5, windowMs: 15 * 60_000 };
/** The default of SVC_SIGNUP_RATE_LIMIT: a household or an office signs up well within it. */
export const DEFAULT_SIGNUPS_PER_ADDRESS: RateLimit = { limit: 20, windowMs: 15 * 60_000 };

export class SignupLimits {
  private readonly perEmail = new RateLimiter<string>(SIGNUPS_PER_EMAIL);
  private readonly perAddress: RateLimiter<string> | undefined;

  /** `perAddress` undefined: no limit per client address (SVC_SIGNUP_RATE_LIMIT=off). */
  constructor(perAddress: RateLimit | undefined) {
    this.perAddress = perAddress && new RateLimiter<string>(perAddress);
  }

  /** Counts one sign-up attempt; throws 429 `rateLimited` with `Retry-After` past either limit. */
  count(siteId: number, email: string, address: string | undefined, now: number): void {
    if (address !== undefined && this.perAddress) {
      const decision = this.perAddress.check(`${siteId}\n${address}`, now);
      if (!decision.allowed) throw refused('Too many sign-ups from this address', 'base', decision.retryAfterSeconds);
    }
    const decision = this.perEmail.check(`${siteId}\n${email}`, now);
    if (!decision.allowed) throw refused('Too many sign-up attempts for this e-mail', 'email', decision.retryAfterSeconds);
  }
}

const refused = (what: string, path: string, wait: number) =>
  MemberError.of(429, 'rateLimited', `${what}; try again in ${wait} s`, path, { 'retry-after': String(wait) });
