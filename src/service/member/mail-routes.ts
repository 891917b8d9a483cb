/**
 * The member API's mail flows (issue 15): a forgotten password, a sign-in code, and an e-mail
 * change that takes effect once the new address confirms it (docs/member-api.md, "Mail").
 * Sign-in by code or link is POST /sessions (./app), which uses ./mail-flows too.
 */
import type { Context, Hono } from 'hono';
import { PASSWORD_RESET_MS, type EmailChangedResponse } from '../../contract/member';
import type { PasswordHasher } from '../auth/passwords';
import type { Clock } from '../domain/clock';
import { siteMail, withSvcopen } from '../domain/site-mail';
import { jsonResponse } from '../http/json';
import { sha256Hex } from '../crypto/digests';
import { ConflictError } from '../store/errors';
import type { MemberRecord, MemberTokenRecord, SessionRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { confirmCurrentPassword } from './account-routes';
import { readObject } from './body';
import { MemberError } from './errors';
import { checkCode, CONFIRM_MS, mailedToken, mailSent, queueRequested, refuseBlocked, signInMail, tokenError } from './mail-flows';
import { readCode, tokenHashOf } from './mail-tokens';
import { loadMemberInfo } from './member-info';
import { readReturnTo } from './return-to';
import { bearerToken, newSession, type Authenticated } from './sessions';
import type { SignInThrottle } from './sign-in-throttle';
import { bad, readEmail, readPassword, type Problems } from './signup';

type Env = { Variables: { site: SiteRecord } };

export interface MailRouteDeps {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  throttle: SignInThrottle;
  authenticate(c: Context<Env>): Promise<Authenticated>;
  /** 201 with the new session's token and the member (SessionResponse). */
  sessionAnswer(site: SiteRecord, member: MemberRecord, token: string, session: SessionRecord): Promise<Response>;
  emailTaken(): MemberError;
  /** Counts a mail asked for, per client address and (signed in) per member: 429 past a limit (./client-limits). */
  countMail(c: Context<Env>, memberId?: number): Promise<void>;
}

/** A mailed token of the site for `purpose`, or the error the link's holder should read. */
export async function findToken(store: Store, site: SiteRecord, value: unknown, purpose: MemberTokenRecord['purpose']): Promise<MemberTokenRecord> {
  const hash = tokenHashOf(value);
  const token = hash === undefined ? undefined : await store.findMemberToken(hash);
  if (!token || token.siteId !== site.id || token.purpose !== purpose) throw tokenError('missing');
  return token;
}

/**
 * A request for a mail answers no sooner than this after it arrived (audit, issue 26). A member's
 * address costs a store write that an unknown one does not (0.2–0.5 ms, which told members apart
 * about 80% of the time); everything else is done for both (the token, the code and the mail are
 * made either way), and this floor, far above that write, hides the rest.
 */
export const MAIL_ANSWER_FLOOR_MS = 20;

/**
 * Resolves MAIL_ANSWER_FLOOR_MS after it is called. Started as the request comes in, not measured
 * at its end: a timer set at the end for "what is left" fires on the event loop's whole
 * milliseconds, which kept part of the difference in the work.
 */
const answerFloor = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, MAIL_ANSWER_FLOOR_MS));

export function mailRoutes(app: Hono<Env>, deps: MailRouteDeps): void {
  const { store, clock, passwords } = deps;

  /** The e-mail and the page to lead back to, from a request for a mail. */
  const readMailRequest = async (c: Context<Env>) => {
    const body = await readObject(c.req.raw);
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const returnTo = readReturnTo(body.returnTo, c.get('site'), problems);
    if (problems.length > 0) throw MemberError.fields(problems);
    await deps.countMail(c);
    return { email, returnTo };
  };
  /** The member an address belongs to, when mail may go to them: not to a blocked one. */
  const mailableMember = async (site: SiteRecord, email: string) => {
    const login = await store.findMemberLogin(site.id, email);
    return login && login.status !== 'blocked' ? { id: login.memberId, email } : undefined;
  };

  app.post('/sites/:subdomain/password-reset', async (c) => {
    const floor = answerFloor();
    const site = c.get('site');
    const { email, returnTo } = await readMailRequest(c);
    const member = await mailableMember(site, email);
    const now = clock();
    // Made for an unknown address too (member 0), and dropped: the same work but the write.
    const t = mailedToken(site, member?.id ?? 0, 'passwordReset', now, PASSWORD_RESET_MS, false);
    const link = withSvcopen(returnTo, `/member/reset_password/${t.token}`);
    const mail = siteMail(site, email, { kind: 'passwordReset', link, minutes: t.minutes }, now);
    if (member) await queueRequested(store, site, mail, t.record, now);
    await floor;
    return mailSent(email);
  });

  app.post('/sites/:subdomain/password-reset/complete', async (c) => {
    const site = c.get('site');
    const body = await readObject(c.req.raw);
    const problems: Problems = [];
    if (tokenHashOf(body.token) === undefined) problems.push({ path: 'token', code: 'tokenInvalid', message: 'The link is not valid: copy the whole link from the e-mail' });
    const fresh: Problems = [];
    const newPassword = readPassword(body.newPassword, fresh, true);
    for (const problem of fresh) bad(problems, 'newPassword', problem.message);
    if (problems.length > 0) throw MemberError.fields(problems);

    const token = await findToken(store, site, body.token, 'passwordReset');
    // Said before the slow password hash: a used or old link costs nothing.
    if (token.usedAt !== undefined) throw tokenError('used');
    if (token.expiresAt <= clock()) throw tokenError('expired');
    const member = await store.getMember(site.id, token.memberId);
    refuseBlocked(member);
    const passwordHash = await passwords.hash(newPassword);
    const now = clock();
    const session = newSession(now);
    const outcome = await store.redeemMemberToken(token.id, now, {
      // The link came to the member's inbox: their address is confirmed too.
      member: { passwordHash, ...(member.emailConfirmedAt === undefined && { emailConfirmedAt: now }) },
      revokeSessions: true,
      session: session.fields,
      events: [{ eventType: 'passwordReset', details: {}, createdAt: now }],
    });
    if (!outcome.redeemed) throw tokenError(outcome.reason);
    // The link came to the member's inbox: whoever failed to guess the old password is no reason to keep them out.
    await deps.throttle.clear(site.id, outcome.member.email);
    return deps.sessionAnswer(site, outcome.member, session.token, outcome.session!);
  });

  app.post('/sites/:subdomain/sign-in-codes', async (c) => {
    const floor = answerFloor();
    const site = c.get('site');
    const { email, returnTo } = await readMailRequest(c);
    const member = await mailableMember(site, email);
    const now = clock();
    // Made for an unknown address too (member 0), and dropped: the same work but the write.
    const { token, mail } = signInMail(site, member ?? { id: 0, email }, returnTo, 'signInCode', now);
    if (member) await queueRequested(store, site, mail, token, now);
    await floor;
    return mailSent(email);
  });

  // An e-mail change waits for the new address to confirm it: by the mailed code (signed in,
  // below) or the mailed link (POST /email-changes, from any browser).
  app.put('/sites/:subdomain/me/email', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const body = await readObject(c.req.raw);
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const password = readPassword(body.password, problems, false);
    const returnTo = readReturnTo(body.returnTo, site, problems);
    if (problems.length > 0) throw MemberError.fields(problems);
    await confirmCurrentPassword(deps, site, member, password);
    if (email === member.email) return jsonResponse(await loadMemberInfo(store, site, member, clock()), 200, { 'cache-control': 'no-store' });
    await deps.countMail(c, member.id);

    const now = clock();
    const owner = await store.findMemberLogin(site.id, email);
    if (owner) {
      // Taken: the answer is the same, and the address's owner (unless blocked) learns someone tried.
      if (owner.status !== 'blocked') await queueRequested(store, site, siteMail(site, email, { kind: 'emailInUse' }, now), undefined, now);
    } else {
      const t = mailedToken(site, member.id, 'emailChange', now, CONFIRM_MS, true);
      const link = withSvcopen(returnTo, `/member/account/email_confirm/${t.token}`);
      const mail = siteMail(site, email, { kind: 'emailChange', newEmail: email, code: t.code!, link, minutes: t.minutes }, now);
      await queueRequested(store, site, mail, { ...t.record, newEmail: email }, now);
    }
    return mailSent(email);
  });

  /** Moves the member to the token's address, tells the old one, signs out other sessions. */
  const changeEmail = async (site: SiteRecord, token: MemberTokenRecord, member: MemberRecord, keepSessionHash?: string) => {
    const now = clock();
    const to = token.newEmail!;
    try {
      const outcome = await store.redeemMemberToken(token.id, now, {
        member: { email: to, emailConfirmedAt: now },
        revokeSessions: true,
        ...(keepSessionHash !== undefined && { keepSessionHash }),
        events: [{ eventType: 'emailChanged', details: { from: member.email, to }, createdAt: now }],
        mails: [siteMail(site, member.email, { kind: 'emailChanged', newEmail: to }, now)],
      });
      if (!outcome.redeemed) throw tokenError(outcome.reason);
      return outcome.member;
    } catch (error) {
      // Someone took the address between the request and its confirmation.
      if (error instanceof ConflictError) throw deps.emailTaken();
      throw error;
    }
  };

  app.post('/sites/:subdomain/me/email/confirm', async (c) => {
    const site = c.get('site');
    const { member, session } = await deps.authenticate(c);
    const body = await readObject(c.req.raw);
    const code = readCode(body.code);
    if (code === undefined) throw MemberError.fields([{ path: 'code', code: 'invalidField', message: 'Enter the 6-digit code from the e-mail' }]);
    const token = await checkCode(store, clock, site.id, member.id, 'emailChange', code);
    const changed = await changeEmail(site, token, member, session.tokenHash);
    return jsonResponse(await loadMemberInfo(store, site, changed, clock()), 200, { 'cache-control': 'no-store' });
  });

  app.post('/sites/:subdomain/email-changes', async (c) => {
    const site = c.get('site');
    const body = await readObject(c.req.raw);
    const token = await findToken(store, site, body.token, 'emailChange');
    const member = await store.getMember(site.id, token.memberId);
    refuseBlocked(member);
    // The browser that follows the link stays signed in when it is the member's.
    const bearer = bearerToken(c.req.raw);
    const changed = await changeEmail(site, token, member, bearer === undefined ? undefined : sha256Hex(bearer));
    return jsonResponse({ email: changed.email } satisfies EmailChangedResponse);
  });
}
