/**
 * Limits on what one client can make the service do for strangers' sake (audit, issue 26): the
 * limits per e-mail protect each member, these protect everyone else from one client.
 *
 * - Sign-in attempts per client address (passwords and mailed codes alike): one client with
 *   40 connections filled the process's hashing queue with guesses at random addresses, and real
 *   members got 429 for as long as it went on. Counted before anything is hashed or looked up.
 * - Requested mails per client address and per member: one account asking for 310 e-mail
 *   changes to addresses of its choosing used up the site's 300 mails an hour, and everyone
 *   else's resets and codes were silently held back. The site-wide cap stays as a last resort.
 *
 * - Pictures uploaded per member (decision 0039): each is a decode and an encode of up to 2 MiB,
 *   so one account cannot keep the process's encoders busy for everyone else.
 *
 * The cells live in the store (Store.takeRateToken), so every process serving the database
 * counts against one allowance. Without a client address (MSW, `app.request`) the limits per
 * address do not apply; the one per member always does.
 */
import { RateLimiter, type RateLimit } from '../http/rate-limit';
import type { Store } from '../store/store';
import { MemberError } from './errors';
import { PICTURES_PER_MEMBER } from './pictures/limits';

/** The default of SVC_SIGNIN_RATE_LIMIT: a household or an office signs in well within it. */
export const DEFAULT_SIGN_INS_PER_ADDRESS: RateLimit = { limit: 30, windowMs: 15 * 60_000 };
/** The default of SVC_MAIL_RATE_LIMIT: resets, codes, confirmations and e-mail changes asked for. */
export const DEFAULT_MAILS_PER_ADDRESS: RateLimit = { limit: 20, windowMs: 3600_000 };
/** E-mail changes a signed-in member may ask for: each mails an address of their choosing. */
export const MAILS_PER_MEMBER: RateLimit = { limit: 10, windowMs: 3600_000 };

export interface ClientLimitRates {
  /** Sign-in attempts per client address; undefined: not limited (SVC_SIGNIN_RATE_LIMIT=off). */
  signIns: RateLimit | undefined;
  /** Requested mails per client address; undefined: not limited (SVC_MAIL_RATE_LIMIT=off). */
  mails: RateLimit | undefined;
}

export class ClientLimits {
  private readonly signIns: RateLimiter | undefined;
  private readonly mails: RateLimiter | undefined;
  private readonly memberMails: RateLimiter;
  private readonly pictures: RateLimiter;

  constructor(store: Pick<Store, 'takeRateToken'>, rates: ClientLimitRates) {
    this.signIns = rates.signIns && new RateLimiter(store, 'sign-in-address', rates.signIns);
    this.mails = rates.mails && new RateLimiter(store, 'mail-address', rates.mails);
    this.memberMails = new RateLimiter(store, 'mail-member', MAILS_PER_MEMBER);
    this.pictures = new RateLimiter(store, 'picture-member', PICTURES_PER_MEMBER);
  }

  /** Counts one picture upload by the member, before its body is read; 429 `rateLimited` past the limit. */
  async picture(siteId: number, memberId: number, now: number): Promise<void> {
    const decision = await this.pictures.check(`${siteId}:${memberId}`, now);
    if (!decision.allowed) throw refused('Too many pictures uploaded by this account', decision.retryAfterSeconds);
  }

  /** Counts one sign-in attempt (a password or a code checked); 429 `rateLimited` past the limit. */
  async signIn(siteId: number, address: string | undefined, now: number): Promise<void> {
    if (address === undefined || !this.signIns) return;
    const decision = await this.signIns.check(`${siteId}:${address}`, now);
    if (!decision.allowed) throw refused('Too many sign-in attempts from this address', decision.retryAfterSeconds);
  }

  /**
   * Counts one mail asked for from the address, and by the member when one is signed in; 429
   * `rateLimited` past either limit. Counted before anyone is looked up, so the answer says
   * nothing about who is a member.
   */
  async mail(siteId: number, address: string | undefined, now: number, memberId?: number): Promise<void> {
    if (address !== undefined && this.mails) {
      const decision = await this.mails.check(`${siteId}:${address}`, now);
      if (!decision.allowed) throw refused('Too many mails asked for from this address', decision.retryAfterSeconds);
    }
    if (memberId !== undefined) {
      const decision = await this.memberMails.check(`${siteId}:${memberId}`, now);
      if (!decision.allowed) throw refused('Too many mails asked for by this account', decision.retryAfterSeconds);
    }
  }
}

const refused = (what: string, wait: number) =>
  MemberError.of(429, 'rateLimited', `${what}; try again in ${wait} s`, 'base', { 'retry-after': String(wait) });
