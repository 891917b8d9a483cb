/**
 * Signing in and out (POST /sessions, DELETE /sessions/current): by a password, by a mailed code
 * with its address, or by a mailed link's token; the first confirmation of an address keeps the
 * password only for its chooser (firstConfirmation in ./mail-flows, decision 0031).
 */
import type { MemberRecord, MemberTokenRecord, SiteRecord } from '../store/records';
import { readObject } from './body';
import type { MemberApp, MemberContext, MemberRequest } from './context';
import { MemberError } from './errors';
import { codeRefused, firstConfirmation, matchCode, refuseBlocked, requestSignInMail, tokenError } from './mail-flows';
import { findToken } from './mail-requests';
import { readCode } from './mail-tokens';
import { readReturnTo } from './return-to';
import { authenticate, bearerToken, closeSession, newSession, openSession } from './sessions';
import { bad, PASSWORD_MAX, readEmail, readPassword, type Problems } from './signup';

export function sessionRoutes(app: MemberApp, ctx: MemberContext): void {
  const { store, clock, passwords, throttle, codeThrottle, clientLimits, addressOf, sessionAnswer } = ctx;
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

  /**
   * Redeems a signIn token: a session, a `login` event, and the address confirmed when it was
   * not. The first confirmation by someone who does not show they chose the password takes the
   * password away and signs out every other session: the account may have been made in the
   * address's name by someone else (firstConfirmation in mail-flows.ts).
   */
  const redeemSignIn = async (
    c: MemberRequest,
    token: MemberTokenRecord,
    record: MemberRecord,
    refused: (reason: 'missing' | 'used' | 'expired') => MemberError,
    sameHolder: boolean,
  ) => {
    const site = c.get('site');
    const now = clock();
    const session = newSession(now);
    // The sign-up's own mail, first followed where the sign-up signed nobody in (a site that wants
    // addresses confirmed first, or an account made without a password): the registration ends
    // here. Read before the redemption, which may clear a password someone else chose.
    const registered = token.signUp === true && record.emailConfirmedAt === undefined
      && (site.mail?.requireConfirmedEmail === true || !(await store.findMemberLogin(site.id, record.email))?.passwordHash);
    const outcome = await store.redeemMemberToken(token.id, now, {
      ...firstConfirmation(record, sameHolder, now),
      session: session.fields,
      events: [{ eventType: 'login', details: {}, createdAt: now }],
    });
    if (!outcome.redeemed) throw refused(outcome.reason);
    return sessionAnswer(c, outcome.member, session.token, outcome.session!, registered);
  };
  const signInByToken = async (c: MemberRequest, value: unknown) => {
    const [site, request] = [c.get('site'), c.req.raw];
    const token = await findToken(store, site, value, 'signIn');
    const record = await store.getMember(site.id, token.memberId);
    refuseBlocked(record);
    const now = clock();
    if (token.usedAt !== undefined) throw tokenError('used');
    if (token.expiresAt <= now) throw tokenError('expired');
    // Followed in a browser signed in as this member (the one the sign-up signed in): the same person.
    const signedInHere = record.emailConfirmedAt === undefined && bearerToken(request) !== undefined
      && (await authenticate(store, clock, site, request).then(({ member }) => member.id === record.id, () => false));
    return redeemSignIn(c, token, record, tokenError, signedInHere);
  };
  const signInByCode = async (c: MemberRequest, body: Record<string, unknown>) => {
    const [site, address] = [c.get('site'), addressOf(c)];
    const problems: Problems = [];
    const email = readEmail(body.email, problems);
    const code = readCode(body.code);
    if (code === undefined) bad(problems, 'code', 'Enter the 6-digit code from the e-mail');
    if (problems.length > 0) throw MemberError.fields(problems);
    await clientLimits.signIn(site.id, address, clock());
    const login = await store.findMemberLogin(site.id, email);
    // Wrong codes are counted per address across codes, members' and strangers' alike; and any
    // code that opens nothing gets one answer, so a code tells nobody who is a member.
    let token: MemberTokenRecord | undefined;
    await codeThrottle.attempt(site.id, email, clock, 'code', async () => {
      const match = await matchCode(store, clock, site.id, login?.memberId, 'signIn', code!);
      if ('token' in match) token = match.token;
      return token !== undefined;
    });
    if (!token) throw codeRefused();
    const record = await store.getMember(site.id, token.memberId);
    refuseBlocked(record);
    // The password typed before the code (at sign-up, or a sign-in the site answered emailNotConfirmed) keeps it.
    const shown = typeof body.password === 'string' && !!login?.passwordHash && record.emailConfirmedAt === undefined
      && body.password.length <= PASSWORD_MAX && (await passwords.verify(body.password, login.passwordHash));
    return redeemSignIn(c, token, record, codeRefused, shown);
  };

  app.delete('/sites/:subdomain/sessions/current', async (c) => {
    await closeSession(store, clock, c.get('site'), c.req.raw);
    return new Response(null, { status: 204 });
  });
}
