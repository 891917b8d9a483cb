/**
 * What every room of the member API shares (./app composes them): the settings, the limits and
 * throttles kept in the store, and the per-request pieces built once here: who the client is, who
 * is signed in, and the answer that opens a session.
 */
import type { Context, Hono } from 'hono';
import type { MemberInfo, SessionResponse } from '../../contract/member';
import type { PasswordHasher } from '../auth/passwords';
import type { Clock } from '../domain/clock';
import { log } from '../diagnostics';
import { clientAddress, type Connection } from '../http/client-address';
import { jsonResponse } from '../http/json';
import { publicOrigin } from '../http/public-origin';
import type { RateLimit } from '../http/rate-limit';
import type { ProcessorFor } from '../payments/processor-for';
import type { MemberRecord, SessionRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { ClientLimits } from './client-limits';
import { MemberError } from './errors';
import { loadMemberInfo } from './member-info';
import type { PictureEncoder } from './pictures/encoder';
import { authenticate, type Authenticated } from './sessions';
import { CODE_RULE, SignInThrottle } from './sign-in-throttle';
import { SignupLimits } from './signup-limits';

export interface MemberApiOptions {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  /** The processor each site takes payments through (its Stripe account, or the test processor). */
  processorFor: ProcessorFor;
  /** Sign-ups per client address (SVC_SIGNUP_RATE_LIMIT); undefined: not limited per address. */
  signupsPerAddress: RateLimit | undefined;
  /** Sign-in attempts (passwords and codes) per client address (SVC_SIGNIN_RATE_LIMIT); undefined: not limited per address. */
  signInsPerAddress: RateLimit | undefined;
  /** Requested mails per client address (SVC_MAIL_RATE_LIMIT); undefined: not limited per address. */
  mailsPerAddress: RateLimit | undefined;
  /** How many reverse proxies stand in front, whose X-Forwarded-For is believed (SVC_TRUST_PROXY). */
  trustedProxies: number;
  /** Serve the demo site's mailbox (./demo-mailbox). */
  demoMailbox?: boolean;
  /** Where the widget loads Stripe.js from for a Stripe site (SVC_STRIPE_JS_URL, tests only); Stripe's own when absent. */
  stripeJsUrl?: string;
  /** Re-encodes the members' uploaded pictures (./pictures/encoder). */
  pictures: PictureEncoder;
}

/** Every route under /sites/:subdomain/ finds its site here (./site-scope sets it). */
export type MemberEnv = { Variables: { site: SiteRecord } };
export type MemberApp = Hono<MemberEnv>;
export type MemberRequest = Context<MemberEnv>;

export interface MemberContext {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  processorFor: ProcessorFor;
  pictures: PictureEncoder;
  /** Password checks per site and e-mail. */
  throttle: SignInThrottle;
  /** Wrong mailed codes per site and e-mail, across codes. */
  codeThrottle: SignInThrottle;
  signupLimits: SignupLimits;
  clientLimits: ClientLimits;
  /** The client's address as far as SVC_TRUST_PROXY lets the service tell; undefined inside MSW and `app.request`. */
  addressOf(c: MemberRequest): string | undefined;
  /** The service's origin as the client reached it (../http/public-origin): what absolute URLs in answers start with. */
  originOf(c: MemberRequest): string;
  /** The member as MemberInfo, for an answer to this request (its picture's URL on the request's origin). */
  memberInfo(c: MemberRequest, member: MemberRecord): Promise<MemberInfo>;
  /** The signed-in member behind the request's bearer token, or a 401. */
  authenticate(c: MemberRequest): Promise<Authenticated>;
  /** 201 with the session's bearer token and the member (SessionResponse). */
  sessionAnswer(c: MemberRequest, member: MemberRecord, token: string, session: SessionRecord, registered?: boolean): Promise<Response>;
  /** Counts a mail asked for, per client address and (signed in) per member: 429 past a limit (./client-limits). */
  countMail(c: MemberRequest, memberId?: number): Promise<void>;
  /** The hash unknown e-mails are checked against, so they cost what a wrong password costs. */
  decoyHash(): Promise<string>;
  emailTaken(): MemberError;
}

export function memberContext(options: MemberApiOptions): MemberContext {
  const { store, clock, passwords, processorFor, trustedProxies } = options;
  const clientLimits = new ClientLimits(store, { signIns: options.signInsPerAddress, mails: options.mailsPerAddress });
  let proxyWarned = false;
  const addressOf = (c: MemberRequest) => {
    if (trustedProxies === 0 && !proxyWarned && c.req.header('x-forwarded-for') !== undefined) {
      proxyWarned = true;
      log.info('requests carry X-Forwarded-For, but SVC_TRUST_PROXY is not set: limits per client address see the proxy, not the client');
    }
    // The server passes the connection as the app's env (server.ts); `app.request` and MSW pass none.
    return clientAddress(c.req.raw, c.env as Connection | undefined, trustedProxies);
  };
  let decoy: Promise<string> | undefined;
  const originOf = (c: MemberRequest) => publicOrigin(c.req.raw, trustedProxies);
  const memberInfo = (c: MemberRequest, member: MemberRecord) => loadMemberInfo(store, c.get('site'), member, clock(), () => originOf(c));
  return {
    store,
    clock,
    passwords,
    processorFor,
    pictures: options.pictures,
    throttle: new SignInThrottle(store),
    codeThrottle: new SignInThrottle(store, 'sign-in-code', CODE_RULE),
    signupLimits: new SignupLimits(store, options.signupsPerAddress),
    clientLimits,
    addressOf,
    originOf,
    memberInfo,
    authenticate: (c) => authenticate(store, clock, c.get('site'), c.req.raw),
    async sessionAnswer(c, record, token, session, registered = false) {
      const body: SessionResponse = {
        token,
        expiresAt: new Date(session.expiresAt).toISOString(),
        memberInfo: await memberInfo(c, record),
        ...(registered && { registered: true }),
      };
      return jsonResponse(body, 201, { 'cache-control': 'no-store' });
    },
    countMail: (c, memberId) => clientLimits.mail(c.get('site').id, addressOf(c), clock(), memberId),
    decoyHash: () => (decoy ??= passwords.hash('decoy password, never a member’s')),
    emailTaken: () => MemberError.of(409, 'emailTaken', 'A member with this e-mail already exists; sign in instead', 'email'),
  };
}
