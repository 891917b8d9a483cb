/**
 * An e-mail change (docs/member-api.md, "Mail"): it waits for the new address to confirm it, by
 * the mailed code (signed in) or the mailed link (from any browser); the old address is told.
 */
import type { EmailChangedResponse } from '../../contract/member';
import { sha256Hex } from '../crypto/digests';
import { siteMail, withSvcopen } from '../domain/site-mail';
import { jsonResponse } from '../http/json';
import { ConflictError } from '../store/errors';
import type { MemberRecord, MemberTokenRecord, SiteRecord } from '../store/records';
import { confirmCurrentPassword } from './account-routes';
import { readObject } from './body';
import type { MemberApp, MemberContext } from './context';
import { MemberError } from './errors';
import { checkCode, CONFIRM_MS, mailedToken, mailSent, queueRequested, refuseBlocked, tokenError } from './mail-flows';
import { findToken } from './mail-requests';
import { readCode } from './mail-tokens';
import { readReturnTo } from './return-to';
import { bearerToken } from './sessions';
import { readEmail, readPassword, type Problems } from './signup';

type Deps = Pick<MemberContext, 'store' | 'clock' | 'passwords' | 'throttle' | 'authenticate' | 'emailTaken' | 'countMail' | 'memberInfo'>;

export function emailChangeRoutes(app: MemberApp, ctx: Deps): void {
  const { store, clock } = ctx;

  // An e-mail change waits for the new address to confirm it: by the mailed code (signed in,
  // below) or the mailed link (POST /email-changes, from any browser).
  app.put('/sites/:subdomain/me/email', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const body = await readObject(c.req.raw);
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const password = readPassword(body.password, problems, false);
    const returnTo = readReturnTo(body.returnTo, site, problems);
    if (problems.length > 0) throw MemberError.fields(problems);
    await confirmCurrentPassword(ctx, site, member, password);
    if (email === member.email) return jsonResponse(await ctx.memberInfo(c, member), 200, { 'cache-control': 'no-store' });
    await ctx.countMail(c, member.id);

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
      if (error instanceof ConflictError) throw ctx.emailTaken();
      throw error;
    }
  };

  app.post('/sites/:subdomain/me/email/confirm', async (c) => {
    const site = c.get('site');
    const { member, session } = await ctx.authenticate(c);
    const body = await readObject(c.req.raw);
    const code = readCode(body.code);
    if (code === undefined) throw MemberError.fields([{ path: 'code', code: 'invalidField', message: 'Enter the 6-digit code from the e-mail' }]);
    const token = await checkCode(store, clock, site.id, member.id, 'emailChange', code);
    const changed = await changeEmail(site, token, member, session.tokenHash);
    return jsonResponse(await ctx.memberInfo(c, changed), 200, { 'cache-control': 'no-store' });
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
