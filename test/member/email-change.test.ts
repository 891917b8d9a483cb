/**
 * An e-mail change (issue 15): PUT /me/email mails a code and a link to the new address, and the
 * change takes effect when either comes back: POST /me/email/confirm {code} (signed in) or POST
 * /email-changes {token} (from any browser).
 */
import { expect, test } from 'vitest';
import type { EmailChangedResponse, MemberInfo } from '../../src/contract/member';
import { CONFIRM_MS } from '../../src/service/member/mail-flows';
import {
  adminMemberEvents,
  allMail,
  codeOf,
  EMAIL_CONFIRM_SCREEN,
  expectMailSent,
  lastMailTo,
  linkOf,
  mailsTo,
  post,
  storedMember,
  tokenOf,
} from './mail-support';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, OTHER_BASE, SECOND, validSignUp, type MemberCtx } from './support';

const ME = `${BASE}/me`;
const NEW = 'augusta@example.com';

const putEmail = (ctx: MemberCtx, token: string, json: unknown) => ctx.authed(token, `${ME}/email`, { method: 'PUT', json });
const confirmCode = (ctx: MemberCtx, token: string, json: unknown) => ctx.authed(token, `${ME}/email/confirm`, { method: 'POST', json });
const me = async (ctx: MemberCtx, token: string) => jsonOf<MemberInfo>(await ctx.authed(token, ME), 200);

/** Ada signed in, asking to move to NEW; the mail's code and token. */
async function askChange(ctx: MemberCtx, returnTo?: string) {
  const session = await ctx.session(ADA);
  await expectMailSent(await putEmail(ctx, session.token, { email: NEW, password: ADA.password, ...(returnTo !== undefined && { returnTo }) }), NEW);
  const mail = await lastMailTo(ctx, NEW, 'emailChange');
  return { session, mail, code: codeOf(mail), token: tokenOf(mail, EMAIL_CONFIRM_SCREEN) };
}

forEachStore((fresh) => {
  test('PUT /me/email is 202 {email: new, mailSent}; nothing changes yet; the new address gets a code and a confirm link', async () => {
    const ctx = await fresh();
    const session = await ctx.session(ADA);
    await expectMailSent(await putEmail(ctx, session.token, { email: ' Augusta@Example.COM ', password: ADA.password, returnTo: 'https://demo.localhost/account' }), NEW);
    expect((await me(ctx, session.token)).email).toBe(ADA.email);
    expect((await ctx.signIn(ADA)).status).toBe(201);
    await expectError(await ctx.signIn({ email: NEW, password: ADA.password }), 401, 'invalidCredentials');
    const mails = await allMail(ctx);
    expect(mails.map((m) => [m.to, m.kind])).toEqual([[NEW, 'emailChange']]);
    const mail = mails[0]!;
    expect(codeOf(mail)).toMatch(/^\d{6}$/);
    const token = tokenOf(mail, EMAIL_CONFIRM_SCREEN);
    expect(linkOf(mail)).toBe(`https://demo.localhost/account?svcopen=${EMAIL_CONFIRM_SCREEN}/${token}`);
    expect(mail.text).toContain(NEW);
  });

  test('the code confirms: 200 MemberInfo with the new address; the login moves; the old address is told', async () => {
    const ctx = await fresh();
    const { session, code } = await askChange(ctx);
    const info = await jsonOf<MemberInfo>(await confirmCode(ctx, session.token, { code }), 200);
    expect(info.email).toBe(NEW);
    expect(info.id).toBe(ctx.demo.memberIds.ada);
    expect(await me(ctx, session.token)).toStrictEqual(info);
    expect((await ctx.signIn({ email: NEW, password: ADA.password })).status).toBe(201);
    await expectError(await ctx.signIn(ADA), 401, 'invalidCredentials');
    const told = await lastMailTo(ctx, ADA.email, 'emailChanged');
    expect(told.text).toContain(NEW);
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBe(ctx.now());
  });

  test('confirming signs out the member’s other sessions; this one and other members stay', async () => {
    const ctx = await fresh();
    const other = await ctx.session(ADA);
    const grace = await ctx.session(GRACE);
    const { session, code } = await askChange(ctx);
    // Asking changes nothing yet.
    expect((await ctx.authed(other.token, ME)).status).toBe(200);
    await jsonOf<MemberInfo>(await confirmCode(ctx, session.token, { code }), 200);
    expect((await me(ctx, session.token)).email).toBe(NEW);
    await expectError(await ctx.authed(other.token, ME), 401, 'unauthenticated');
    expect((await me(ctx, grace.token)).email).toBe(GRACE.email);
  });

  test('the change is recorded as an emailChanged event with details {from, to} (Admin API)', async () => {
    const ctx = await fresh();
    const memberId = ctx.demo.memberIds.ada!;
    const { session, code } = await askChange(ctx);
    expect((await adminMemberEvents(ctx, memberId)).filter((e) => e.eventType === 'emailChanged')).toEqual([]);
    ctx.advance(3 * SECOND);
    await jsonOf(await confirmCode(ctx, session.token, { code }), 200);
    const changes = (await adminMemberEvents(ctx, memberId)).filter((e) => e.eventType === 'emailChanged');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ memberId, details: { from: ADA.email, to: NEW }, createdAt: new Date(ctx.now()).toISOString() });
  });

  test('the link confirms without a session: POST /email-changes {token} is 200 {email}; every session is signed out; a second use is 400 tokenUsed', async () => {
    const ctx = await fresh();
    const { session, token } = await askChange(ctx);
    const body = await jsonOf<EmailChangedResponse>(await post(ctx, '/email-changes', { token }), 200);
    expect(body).toStrictEqual({ email: NEW });
    await expectError(await ctx.authed(session.token, ME), 401, 'unauthenticated');
    expect((await ctx.signIn({ email: NEW, password: ADA.password })).status).toBe(201);
    expect(await mailsTo(ctx, ADA.email, 'emailChanged')).toHaveLength(1);
    await expectError(await post(ctx, '/email-changes', { token }), 400, 'tokenUsed', 'token');
    expect(await mailsTo(ctx, ADA.email, 'emailChanged')).toHaveLength(1);
  });

  test('the link followed in the member’s own signed-in browser keeps that session', async () => {
    const ctx = await fresh();
    const other = await ctx.session(ADA);
    const { session, token } = await askChange(ctx);
    await jsonOf(await post(ctx, '/email-changes', { token }, { token: session.token }), 200);
    expect((await me(ctx, session.token)).email).toBe(NEW);
    await expectError(await ctx.authed(other.token, ME), 401, 'unauthenticated');
  });

  test('the link and the code are one: after the link, the code is refused', async () => {
    const ctx = await fresh();
    const { session, token, code } = await askChange(ctx);
    await jsonOf(await post(ctx, '/email-changes', { token }, { token: session.token }), 200);
    await expectError(await confirmCode(ctx, session.token, { code }), 401, 'codeExpired', 'code');
  });

  test('a garbage, foreign-site or wrong-purpose token is 400 tokenInvalid', async () => {
    const ctx = await fresh();
    const { token } = await askChange(ctx);
    await expectError(await post(ctx, '/email-changes', { token: 'garbage' }), 400, 'tokenInvalid', 'token');
    await expectError(await post(ctx, '/email-changes', {}), 400, 'tokenInvalid', 'token');
    await expectError(await post(ctx, '/email-changes', { token }, { origin: null }, OTHER_BASE), 400, 'tokenInvalid', 'token');
    // The change's token signs nobody in.
    await expectError(await ctx.signIn({ token }), 400, 'tokenInvalid', 'token');
    // A sign-in link changes no address.
    await expectMailSent(await post(ctx, '/sign-in-codes', { email: ADA.email }), ADA.email);
    const signIn = tokenOf(await lastMailTo(ctx, ADA.email, 'signInCode'), '/member/sign_in');
    await expectError(await post(ctx, '/email-changes', { token: signIn }), 400, 'tokenInvalid', 'token');
    expect((await storedMember(ctx, ADA.email))?.id).toBe(ctx.demo.memberIds.ada);
  });

  test('a wrong code is 401 invalidCode; a malformed one 400; without a session 401; nothing changes', async () => {
    const ctx = await fresh();
    const { session, code } = await askChange(ctx);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await expectError(await confirmCode(ctx, session.token, { code: wrong }), 401, 'invalidCode', 'code');
    await expectError(await confirmCode(ctx, session.token, { code: 'abc' }), 400, 'invalidField', 'code');
    await expectError(await confirmCode(ctx, session.token, {}), 400, 'invalidField', 'code');
    await expectError(await ctx.request(`${ME}/email/confirm`, { method: 'POST', json: { code } }), 401, 'unauthenticated');
    expect((await me(ctx, session.token)).email).toBe(ADA.email);
    // Another member's session cannot use Ada's code.
    const grace = await ctx.session(GRACE);
    await expectError(await confirmCode(ctx, grace.token, { code }), 401, 'codeExpired', 'code');
    expect((await me(ctx, grace.token)).email).toBe(GRACE.email);
    // Ada's own still works, with a space in it.
    expect((await jsonOf<MemberInfo>(await confirmCode(ctx, session.token, { code: `${code.slice(0, 3)} ${code.slice(3)}` }), 200)).email).toBe(NEW);
  });

  test('the code and link last a day', async () => {
    const ctx = await fresh();
    const { code, token } = await askChange(ctx);
    ctx.advance(CONFIRM_MS);
    const session = await ctx.session(ADA);
    await expectError(await confirmCode(ctx, session.token, { code }), 401, 'codeExpired', 'code');
    await expectError(await post(ctx, '/email-changes', { token }), 400, 'tokenExpired', 'token');
    expect((await me(ctx, session.token)).email).toBe(ADA.email);
  });

  test('a taken new address: the same 202, an emailInUse mail to that address, and nothing changes', async () => {
    const ctx = await fresh();
    const other = await ctx.session(ADA);
    const session = await ctx.session(ADA);
    const free = await putEmail(ctx, session.token, { email: NEW, password: ADA.password });
    const taken = await putEmail(ctx, session.token, { email: GRACE.email, password: ADA.password });
    expect(taken.status).toBe(free.status);
    await expectMailSent(free, NEW);
    await expectMailSent(taken, GRACE.email);
    const toGrace = await mailsTo(ctx, GRACE.email);
    expect(toGrace.map((m) => m.kind)).toEqual(['emailInUse']);
    expect(toGrace[0]!.text).not.toMatch(/svcopen|\n\d{6}\n/);
    expect((await me(ctx, session.token)).email).toBe(ADA.email);
    expect((await me(ctx, other.token)).email).toBe(ADA.email);
    expect((await ctx.signIn(GRACE)).status).toBe(201);
  });

  test('a wrong password is 401 invalidCredentials and mails nothing; a bad address 400; the same address 200 MemberInfo and no mail', async () => {
    const ctx = await fresh();
    const other = await ctx.session(ADA);
    const session = await ctx.session(ADA);
    await expectError(await putEmail(ctx, session.token, { email: NEW, password: 'wrong password' }), 401, 'invalidCredentials', 'password');
    await expectError(await putEmail(ctx, session.token, { email: 'not an address', password: ADA.password }), 400, 'invalidField', 'email');
    await expectError(await putEmail(ctx, session.token, { email: NEW, password: ADA.password, returnTo: 'ftp://demo.localhost/' }), 400, 'invalidField', 'returnTo');
    const same = await jsonOf<MemberInfo>(await putEmail(ctx, session.token, { email: 'ADA@demo.localhost', password: ADA.password }), 200);
    expect(same).toStrictEqual(await me(ctx, session.token));
    expect(same.email).toBe(ADA.email);
    expect(await allMail(ctx)).toEqual([]);
    expect((await me(ctx, other.token)).email).toBe(ADA.email);
  });

  test('an address taken between the request and the confirmation: 409 emailTaken, nothing changes', async () => {
    const ctx = await fresh();
    const { session, code } = await askChange(ctx);
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo, { email: NEW })), 201);
    await expectError(await confirmCode(ctx, session.token, { code }), 409, 'emailTaken');
    expect((await me(ctx, session.token)).email).toBe(ADA.email);
    expect(await mailsTo(ctx, ADA.email, 'emailChanged')).toEqual([]);
    expect((await adminMemberEvents(ctx, ctx.demo.memberIds.ada!)).filter((e) => e.eventType === 'emailChanged')).toEqual([]);
  });

  test('asking again replaces the code: only the newest request takes effect', async () => {
    const ctx = await fresh();
    const first = await askChange(ctx);
    await expectMailSent(await putEmail(ctx, first.session.token, { email: 'second@example.com', password: ADA.password }), 'second@example.com');
    const second = await lastMailTo(ctx, 'second@example.com', 'emailChange');
    const code = codeOf(second);
    if (code !== first.code) {
      const res = await confirmCode(ctx, first.session.token, { code: first.code });
      expect(res.status).toBe(401);
    }
    expect((await jsonOf<MemberInfo>(await confirmCode(ctx, first.session.token, { code }), 200)).email).toBe('second@example.com');
  });

  test('a password change voids a pending e-mail change', async () => {
    const ctx = await fresh();
    const { session, code, token } = await askChange(ctx);
    expect((await ctx.authed(session.token, `${ME}/password`, { method: 'PUT', json: { password: ADA.password, newPassword: 'changed on purpose' } })).status).toBe(204);
    await expectError(await confirmCode(ctx, session.token, { code }), 401, 'codeExpired', 'code');
    await expectError(await post(ctx, '/email-changes', { token }), 400, 'tokenInvalid', 'token');
    expect((await me(ctx, session.token)).email).toBe(ADA.email);
  });
});
