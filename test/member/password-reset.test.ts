/**
 * A forgotten password (issue 15): POST /password-reset mails a link back to the page asked
 * from, and POST /password-reset/complete sets the new password with the link's token.
 */
import { expect, test } from 'vitest';
import { PASSWORD_RESET_MS, type MemberInfo, type SessionResponse } from '../../src/contract/member';
import { toBase64Url } from '../../src/service/crypto/bytes';
import {
  adminMemberEvents,
  allMail,
  expectMailSent,
  lastMailTo,
  linkOf,
  mailsTo,
  plantToken,
  post,
  RESET_SCREEN,
  SIGN_IN_SCREEN,
  storedMember,
  tokenOf,
} from './mail-support';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, MALLORY, OTHER_BASE, OTTO, SECOND, validSignUp, type MemberCtx } from './support';

const ME = `${BASE}/me`;
const NEW_PASSWORD = 'a brand new passphrase';

const askReset = (ctx: MemberCtx, json: unknown, base = BASE) => post(ctx, '/password-reset', json, base === BASE ? {} : { origin: null }, base);
const complete = (ctx: MemberCtx, json: unknown, base = BASE) =>
  post(ctx, '/password-reset/complete', json, base === BASE ? {} : { origin: null }, base);

/** Asks for a reset link for `email` and answers the token of the mail it queued. */
async function resetToken(ctx: MemberCtx, email: string = ADA.email, returnTo?: string): Promise<string> {
  await expectMailSent(await askReset(ctx, { email, ...(returnTo !== undefined && { returnTo }) }), email);
  return tokenOf(await lastMailTo(ctx, email, 'passwordReset'), RESET_SCREEN);
}

forEachStore((fresh) => {
  test('a member asking gets 202 {email, mailSent} and one mail with one link back to the page asked from', async () => {
    const ctx = await fresh();
    const returnTo = 'http://demo.localhost/pricing?plan=monthly#faq';
    await expectMailSent(await askReset(ctx, { email: ' Ada@Demo.Localhost ', returnTo }), ADA.email);
    const mails = await allMail(ctx);
    expect(mails.map((m) => [m.to, m.kind, m.siteId])).toEqual([[ADA.email, 'passwordReset', ctx.demo.site.id]]);
    const mail = mails[0]!;
    expect(mail.subject).toContain('Demo Academy');
    const link = linkOf(mail);
    const token = tokenOf(mail, RESET_SCREEN);
    expect(link).toBe(`http://demo.localhost/pricing?plan=monthly&svcopen=${RESET_SCREEN}/${token}#faq`);
  });

  test('an unknown address and a blocked member get the same answer and no mail', async () => {
    const ctx = await fresh();
    const known = await askReset(ctx, { email: ADA.email, returnTo: 'http://demo.localhost/' });
    const unknown = await askReset(ctx, { email: 'nobody@example.com', returnTo: 'http://demo.localhost/' });
    const blocked = await askReset(ctx, { email: MALLORY.email, returnTo: 'http://demo.localhost/' });
    for (const res of [known, unknown, blocked]) {
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toBe(known.headers.get('content-type'));
      expect(res.headers.get('cache-control')).toBe(known.headers.get('cache-control'));
    }
    await expectMailSent(known, ADA.email);
    await expectMailSent(unknown, 'nobody@example.com');
    await expectMailSent(blocked, MALLORY.email);
    expect((await allMail(ctx)).map((m) => m.to)).toEqual([ADA.email]);
  });

  test('returnTo on the site, a subdomain of it, or loopback (demo site) is accepted; absent, the link leads to the site home', async () => {
    const ctx = await fresh();
    for (const returnTo of ['https://demo.localhost/a', 'https://www.demo.localhost:8443/b?x=1', 'http://localhost:5173/c', 'http://127.0.0.1/d']) {
      const token = await resetToken(ctx, ADA.email, returnTo);
      const url = new URL(linkOf(await lastMailTo(ctx, ADA.email)));
      const asked = new URL(returnTo);
      expect([url.origin, url.pathname]).toEqual([asked.origin, asked.pathname]);
      expect(url.searchParams.get('svcopen')).toBe(`${RESET_SCREEN}/${token}`);
    }
    // The fifth mail of the hour is still under the limit.
    const token = await resetToken(ctx, GRACE.email);
    expect(linkOf(await lastMailTo(ctx, GRACE.email))).toBe(`https://demo.localhost/?svcopen=${RESET_SCREEN}/${token}`);
  });

  test.each([
    'javascript:alert(1)//demo.localhost',
    'ftp://demo.localhost/',
    'https://user:pw@demo.localhost/',
    '/relative/path',
    'not a url',
  ])('returnTo %s is 400 invalidField on returnTo, and no mail is queued', async (returnTo) => {
    const ctx = await fresh();
    await expectError(await askReset(ctx, { email: ADA.email, returnTo }), 400, 'invalidField', 'returnTo');
    expect(await allMail(ctx)).toEqual([]);
  });

  test('a returnTo that has a svcopen already gets the reset one instead; its other parameters stay', async () => {
    const ctx = await fresh();
    const token = await resetToken(ctx, ADA.email, 'https://demo.localhost/p?svcopen=/member/login&a=1&b=two%20words');
    expect(linkOf(await lastMailTo(ctx, ADA.email))).toBe(`https://demo.localhost/p?a=1&b=two%20words&svcopen=${RESET_SCREEN}/${token}`);
  });

  test.each([
    'https://evil.example/steal',
    'https://demo.localhost.evil.example/',
    'https://evildemo.localhost/',
    // The service's own address is no page of the site.
    'http://svc.test/member/v1/sites/demo/config',
  ])('returnTo %s, a page off the site, is not taken: the link leads to the site\'s home page', async (returnTo) => {
    const ctx = await fresh();
    const token = await resetToken(ctx, ADA.email, returnTo);
    expect(linkOf(await lastMailTo(ctx, ADA.email))).toBe(`https://demo.localhost/?svcopen=${RESET_SCREEN}/${token}`);
  });

  test('loopback is the demo site’s only: the other site sends the member to its home page instead', async () => {
    const ctx = await fresh();
    await expectMailSent(await askReset(ctx, { email: OTTO.email, returnTo: 'http://localhost:5173/' }, OTHER_BASE), OTTO.email);
    expect(linkOf(await lastMailTo(ctx, OTTO.email, 'passwordReset')).startsWith(`https://${ctx.other.site.domain}/?svcopen=`)).toBe(true);
    await expectMailSent(await askReset(ctx, { email: OTTO.email, returnTo: 'https://shop.other.example/konto' }, OTHER_BASE), OTTO.email);
    const mail = await lastMailTo(ctx, OTTO.email, 'passwordReset');
    expect(mail.siteId).toBe(ctx.other.site.id);
    expect(linkOf(mail).startsWith('https://shop.other.example/konto?svcopen=/member/reset_password/')).toBe(true);
  });

  test('a bad address is 400 on email; no mail', async () => {
    const ctx = await fresh();
    await expectError(await askReset(ctx, { email: 'not an address' }), 400, 'invalidField', 'email');
    await expectError(await askReset(ctx, {}), 400, 'invalidField', 'email');
    expect(await allMail(ctx)).toEqual([]);
  });

  test('completing: 201 session; other sessions are signed out; the old password fails and the new one works', async () => {
    const ctx = await fresh();
    const before = await ctx.session(ADA);
    const grace = await ctx.session(GRACE);
    const token = await resetToken(ctx);
    const session = await jsonOf<SessionResponse>(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 201);
    expect(Object.keys(session).sort()).toEqual(['expiresAt', 'memberInfo', 'token']);
    expect(session.memberInfo.email).toBe(ADA.email);
    expect(session.memberInfo.id).toBe(ctx.demo.memberIds.ada);
    expect((await jsonOf<MemberInfo>(await ctx.authed(session.token, ME), 200)).email).toBe(ADA.email);
    await expectError(await ctx.authed(before.token, ME), 401, 'unauthenticated');
    expect((await ctx.authed(grace.token, ME)).status).toBe(200);
    await expectError(await ctx.signIn(ADA), 401, 'invalidCredentials');
    expect((await ctx.signIn({ email: ADA.email, password: NEW_PASSWORD })).status).toBe(201);
  });

  test('the link works once: a second use is 400 tokenUsed and does not set the password again', async () => {
    const ctx = await fresh();
    const token = await resetToken(ctx);
    await jsonOf(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 201);
    await expectError(await complete(ctx, { token, newPassword: 'yet another password' }), 400, 'tokenUsed', 'token');
    expect((await ctx.signIn({ email: ADA.email, password: NEW_PASSWORD })).status).toBe(201);
    await expectError(await ctx.signIn({ email: ADA.email, password: 'yet another password' }), 401, 'invalidCredentials');
  });

  test('the link lasts an hour: just before it works, at the hour it is 400 tokenExpired', async () => {
    const ctx = await fresh();
    const early = await resetToken(ctx);
    ctx.advance(PASSWORD_RESET_MS - SECOND);
    await jsonOf(await complete(ctx, { token: early, newPassword: NEW_PASSWORD }), 201);

    const late = await resetToken(ctx, GRACE.email);
    ctx.advance(PASSWORD_RESET_MS);
    await expectError(await complete(ctx, { token: late, newPassword: NEW_PASSWORD }), 400, 'tokenExpired', 'token');
    expect((await ctx.signIn(GRACE)).status).toBe(201);
  });

  test.each([
    ['garbage', 'not-a-token'],
    ['a well-formed token never issued', toBase64Url(new Uint8Array(32).fill(9))],
    ['a number', 42],
  ])('a token that is %s is 400 tokenInvalid', async (_label, token) => {
    const ctx = await fresh();
    await resetToken(ctx);
    await expectError(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 400, 'tokenInvalid', 'token');
    expect((await ctx.signIn(ADA)).status).toBe(201);
  });

  test('a missing token or a short new password is 400, and the link still works afterwards', async () => {
    const ctx = await fresh();
    const token = await resetToken(ctx);
    await expectError(await complete(ctx, { newPassword: NEW_PASSWORD }), 400, 'tokenInvalid', 'token');
    await expectError(await complete(ctx, { token, newPassword: 'short' }), 400, 'invalidField', 'newPassword');
    await expectError(await complete(ctx, { token }), 400, 'invalidField', 'newPassword');
    expect((await ctx.signIn(ADA)).status).toBe(201);
    await jsonOf(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 201);
  });

  test('a link sent before a password change (PUT /me/password) is 400 tokenInvalid', async () => {
    const ctx = await fresh();
    const token = await resetToken(ctx);
    const { token: bearer } = await ctx.session(ADA);
    const res = await ctx.authed(bearer, `${ME}/password`, { method: 'PUT', json: { password: ADA.password, newPassword: 'changed on purpose' } });
    expect(res.status).toBe(204);
    await expectError(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 400, 'tokenInvalid', 'token');
    expect((await ctx.signIn({ email: ADA.email, password: 'changed on purpose' })).status).toBe(201);
  });

  test('a second link sent before a reset is void once the first resets the password', async () => {
    const ctx = await fresh();
    const first = await resetToken(ctx);
    const second = await resetToken(ctx);
    expect(second).not.toBe(first);
    await jsonOf(await complete(ctx, { token: first, newPassword: NEW_PASSWORD }), 201);
    const res = await complete(ctx, { token: second, newPassword: 'the second password' });
    expect(res.status).toBe(400);
    expect(['tokenInvalid', 'tokenUsed']).toContain((await res.json()).errors[0].code);
    expect((await ctx.signIn({ email: ADA.email, password: NEW_PASSWORD })).status).toBe(201);
  });

  test('a reset link is no sign-in link, and a demo link does nothing on the other site', async () => {
    const ctx = await fresh();
    const token = await resetToken(ctx);
    await expectError(await ctx.signIn({ token }), 400, 'tokenInvalid', 'token');
    await expectError(await complete(ctx, { token, newPassword: NEW_PASSWORD }, OTHER_BASE), 400, 'tokenInvalid', 'token');
    // A sign-in link is no reset link either.
    await expectMailSent(await post(ctx, '/sign-in-codes', { email: ADA.email }), ADA.email);
    const signIn = tokenOf(await lastMailTo(ctx, ADA.email, 'signInCode'), SIGN_IN_SCREEN);
    await expectError(await complete(ctx, { token: signIn, newPassword: NEW_PASSWORD }), 400, 'tokenInvalid', 'token');
    expect((await ctx.signIn(ADA)).status).toBe(201);
    // Still good where it belongs.
    await jsonOf(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 201);
  });

  test("a blocked member's link (sent before the block) is 403 memberBlocked and sets nothing", async () => {
    const ctx = await fresh();
    const memberId = ctx.demo.memberIds.mallory!;
    const token = await plantToken(ctx, memberId, 'passwordReset', PASSWORD_RESET_MS);
    await expectError(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 403, 'memberBlocked');
    await expectError(await ctx.signIn(MALLORY), 403, 'memberBlocked');
    await expectError(await ctx.signIn({ email: MALLORY.email, password: NEW_PASSWORD }), 401, 'invalidCredentials');
  });

  test('the reset is recorded as a passwordReset member event (Admin API)', async () => {
    const ctx = await fresh();
    const memberId = ctx.demo.memberIds.ada!;
    const token = await resetToken(ctx);
    expect((await adminMemberEvents(ctx, memberId)).filter((e) => e.eventType === 'passwordReset')).toEqual([]);
    await jsonOf(await complete(ctx, { token, newPassword: NEW_PASSWORD }), 201);
    const resets = (await adminMemberEvents(ctx, memberId)).filter((e) => e.eventType === 'passwordReset');
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ memberId, details: {}, createdAt: new Date(ctx.now()).toISOString() });
  });

  test('a reset confirms an address never confirmed (the link came to its inbox)', async () => {
    const ctx = await fresh();
    const body = validSignUp(ctx.demo);
    await jsonOf(await ctx.signUp(body), 201);
    expect((await storedMember(ctx, body.email))?.emailConfirmedAt).toBeUndefined();
    ctx.advance(60_000);
    await jsonOf(await complete(ctx, { token: await resetToken(ctx, body.email), newPassword: NEW_PASSWORD }), 201);
    expect((await storedMember(ctx, body.email))?.emailConfirmedAt).toBe(ctx.now());
  });

  test('asking twice sends two mails with different links, both good until one is used', async () => {
    const ctx = await fresh();
    const first = await resetToken(ctx);
    const second = await resetToken(ctx);
    expect(first).not.toBe(second);
    expect(await mailsTo(ctx, ADA.email, 'passwordReset')).toHaveLength(2);
    await jsonOf(await complete(ctx, { token: second, newPassword: NEW_PASSWORD }), 201);
  });
});
