/**
 * A forgotten password (docs/member-api.md, "Mail"): POST /password-reset mails a link, to a
 * member's address only but answered alike for every address; POST /password-reset/complete
 * sets the new password from the link, signs the member in and every other session out.
 */
import { PASSWORD_RESET_MS } from '../../contract/member';
import { siteMail, withSvcopen } from '../domain/site-mail';
import { readObject } from './body';
import type { MemberApp, MemberContext } from './context';
import { MemberError } from './errors';
import { mailedToken, refuseBlocked, tokenError } from './mail-flows';
import { findToken, mailRequestRoute } from './mail-requests';
import { tokenHashOf } from './mail-tokens';
import { newSession } from './sessions';
import { bad, readPassword, type Problems } from './signup';

type Deps = Pick<MemberContext, 'store' | 'clock' | 'passwords' | 'throttle' | 'sessionAnswer' | 'countMail'>;

export function passwordResetRoutes(app: MemberApp, ctx: Deps): void {
  const { store, clock, passwords } = ctx;

  mailRequestRoute(app, '/sites/:subdomain/password-reset', ctx, (site, member, returnTo, now) => {
    const t = mailedToken(site, member.id, 'passwordReset', now, PASSWORD_RESET_MS, false);
    const link = withSvcopen(returnTo, `/member/reset_password/${t.token}`);
    return { token: t.record, mail: siteMail(site, member.email, { kind: 'passwordReset', link, minutes: t.minutes }, now) };
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
    await ctx.throttle.clear(site.id, outcome.member.email);
    return ctx.sessionAnswer(c, outcome.member, session.token, outcome.session!);
  });
}
