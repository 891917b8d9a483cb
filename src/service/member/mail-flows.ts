/**
 * What the member API's mail flows share (issue 15; docs/decisions/0024-mail-flows.md): the
 * mails someone may ask for, under send limits kept in the store, and the redemption of a mailed
 * token with everything it changes in one store transaction.
 *
 * Asking never tells who is a member: an unknown address, a blocked member and a send limit
 * reached all answer like a mail sent (`mailSent`), and only a member's address gets mail.
 */
import { CODE_TRIES, PASSWORD_RESET_MS, SIGN_IN_CODE_MS, type MailSentResponse } from '../../contract/member';
import type { Clock } from '../domain/clock';
import { siteMail, withSvcopen } from '../domain/site-mail';
import { jsonResponse } from '../http/json';
import type { MailTemplate } from '../mail-templates';
import type { MailQueueOutcome, MemberRecord, MemberTokenPurpose, MemberTokenRecord, NewMail, NewMemberToken, SendLimits, SiteRecord, TokenEffects } from '../store/records';
import { log } from '../diagnostics';
import type { Store } from '../store/store';
import { MemberError } from './errors';
import { codeHashOf, codeMatches, newCode, newMailedToken } from './mail-tokens';

/** Mails a member (or whoever types their address) can make the service send. */
const REQUESTED_KINDS = ['passwordReset', 'signInCode', 'confirmEmail', 'accountExists', 'emailChange', 'emailInUse'] as const;
/** Per address: a flood of requests sends this many mails an hour, then nothing until the hour has passed. */
export const MAILS_PER_ADDRESS = 5;
/** Per site, so that cycling through members' addresses cannot make a site's mail look like spam. */
export const MAILS_PER_SITE = 300;
export const SEND_WINDOW_MS = 3600_000;
/** How long the confirmation mailed at sign-up (and on an e-mail change) stays good. */
export const CONFIRM_MS = 24 * 3600_000;

export const sendLimits = (now: number): SendLimits => ({
  kinds: REQUESTED_KINDS,
  since: now - SEND_WINDOW_MS,
  perAddress: MAILS_PER_ADDRESS,
  perSite: MAILS_PER_SITE,
});

/** The answer to every request for a mail. */
export const mailSent = (email: string): Response => jsonResponse({ email, mailSent: true } satisfies MailSentResponse, 202);

/** What a mailed token of `purpose` for the member holds, and the secrets to put in the mail. */
export function mailedToken(site: SiteRecord, memberId: number, purpose: MemberTokenPurpose, now: number, lifeMs: number, withCode: boolean) {
  const { token, tokenHash } = newMailedToken();
  const code = withCode ? newCode() : undefined;
  return {
    token,
    code,
    minutes: Math.round(lifeMs / 60_000),
    record: {
      siteId: site.id, memberId, purpose, tokenHash, createdAt: now, expiresAt: now + lifeMs,
      ...(code !== undefined && { codeHash: codeHashOf(tokenHash, code) }),
    },
  };
}

export type SignInMailKind = 'signInCode' | 'confirmEmail' | 'welcome' | 'accountExists';

/**
 * A mail whose code or link signs the member in (and so confirms their address): the code they
 * asked for, the confirmation after sign-up (`welcome` when the site sends that notice), or
 * `accountExists` to the owner of an address someone signed up with again (a code too, so the
 * sign-up's "type the code we sent" holds whichever mail it was).
 */
export function signInMail(site: SiteRecord, member: { id: number; email: string; firstName?: string }, returnTo: string, kind: SignInMailKind, now: number) {
  const lifeMs = kind === 'signInCode' ? SIGN_IN_CODE_MS : kind === 'accountExists' ? PASSWORD_RESET_MS : CONFIRM_MS;
  const t = mailedToken(site, member.id, 'signIn', now, lifeMs, true);
  const link = withSvcopen(returnTo, `/member/sign_in/${t.token}`);
  const { minutes } = t;
  const template: MailTemplate =
    kind === 'welcome'
      ? { kind, code: t.code!, link, minutes, ...(member.firstName !== undefined && { firstName: member.firstName }) }
      : { kind, code: t.code!, link, minutes };
  return { token: t.record, mail: siteMail(site, member.email, template, now) };
}

/**
 * When each site of a store last said it reached its cap, so the log says it once an hour, not
 * once a request. By store: site ids are a store's own, and one process may serve several.
 */
const siteCapLogged = new WeakMap<Store, Map<number, number>>();

/**
 * Queues a mail someone asked for, with its token, under the send limits (Store.queueRequestedMail).
 * The site-wide cap held back mail for every member, so reaching it is logged, once a window a site.
 */
export async function queueRequested(store: Store, site: SiteRecord, mail: NewMail, token: NewMemberToken | undefined, now: number): Promise<MailQueueOutcome> {
  const outcome = await store.queueRequestedMail({ mail, ...(token && { token }), limits: sendLimits(now) });
  if (outcome !== 'siteLimit') return outcome;
  const logged = siteCapLogged.get(store) ?? new Map<number, number>();
  siteCapLogged.set(store, logged);
  if (!((logged.get(site.id) ?? -Infinity) > now - SEND_WINDOW_MS)) {
    logged.set(site.id, now);
    log.info(`site ${site.subdomain} reached its cap of ${MAILS_PER_SITE} requested mails an hour: resets, codes and confirmations asked for are held back until the hour has passed`);
  }
  return outcome;
}

/** Queues a sign-in mail the member asked for, under the send limits. */
export async function requestSignInMail(store: Store, site: SiteRecord, member: { id: number; email: string }, returnTo: string, kind: SignInMailKind, now: number) {
  const { token, mail } = signInMail(site, member, returnTo, kind, now);
  return queueRequested(store, site, mail, token, now);
}

export const tokenError = (reason: 'missing' | 'used' | 'expired'): MemberError =>
  reason === 'used'
    ? MemberError.of(400, 'tokenUsed', 'This link has been used already, and each works once: ask for a new one', 'token')
    : reason === 'expired'
      ? MemberError.of(400, 'tokenExpired', 'This link has expired: ask for a new one', 'token')
      : MemberError.of(400, 'tokenInvalid', 'This link is not valid (it may be cut short, or a newer password or address replaced it): ask for a new one', 'token');

export const codeExpired = () =>
  MemberError.of(401, 'codeExpired', 'This code is no longer valid (too old, used, or tried too often): ask for a new code', 'code');

/**
 * The one answer to a code that signs nobody in, whatever the reason: wrong, too old, used, tried
 * too often, or sent for an address that is no member's (then no code was ever sent). Telling
 * these apart told anyone who asked for a code which addresses are members (audit, issue 26).
 */
export const codeRefused = () =>
  MemberError.of(401, 'invalidCode', 'This code does not work: it may be mistyped, too old or used up. Check it, or ask for a new code', 'code');

/** What a typed code meets: the token it opens, a live code it is not (with the tries left), or no live code. */
export type CodeMatch = { token: MemberTokenRecord } | { wrong: true; left: number } | { wrong: false };

/**
 * Checks a typed code against the member's newest live code of `purpose`, spending one of its
 * CODE_TRIES tries first, so concurrent guesses get no more between them.
 */
export async function matchCode(store: Store, clock: Clock, siteId: number, memberId: number | undefined, purpose: MemberTokenPurpose, code: string): Promise<CodeMatch> {
  const token = memberId === undefined ? undefined : await store.findCodeToken(siteId, memberId, purpose);
  if (!token || token.expiresAt <= clock() || !(await store.spendCodeTry(token.id, CODE_TRIES))) return { wrong: false };
  return codeMatches(token, code) ? { token } : { wrong: true, left: CODE_TRIES - token.attempts - 1 };
}

/**
 * A signed-in member's code (an e-mail change): the token, or an answer that says why not and
 * how many tries are left, which tells the member nothing they do not know.
 */
export async function checkCode(store: Store, clock: Clock, siteId: number, memberId: number, purpose: MemberTokenPurpose, code: string): Promise<MemberTokenRecord> {
  const match = await matchCode(store, clock, siteId, memberId, purpose, code);
  if ('token' in match) return match.token;
  if (!match.wrong) throw codeExpired();
  const { left } = match;
  throw MemberError.of(401, 'invalidCode', left > 0 ? `The code is wrong; ${left} ${left === 1 ? 'try' : 'tries'} left` : 'The code is wrong; ask for a new code', 'code');
}

/**
 * What redeeming a sign-in token changes besides the session. An address never confirmed gets
 * confirmed. But whoever made the account may not own the address: anyone can sign up in
 * another's name first, and the sign-up's own mail then goes to the address's owner, so
 * following it proves the mailbox, not the password. The first confirmation keeps the password
 * only for someone who shows that they are the one who chose it (`sameHolder`: they typed it with
 * the code, or follow the link in the browser the sign-up signed in); otherwise the password is
 * removed (with it every unused mailed token, an e-mail change among them) and every other
 * session ends: the mailbox's holder signs in by code, or sets a password by a reset.
 */
export function firstConfirmation(member: MemberRecord, sameHolder: boolean, now: number): Pick<TokenEffects, 'member' | 'revokeSessions'> {
  if (member.emailConfirmedAt !== undefined) return {};
  return { member: { emailConfirmedAt: now, ...(!sameHolder && { passwordHash: null }) }, ...(!sameHolder && { revokeSessions: true }) };
}

/** A blocked member's mailed token opens nothing. */
export function refuseBlocked(member: MemberRecord | undefined): asserts member is MemberRecord {
  if (!member) throw tokenError('missing');
  if (member.status === 'blocked') throw MemberError.of(403, 'memberBlocked', 'This account is blocked; contact the site');
}
