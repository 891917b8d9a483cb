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
import type { MemberRecord, MemberTokenPurpose, MemberTokenRecord, SendLimits, SiteRecord, TokenEffects } from '../store/records';
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

/** Queues a sign-in mail the member asked for, under the send limits; false when a limit held it back. */
export async function requestSignInMail(store: Store, site: SiteRecord, member: { id: number; email: string }, returnTo: string, kind: SignInMailKind, now: number) {
  const { token, mail } = signInMail(site, member, returnTo, kind, now);
  return store.queueRequestedMail({ mail, token, limits: sendLimits(now) });
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
 * Checks a typed code against the member's newest live code of `purpose`, spending one of its
 * CODE_TRIES tries first, so concurrent guesses get no more between them. Answers the token.
 */
export async function checkCode(store: Store, clock: Clock, siteId: number, memberId: number | undefined, purpose: MemberTokenPurpose, code: string): Promise<MemberTokenRecord> {
  const token = memberId === undefined ? undefined : await store.findCodeToken(siteId, memberId, purpose);
  if (!token || token.expiresAt <= clock() || !(await store.spendCodeTry(token.id, CODE_TRIES))) throw codeExpired();
  if (!codeMatches(token, code)) {
    const left = CODE_TRIES - token.attempts - 1;
    throw MemberError.of(401, 'invalidCode', left > 0 ? `The code is wrong; ${left} ${left === 1 ? 'try' : 'tries'} left` : 'The code is wrong; ask for a new code', 'code');
  }
  return token;
}

/**
 * What redeeming a sign-in token changes besides the session. An address never confirmed gets
 * confirmed. But whoever made the account may not own the address: someone can sign up in
 * another's name first, and would keep a password that works once the owner confirms. So the
 * first confirmation keeps the password only when it comes from the sign-up's own mail (the
 * person who chose the password had the address's mail sent then), or from someone who shows the
 * password with the code; otherwise the password is removed (the member signs in by code or sets
 * one by a reset) and every other session ends.
 */
export function firstConfirmation(member: MemberRecord, token: MemberTokenRecord, passwordShown: boolean, now: number): Pick<TokenEffects, 'member' | 'revokeSessions'> {
  if (member.emailConfirmedAt !== undefined) return {};
  const trusted = token.signUp === true || passwordShown;
  return { member: { emailConfirmedAt: now, ...(!trusted && { passwordHash: null }) }, ...(!trusted && { revokeSessions: true }) };
}

/** A blocked member's mailed token opens nothing. */
export function refuseBlocked(member: MemberRecord | undefined): asserts member is MemberRecord {
  if (!member) throw tokenError('missing');
  if (member.status === 'blocked') throw MemberError.of(403, 'memberBlocked', 'This account is blocked; contact the site');
}
