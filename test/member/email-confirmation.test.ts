/**
 * Confirmed addresses (issue 15): sign-up mails a code and a link that confirm the address; a
 * site with `mail.requireConfirmedEmail` signs nobody in before that, and answers a taken address
 * exactly like a new one.
 */
import { expect, test } from 'vitest';
import type { SessionResponse } from '../../src/contract/member';
import { CONFIRM_MS } from '../../src/service/member/mail-flows';
import { allMail, codeOf, codesIn, EMAIL_CONFIRM_SCREEN, expectMailSent, lastMailTo, linkOf, mailsTo, SIGN_IN_SCREEN, storedMember, tokenOf } from './mail-support';
import { ADA, BASE, expectError, forEachStore, jsonOf, MALLORY, SECOND, validSignUp, type MemberCtx } from './support';

const NEW = 'new.member@example.com';
const ME = `${BASE}/me`;

const confirmFirst = (ctx: MemberCtx, notices?: { welcome: boolean }) =>
  ctx.store.updateSite(ctx.demo.site.id, { mail: { requireConfirmedEmail: true, ...(notices && { notices }) } });

async function memberCount(ctx: MemberCtx): Promise<number> {
  return (await ctx.store.listMembers(ctx.demo.site.id, {}, { limit: 1000 })).items.length;
}

forEachStore((fresh) => {
  describeDefaultSite(fresh);
  describeConfirmFirst(fresh);
  describePasswordless(fresh);
});

/** A sign-up with no `password` key: an account the mailed code opens (issue 29's one-step form). */
function describePasswordless(fresh: () => Promise<MemberCtx>): void {
  const withoutPassword = (ctx: MemberCtx, overrides: Record<string, unknown> = {}) => {
    const { password: _password, ...body } = validSignUp(ctx.demo, overrides);
    return body;
  };

  test('without a password: 202 {email, mailSent}, no session; the mailed code signs in and confirms; there is no password to log in with', async () => {
    const ctx = await fresh();
    const before = await memberCount(ctx);
    await expectMailSent(await ctx.signUp(withoutPassword(ctx)), NEW);
    expect(await memberCount(ctx)).toBe(before + 1);
    const member = (await storedMember(ctx, NEW))!;
    expect(member).toMatchObject({ firstName: 'New', lastName: 'Member' });
    expect((await ctx.store.findMemberLogin(ctx.demo.site.id, NEW))?.passwordHash).toBeUndefined();
    const session = await jsonOf<SessionResponse>(await ctx.signIn({ email: NEW, code: codeOf(await lastMailTo(ctx, NEW, 'welcome')) }), 201);
    expect(session.memberInfo.email).toBe(NEW);
    // The registration ends here (the page hears Service.member.registration).
    expect(session.registered).toBe(true);
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBe(ctx.now());
    await expectError(await ctx.signIn({ email: NEW, password: 'a good password' }), 401, 'invalidCredentials');
  });

  test('without a password on a taken address: answered alike (202), no second account; its owner is mailed a way in', async () => {
    const ctx = await fresh();
    const before = await memberCount(ctx);
    await expectMailSent(await ctx.signUp(withoutPassword(ctx, { email: ADA.email })), ADA.email);
    expect(await memberCount(ctx)).toBe(before);
    const mail = await lastMailTo(ctx, ADA.email, 'accountExists');
    // The code in it signs the owner in; their password is untouched.
    await jsonOf(await ctx.signIn({ email: ADA.email, code: codeOf(mail) }), 201);
    await jsonOf(await ctx.signIn(ADA), 201);
  });

  test('an empty or short password is still refused (400 on password): only a sign-up without the key at all has none', async () => {
    const ctx = await fresh();
    for (const password of ['', 'short', null]) await expectError(await ctx.signUp(validSignUp(ctx.demo, { password })), 400, 'invalidField', 'password');
    expect(await storedMember(ctx, NEW)).toBeUndefined();
  });
}

function describeDefaultSite(fresh: () => Promise<MemberCtx>): void {
  test('default site: sign-up is 201 with a session AND a welcome mail with a code and a sign-in link; the address is not confirmed yet', async () => {
    const ctx = await fresh();
    const session = await jsonOf<SessionResponse>(await ctx.signUp(validSignUp(ctx.demo)), 201);
    expect(session.memberInfo.email).toBe(NEW);
    const mails = await allMail(ctx);
    expect(mails.map((m) => [m.to, m.kind])).toEqual([[NEW, 'welcome']]);
    const mail = mails[0]!;
    expect(codeOf(mail)).toMatch(/^\d{6}$/);
    const token = tokenOf(mail, SIGN_IN_SCREEN);
    expect(linkOf(mail)).toBe(`https://demo.localhost/?svcopen=${SIGN_IN_SCREEN}/${token}`);
    expect(mail.text).toContain('Hello New,');
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBeUndefined();
  });

  test('default site: following the welcome link (POST /sessions {token}) signs in and confirms the address', async () => {
    const ctx = await fresh();
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo)), 201);
    ctx.advance(5 * SECOND);
    const token = tokenOf(await lastMailTo(ctx, NEW, 'welcome'), SIGN_IN_SCREEN);
    const session = await jsonOf<SessionResponse>(await ctx.signIn({ token }), 201);
    expect(session.memberInfo.email).toBe(NEW);
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBe(ctx.now());
    await expectError(await ctx.signIn({ token }), 400, 'tokenUsed');
  });

  test('default site: the welcome code signs in with the address and confirms it', async () => {
    const ctx = await fresh();
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo)), 201);
    const code = codeOf(await lastMailTo(ctx, NEW, 'welcome'));
    await jsonOf(await ctx.signIn({ email: NEW, code }), 201);
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBe(ctx.now());
  });

  test('the welcome link leads back to the returnTo of the sign-up, and lasts a day', async () => {
    const ctx = await fresh();
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo, { returnTo: 'https://demo.localhost/join?ref=x' })), 201);
    const mail = await lastMailTo(ctx, NEW, 'welcome');
    const token = tokenOf(mail, SIGN_IN_SCREEN);
    expect(linkOf(mail)).toBe(`https://demo.localhost/join?ref=x&svcopen=${SIGN_IN_SCREEN}/${token}`);
    ctx.advance(CONFIRM_MS);
    await expectError(await ctx.signIn({ token }), 400, 'tokenExpired');
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBeUndefined();
  });

  test('a sign-up with a returnTo that is no web address is 400 on returnTo and creates no member, sends no mail', async () => {
    const ctx = await fresh();
    const before = await memberCount(ctx);
    await expectError(await ctx.signUp(validSignUp(ctx.demo, { returnTo: 'javascript:alert(1)' })), 400, 'invalidField', 'returnTo');
    expect(await memberCount(ctx)).toBe(before);
    expect(await allMail(ctx)).toEqual([]);
  });

  test('a sign-up with a returnTo off the site: the welcome link leads to the site\'s home page', async () => {
    const ctx = await fresh();
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo, { returnTo: 'https://evil.example/' })), 201);
    expect(linkOf(await lastMailTo(ctx, NEW, 'welcome')).startsWith(`https://demo.localhost/?svcopen=${SIGN_IN_SCREEN}/`)).toBe(true);
  });

  test('default site: a taken address is still 409 emailTaken, and mails nothing', async () => {
    const ctx = await fresh();
    await expectError(await ctx.signUp(validSignUp(ctx.demo, { email: ADA.email })), 409, 'emailTaken');
    expect(await allMail(ctx)).toEqual([]);
  });

  test('default site with the welcome notice off: the sign-up mail is confirmEmail, with a code and a link', async () => {
    const ctx = await fresh();
    await ctx.store.updateSite(ctx.demo.site.id, { mail: { notices: { welcome: false } } });
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo)), 201);
    const mails = await allMail(ctx);
    expect(mails.map((m) => [m.to, m.kind])).toEqual([[NEW, 'confirmEmail']]);
    const token = tokenOf(mails[0]!, SIGN_IN_SCREEN);
    expect(codesIn(mails[0]!)).toHaveLength(1);
    await jsonOf(await ctx.signIn({ token }), 201);
  });
}

function describeConfirmFirst(fresh: () => Promise<MemberCtx>): void {
  test('confirm-first site: sign-up is 202 {email, mailSent}, opens no session, and mails the welcome code', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    const before = await memberCount(ctx);
    await expectMailSent(await ctx.signUp(validSignUp(ctx.demo, { email: ' New.Member@Example.com ' })), NEW);
    expect(await memberCount(ctx)).toBe(before + 1);
    const member = (await storedMember(ctx, NEW))!;
    expect(member.emailConfirmedAt).toBeUndefined();
    expect(await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: member.id }, { limit: 10 }).then((p) => p.items.map((e) => e.eventType))).toEqual(['signup']);
    expect((await allMail(ctx)).map((m) => [m.to, m.kind])).toEqual([[NEW, 'welcome']]);
  });

  test('confirm-first site: a taken address answers exactly like a new one; no member is made and the owner gets accountExists', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    const newcomer = await ctx.signUp(validSignUp(ctx.demo));
    const before = await memberCount(ctx);
    const taken = await ctx.signUp(validSignUp(ctx.demo, { email: 'ADA@demo.localhost', password: 'an attacker password' }));
    expect(taken.status).toBe(newcomer.status);
    expect([...taken.headers.entries()].filter(([k]) => k !== 'date')).toEqual([...newcomer.headers.entries()].filter(([k]) => k !== 'date'));
    const newText = await expectMailSent(newcomer, NEW);
    const takenText = await expectMailSent(taken, ADA.email);
    expect(takenText).toBe(newText.replace(NEW, ADA.email));
    expect(await memberCount(ctx)).toBe(before);
    // Ada's account is unchanged: her password is hers, not the one typed.
    const ada = (await storedMember(ctx, ADA.email))!;
    expect(ada.id).toBe(ctx.demo.memberIds.ada);
    expect(ada.firstName).toBe('Ada');
    // The owner's mail: a code (the sign-up screen asks for one, whichever mail went) and a sign-in link.
    const mail = await lastMailTo(ctx, ADA.email, 'accountExists');
    expect(codesIn(mail)).toHaveLength(1);
    const token = tokenOf(mail, SIGN_IN_SCREEN);
    const session = await jsonOf<SessionResponse>(await ctx.signIn({ token }), 201);
    expect(session.memberInfo.id).toBe(ctx.demo.memberIds.ada);
    await expectError(await ctx.signIn({ email: ADA.email, password: 'an attacker password' }), 401, 'invalidCredentials');
  });

  test('confirm-first site: a taken address of a blocked member answers the same, and mails nothing', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    await expectMailSent(await ctx.signUp(validSignUp(ctx.demo, { email: MALLORY.email })), MALLORY.email);
    expect(await mailsTo(ctx, MALLORY.email)).toEqual([]);
  });

  test('confirm-first site: after a refused password sign-in, the newest mailed code signs in and confirms; then the password works', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    const body = validSignUp(ctx.demo);
    await expectMailSent(await ctx.signUp(body), NEW);
    await expectError(await ctx.signIn({ email: NEW, password: body.password }), 403, 'emailNotConfirmed', 'email');
    const first = codeOf((await mailsTo(ctx, NEW, 'welcome'))[0]!);
    // The 403 mailed a newer code (confirmEmail): only the newest code works.
    const newest = codeOf(await lastMailTo(ctx, NEW, 'confirmEmail'));
    if (first !== newest) expect((await ctx.signIn({ email: NEW, code: first })).status).toBe(401);
    // The widget sends the password typed before the code along with it: that keeps it (the
    // code alone, from a mail the sign-up did not send, would take it away; see the takeover tests).
    const session = await jsonOf<SessionResponse>(await ctx.signIn({ email: NEW, code: newest, password: body.password }), 201);
    expect(session.memberInfo.email).toBe(NEW);
    expect((await ctx.authed(session.token, ME)).status).toBe(200);
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBe(ctx.now());
    expect((await ctx.signIn({ email: NEW, password: body.password })).status).toBe(201);
  });

  test('confirm-first site: the code of the sign-up mail, typed with the password chosen (as the widget sends it), signs in, confirms and keeps the password', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    const body = validSignUp(ctx.demo);
    await expectMailSent(await ctx.signUp(body), NEW);
    const code = codeOf(await lastMailTo(ctx, NEW, 'welcome'));
    await jsonOf(await ctx.signIn({ email: NEW, code, password: body.password }), 201);
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBe(ctx.now());
    expect((await ctx.signIn({ email: NEW, password: body.password })).status).toBe(201);
  });

  test('confirm-first site: the code of the sign-up mail alone signs in and confirms, but the password chosen at sign-up is gone', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    const body = validSignUp(ctx.demo);
    await expectMailSent(await ctx.signUp(body), NEW);
    const code = codeOf(await lastMailTo(ctx, NEW, 'welcome'));
    await jsonOf(await ctx.signIn({ email: NEW, code }), 201);
    expect((await storedMember(ctx, NEW))?.emailConfirmedAt).toBe(ctx.now());
    await expectError(await ctx.signIn({ email: NEW, password: body.password }), 401, 'invalidCredentials');
  });

  test('confirm-first site: an unconfirmed member signing in with a password is 403 emailNotConfirmed, and a confirmEmail mail is queued', async () => {
    const ctx = await fresh();
    // Signed up while the site let unconfirmed members in; then the site turned confirmation on.
    const body = validSignUp(ctx.demo);
    await jsonOf(await ctx.signUp(body), 201);
    await confirmFirst(ctx);
    const member = { email: NEW, password: body.password };
    await expectError(await ctx.signIn({ ...member, returnTo: 'https://demo.localhost/login' }), 403, 'emailNotConfirmed', 'email');
    const mail = await lastMailTo(ctx, NEW, 'confirmEmail');
    const token = tokenOf(mail, SIGN_IN_SCREEN);
    expect(linkOf(mail)).toBe(`https://demo.localhost/login?svcopen=${SIGN_IN_SCREEN}/${token}`);
    await jsonOf(await ctx.signIn({ ...member, code: codeOf(mail) }), 201);
    expect((await ctx.signIn(member)).status).toBe(201);
  });

  test('confirm-first site: the fixture members (long-standing, confirmed) sign in with their passwords', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    expect((await storedMember(ctx, ADA.email))?.emailConfirmedAt).toEqual(expect.any(Number));
    expect((await ctx.signIn(ADA)).status).toBe(201);
  });

  test('confirm-first site: a wrong password is still 401 and mails nothing', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    await expectError(await ctx.signIn({ email: ADA.email, password: 'wrong password' }), 401, 'invalidCredentials');
    expect(await allMail(ctx)).toEqual([]);
  });

  test('confirm-first site with the welcome notice off: the sign-up mail is confirmEmail', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx, { welcome: false });
    await expectMailSent(await ctx.signUp(validSignUp(ctx.demo)), NEW);
    const mails = await allMail(ctx);
    expect(mails.map((m) => [m.to, m.kind])).toEqual([[NEW, 'confirmEmail']]);
    await jsonOf(await ctx.signIn({ email: NEW, code: codeOf(mails[0]!) }), 201);
  });

  test('confirm-first site: a confirmed member signs in with the password as usual', async () => {
    const ctx = await fresh();
    // Ada confirms with a sign-in code first (the site's switch does not matter for that).
    await expectMailSent(await ctx.request(`${BASE}/sign-in-codes`, { method: 'POST', json: { email: ADA.email } }), ADA.email);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: codeOf(await lastMailTo(ctx, ADA.email, 'signInCode')) }), 201);
    await confirmFirst(ctx);
    const mailsBefore = (await allMail(ctx)).length;
    expect((await ctx.signIn(ADA)).status).toBe(201);
    expect((await allMail(ctx)).length).toBe(mailsBefore);
  });
}

/**
 * An account made in someone else's name before they came (pre-hijacking): a stranger signs up
 * with the victim's address and a password of their own. Whatever later confirms the address for
 * the victim, other than someone who shows that password (typed with the code, or a session the
 * sign-up opened), must leave the stranger nothing: the password is taken away and every session ends. These failed before
 * (the stranger's password went on working once the victim confirmed).
 */
forEachStore((fresh) => {
  const VICTIM = 'victim@example.com';
  const strangerSignUp = (ctx: MemberCtx) => ({ ...validSignUp(ctx.demo), email: VICTIM, password: 'stranger-password' });

  test('takeover: confirm-first site, the victim signs up later and follows the accountExists link: the stranger\'s password no longer works', async () => {
    const ctx = await fresh();
    await confirmFirst(ctx);
    await expectMailSent(await ctx.signUp(strangerSignUp(ctx)), VICTIM);
    await expectMailSent(await ctx.signUp({ ...validSignUp(ctx.demo), email: VICTIM, password: 'victims-own-password' }), VICTIM);
    const token = tokenOf(await lastMailTo(ctx, VICTIM, 'accountExists'), SIGN_IN_SCREEN);
    const victim = await jsonOf<SessionResponse>(await ctx.signIn({ token }), 201);
    expect((await ctx.authed(victim.token, ME)).status).toBe(200);
    await expectError(await ctx.signIn({ email: VICTIM, password: 'stranger-password' }), 401, 'invalidCredentials');
  });

  test('takeover: default site, the victim signs in by a code they asked for: the stranger\'s password and session stop working', async () => {
    const ctx = await fresh();
    const stranger = await jsonOf<SessionResponse>(await ctx.signUp(strangerSignUp(ctx)), 201);
    await expectMailSent(await ctx.request(`${BASE}/sign-in-codes`, { method: 'POST', json: { email: VICTIM } }), VICTIM);
    const victim = await jsonOf<SessionResponse>(await ctx.signIn({ email: VICTIM, code: codeOf(await lastMailTo(ctx, VICTIM, 'signInCode')) }), 201);
    expect((await ctx.authed(victim.token, ME)).status).toBe(200);
    expect((await ctx.authed(stranger.token, ME)).status).toBe(401);
    await expectError(await ctx.signIn({ email: VICTIM, password: 'stranger-password' }), 401, 'invalidCredentials');
    expect((await storedMember(ctx, VICTIM))?.emailConfirmedAt).toBe(ctx.now());
  });

  test('takeover: a wrong password shown with the code does not keep the stranger\'s', async () => {
    const ctx = await fresh();
    await jsonOf(await ctx.signUp(strangerSignUp(ctx)), 201);
    await expectMailSent(await ctx.request(`${BASE}/sign-in-codes`, { method: 'POST', json: { email: VICTIM } }), VICTIM);
    const code = codeOf(await lastMailTo(ctx, VICTIM, 'signInCode'));
    await jsonOf(await ctx.signIn({ email: VICTIM, code, password: 'a guess' }), 201);
    await expectError(await ctx.signIn({ email: VICTIM, password: 'stranger-password' }), 401, 'invalidCredentials');
  });

  test('takeover rule spares the real member: the sign-up\'s own welcome link, followed in the browser the sign-up signed in, keeps the password chosen at sign-up', async () => {
    const ctx = await fresh();
    const body = validSignUp(ctx.demo);
    const first = await jsonOf<SessionResponse>(await ctx.signUp(body), 201);
    const token = tokenOf(await lastMailTo(ctx, NEW, 'welcome'), SIGN_IN_SCREEN);
    await jsonOf(await ctx.request(`${BASE}/sessions`, { method: 'POST', json: { token }, token: first.token }), 201);
    expect((await ctx.signIn({ email: NEW, password: body.password })).status).toBe(201);
    expect((await ctx.authed(first.token, ME)).status).toBe(200);
  });

  // The audit's finding (issue 26): the victim follows the "please confirm" mail that the
  // stranger's sign-up sent them. Before, that kept the stranger's password and session.
  test('takeover: default site, the victim follows the sign-up\'s own welcome link: the stranger\'s password and session stop working', async () => {
    const ctx = await fresh();
    const stranger = await jsonOf<SessionResponse>(await ctx.signUp(strangerSignUp(ctx)), 201);
    const token = tokenOf(await lastMailTo(ctx, VICTIM, 'welcome'), SIGN_IN_SCREEN);
    const victim = await jsonOf<SessionResponse>(await ctx.signIn({ token }), 201);
    expect((await ctx.authed(victim.token, ME)).status).toBe(200);
    expect((await ctx.authed(stranger.token, ME)).status).toBe(401);
    await expectError(await ctx.signIn({ email: VICTIM, password: 'stranger-password' }), 401, 'invalidCredentials');
    expect((await storedMember(ctx, VICTIM))?.emailConfirmedAt).toBe(ctx.now());
  });

  test('takeover: confirm-first site, the victim follows the sign-up\'s own link or types its code: the stranger\'s password no longer works', async () => {
    for (const how of ['link', 'code'] as const) {
      const ctx = await fresh();
      await confirmFirst(ctx);
      await expectMailSent(await ctx.signUp(strangerSignUp(ctx)), VICTIM);
      const mail = await lastMailTo(ctx, VICTIM, 'welcome');
      const proof = how === 'link' ? { token: tokenOf(mail, SIGN_IN_SCREEN) } : { email: VICTIM, code: codeOf(mail) };
      await jsonOf(await ctx.signIn(proof), 201);
      await expectError(await ctx.signIn({ email: VICTIM, password: 'stranger-password' }), 401, 'invalidCredentials');
    }
  });

  test('takeover: a session of another member sent with the sign-up\'s link does not keep the stranger\'s password', async () => {
    const ctx = await fresh();
    await jsonOf(await ctx.signUp(strangerSignUp(ctx)), 201);
    const ada = await ctx.session(ADA);
    const token = tokenOf(await lastMailTo(ctx, VICTIM, 'welcome'), SIGN_IN_SCREEN);
    await jsonOf(await ctx.request(`${BASE}/sessions`, { method: 'POST', json: { token }, token: ada.token }), 201);
    await expectError(await ctx.signIn({ email: VICTIM, password: 'stranger-password' }), 401, 'invalidCredentials');
  });

  test('takeover: an e-mail change the stranger asked for before the victim confirmed is void afterwards', async () => {
    const ctx = await fresh();
    const stranger = await jsonOf<SessionResponse>(await ctx.signUp(strangerSignUp(ctx)), 201);
    const asked = await ctx.request(`${BASE}/me/email`, { method: 'PUT', json: { email: 'stranger@example.com', password: 'stranger-password' }, token: stranger.token });
    await expectMailSent(asked, 'stranger@example.com');
    const change = tokenOf(await lastMailTo(ctx, 'stranger@example.com', 'emailChange'), EMAIL_CONFIRM_SCREEN);
    await jsonOf(await ctx.signIn({ token: tokenOf(await lastMailTo(ctx, VICTIM, 'welcome'), SIGN_IN_SCREEN) }), 201);
    await expectError(await ctx.request(`${BASE}/email-changes`, { method: 'POST', json: { token: change } }), 400, 'tokenInvalid');
    expect((await storedMember(ctx, VICTIM))?.email).toBe(VICTIM);
  });

  test('takeover rule applies once: after the first confirmation a code sign-in keeps the password', async () => {
    const ctx = await fresh();
    await expectMailSent(await ctx.request(`${BASE}/sign-in-codes`, { method: 'POST', json: { email: ADA.email } }), ADA.email);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: codeOf(await lastMailTo(ctx, ADA.email, 'signInCode')) }), 201);
    expect((await ctx.signIn(ADA)).status).toBe(201);
  });
});
