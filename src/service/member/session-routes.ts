/**
 * Signing in and out (POST /sessions, DELETE /sessions/current): by a password here, or by a
 * mailed code with its address or a mailed link's token (./mailed-sign-in).
 */
import type { SiteRecord } from '../store/records';
import { readObject } from './body';
import type { MemberApp, MemberContext } from './context';
import { MemberError } from './errors';
import { requestSignInMail } from './mail-flows';
import { mailedSignIn } from './mailed-sign-in';
import { readReturnTo } from './return-to';
import { closeSession, openSession } from './sessions';
import { readEmail, readPassword, type Problems } from './signup';

export function sessionRoutes(app: MemberApp, ctx: MemberContext): void {
  const { store, clock, passwords, throttle, clientLimits, addressOf, sessionAnswer } = ctx;
  const { signInByToken, signInByCode } = mailedSignIn(ctx);
  const recordEvent = (site: SiteRecord, memberId: number, eventType: 'login') =>
    store.createMemberEvents([{ siteId: site.id, memberId, eventType, details: {}, createdAt: clock() }]);

  // Three ways in: a password, a mailed code with its address, or a mailed link's token.
  app.post('/sites/:subdomain/sessions', async (c) => {
    const site = c.get('site');
    const body = await readObject(c.req.raw);
    if (body.token !== undefined) return signInByToken(c, body.token);
    if (body.code !== undefined) return signInByCode(c, body);
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const password = readPassword(body.password, problems, false);
    const returnTo = readReturnTo(body.returnTo, site, problems);
    if (problems.length > 0) throw MemberError.fields(problems);
    await clientLimits.signIn(site.id, addressOf(c), clock());

    const login = await store.findMemberLogin(site.id, email);
    const signedIn = await throttle.attempt(site.id, email, clock, 'base', async () => {
      const valid = await passwords.verify(password, login?.passwordHash ?? (await ctx.decoyHash()));
      return !!login?.passwordHash && valid;
    });
    if (!login || !signedIn) throw MemberError.of(401, 'invalidCredentials', 'The e-mail or the password is wrong');
    if (login.status === 'blocked') throw MemberError.of(403, 'memberBlocked', 'This account is blocked; contact the site');
    if (site.mail?.requireConfirmedEmail === true && login.emailConfirmedAt === undefined) {
      await requestSignInMail(store, site, { id: login.memberId, email }, returnTo, 'confirmEmail', clock());
      throw MemberError.of(403, 'emailNotConfirmed', `Confirm your e-mail address first: we sent a code to ${email}`, 'email');
    }
    await recordEvent(site, login.memberId, 'login');
    const { token, session } = await openSession(store, clock, site.id, login.memberId);
    return sessionAnswer(c, (await store.getMember(site.id, login.memberId))!, token, session);
  });

  app.delete('/sites/:subdomain/sessions/current', async (c) => {
    await closeSession(store, clock, c.get('site'), c.req.raw);
    return new Response(null, { status: 204 });
  });
}
