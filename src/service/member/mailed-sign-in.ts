/**
 * Signing in by mail (POST /sessions with `token` or `code`): a mailed link's token, or a mailed
 * code with its address. Either redeems a signIn token: a session, a `login` event, and the
 * address confirmed when it was not; the first confirmation of an address keeps the password only
 * for its chooser (firstConfirmation in ./mail-flows, decision 0031).
 */
import type { MemberRecord, MemberTokenRecord } from '../store/records';
import type { MemberContext, MemberRequest } from './context';
import { MemberError } from './errors';
import { codeRefused, firstConfirmation, matchCode, refuseBlocked, tokenError } from './mail-flows';
import { findToken } from './mail-requests';
import { readCode } from './mail-tokens';
import { authenticate, bearerToken, newSession } from './sessions';
import { bad, PASSWORD_MAX, readEmail, type Problems } from './signup';

export function mailedSignIn(ctx: MemberContext) {
  const { store, clock, passwords, codeThrottle, clientLimits, addressOf, sessionAnswer } = ctx;

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

  return { signInByToken, signInByCode };
}
