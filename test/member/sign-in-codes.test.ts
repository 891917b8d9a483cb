/**
 * Signing in by mail (issue 15): POST /sign-in-codes mails a 6-digit code and a link; POST
 * /sessions takes {email, code} or the link's {token}.
 */
import { expect, test } from 'vitest';
import { CODE_TRIES, SIGN_IN_CODE_MS, type SessionResponse } from '../../src/contract/member';
import { CODE_FAILURES, CODE_WINDOW_MS } from '../../src/service/member/sign-in-throttle';
import type { MailRecord } from '../../src/service/store/records';
import {
  allMail,
  codeOf,
  expectMailSent,
  lastMailTo,
  linkOf,
  plantToken,
  post,
  SIGN_IN_SCREEN,
  storedMember,
  tokenOf,
  adminMemberEvents,
} from './mail-support';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, MALLORY, OTHER_BASE, OTTO, SECOND, type MemberCtx } from './support';

const ME = `${BASE}/me`;

const askCode = (ctx: MemberCtx, json: unknown) => post(ctx, '/sign-in-codes', json);

/** Asks for a code for `email`; answers the mail it queued, its code and its link's token. */
async function requestCode(ctx: MemberCtx, email: string = ADA.email, returnTo?: string): Promise<{ mail: MailRecord; code: string; token: string }> {
  await expectMailSent(await askCode(ctx, { email, ...(returnTo !== undefined && { returnTo }) }), email);
  const mail = await lastMailTo(ctx, email, 'signInCode');
  return { mail, code: codeOf(mail), token: tokenOf(mail, SIGN_IN_SCREEN) };
}

/** A code that is not `code` (same length). */
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

forEachStore((fresh) => {
  test('asking: 202 {email, mailSent}; the mail has a 6-digit code on its own line and one link to the sign-in screen', async () => {
    const ctx = await fresh();
    const { mail, code, token } = await requestCode(ctx, ADA.email, 'https://demo.localhost/courses/1');
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html ?? '').toContain(code);
    expect(linkOf(mail)).toBe(`https://demo.localhost/courses/1?svcopen=${SIGN_IN_SCREEN}/${token}`);
    expect((await allMail(ctx)).map((m) => [m.to, m.kind])).toEqual([[ADA.email, 'signInCode']]);
  });

  test('an unknown address and a blocked member get the same answer and no mail; a bad returnTo is 400', async () => {
    const ctx = await fresh();
    await expectMailSent(await askCode(ctx, { email: 'Nobody@Example.com' }), 'nobody@example.com');
    await expectMailSent(await askCode(ctx, { email: MALLORY.email }), MALLORY.email);
    await expectError(await askCode(ctx, { email: ADA.email, returnTo: 'data:text/html,hi' }), 400, 'invalidField', 'returnTo');
    await expectError(await askCode(ctx, { email: 'nope' }), 400, 'invalidField', 'email');
    expect(await allMail(ctx)).toEqual([]);
  });

  test('the code with its address signs in: 201 session for that member, a login event; the address stays confirmed', async () => {
    const ctx = await fresh();
    const memberId = ctx.demo.memberIds.ada!;
    const { code } = await requestCode(ctx);
    const loginsBefore = (await adminMemberEvents(ctx, memberId)).filter((e) => e.eventType === 'login').length;
    const session = await jsonOf<SessionResponse>(await ctx.signIn({ email: ADA.email, code }), 201);
    expect(session.memberInfo.id).toBe(memberId);
    expect((await ctx.authed(session.token, ME)).status).toBe(200);
    expect((await adminMemberEvents(ctx, memberId)).filter((e) => e.eventType === 'login')).toHaveLength(loginsBefore + 1);
    expect((await storedMember(ctx, ADA.email))?.emailConfirmedAt).toBeLessThan(ctx.now());
  });

  test('a code works once', async () => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    await jsonOf(await ctx.signIn({ email: ADA.email, code }), 201);
    await expectError(await ctx.signIn({ email: ADA.email, code }), 401, 'invalidCode', 'code');
  });

  test.each([
    ['with a space in the middle', (c: string) => `${c.slice(0, 3)} ${c.slice(3)}`],
    ['with a dash', (c: string) => `${c.slice(0, 3)}-${c.slice(3)}`],
    ['with spaces around', (c: string) => `  ${c}\t`],
  ])('a code typed %s is accepted', async (_label, spell) => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: spell(code) }), 201);
  });

  test('a code that is not 6 digits is 400 invalidField on code, and spends no try', async () => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    for (const bad of ['12345', '1234567', 'abcdef', '', 123456]) {
      await expectError(await ctx.signIn({ email: ADA.email, code: bad }), 400, 'invalidField', 'code');
    }
    for (let i = 1; i < CODE_TRIES; i++) await expectError(await ctx.signIn({ email: ADA.email, code: wrong(code, i) }), 401, 'invalidCode', 'code');
    await jsonOf(await ctx.signIn({ email: ADA.email, code }), 201);
  });

  test(`a wrong code is 401 invalidCode; ${CODE_TRIES - 1} wrong tries leave the right code working`, async () => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    for (let i = 1; i < CODE_TRIES; i++) await expectError(await ctx.signIn({ email: ADA.email, code: wrong(code, i) }), 401, 'invalidCode', 'code');
    await jsonOf(await ctx.signIn({ email: ADA.email, code }), 201);
  });

  test(`after ${CODE_TRIES} wrong codes the right one is refused with 401 codeExpired`, async () => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    for (let i = 1; i <= CODE_TRIES; i++) await expectError(await ctx.signIn({ email: ADA.email, code: wrong(code, i) }), 401, 'invalidCode', 'code');
    await expectError(await ctx.signIn({ email: ADA.email, code }), 401, 'invalidCode', 'code');
    await expectError(await ctx.signIn({ email: ADA.email, code: wrong(code, 99) }), 401, 'invalidCode', 'code');
    // A new code starts afresh.
    const again = await requestCode(ctx);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: again.code }), 201);
  });

  test('concurrent guesses get no more than the tries between them, and no more than the address\'s allowance of wrong codes', async () => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    const answers = await Promise.all(
      Array.from({ length: 3 * CODE_TRIES }, (_, i) => ctx.signIn({ email: ADA.email, code: wrong(code, i + 1) })),
    );
    const codes = await Promise.all(answers.map(async (r) => (await r.json()).errors[0].code));
    // Counted as they start: the address's allowance, then 429 before any code is looked at.
    expect(codes.filter((c) => c === 'invalidCode')).toHaveLength(CODE_FAILURES);
    expect(codes.filter((c) => c === 'rateLimited')).toHaveLength(3 * CODE_TRIES - CODE_FAILURES);
    // Only CODE_TRIES of them were checked against the code: it is used up.
    expect((await ctx.store.findCodeToken(ctx.demo.site.id, ctx.demo.memberIds.ada!, 'signIn'))?.attempts).toBe(CODE_TRIES);
    await expectError(await ctx.signIn({ email: ADA.email, code }), 429, 'rateLimited', 'code');
  });

  test('a code lasts 10 minutes: a second before it works, at 10 minutes it is 401 codeExpired', async () => {
    const ctx = await fresh();
    const first = await requestCode(ctx);
    ctx.advance(SIGN_IN_CODE_MS - SECOND);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: first.code }), 201);
    const second = await requestCode(ctx);
    ctx.advance(SIGN_IN_CODE_MS);
    await expectError(await ctx.signIn({ email: ADA.email, code: second.code }), 401, 'invalidCode', 'code');
  });

  test('a new code replaces the old: the old one is refused, the new one works', async () => {
    const ctx = await fresh();
    let old = await requestCode(ctx);
    let fresher = await requestCode(ctx);
    // One chance in a million the two are equal: ask again then.
    while (fresher.code === old.code) [old, fresher] = [fresher, await requestCode(ctx)];
    const res = await ctx.signIn({ email: ADA.email, code: old.code });
    expect(res.status).toBe(401);
    expect(['invalidCode', 'invalidCode']).toContain((await res.json()).errors[0].code);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: fresher.code }), 201);
    // Once the new one is used, the old one does not come back to life.
    await expectError(await ctx.signIn({ email: ADA.email, code: old.code }), 401, 'invalidCode', 'code');
  });

  test('a new code replaces the older code, but the older mail\'s link still works (a link cannot be guessed)', async () => {
    const ctx = await fresh();
    const old = await requestCode(ctx);
    const fresher = await requestCode(ctx);
    if (old.code !== fresher.code) await expectError(await ctx.signIn({ email: ADA.email, code: old.code }), 401, 'invalidCode', 'code');
    await jsonOf(await ctx.signIn({ token: old.token }), 201);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: fresher.code }), 201);
  });

  test("a code for one member typed with another member's address is refused", async () => {
    const ctx = await fresh();
    const ada = await requestCode(ctx);
    // Grace has no code at all.
    await expectError(await ctx.signIn({ email: GRACE.email, code: ada.code }), 401, 'invalidCode', 'code');
    // Grace has a code of her own, and Ada's is not it.
    const grace = await requestCode(ctx, GRACE.email);
    if (grace.code !== ada.code) await expectError(await ctx.signIn({ email: GRACE.email, code: ada.code }), 401, 'invalidCode', 'code');
    // An unknown address answers like an address with no code.
    await expectError(await ctx.signIn({ email: 'nobody@example.com', code: ada.code }), 401, 'invalidCode', 'code');
    // Each still works for its own member.
    expect((await jsonOf<SessionResponse>(await ctx.signIn({ email: ADA.email, code: ada.code }), 201)).memberInfo.email).toBe(ADA.email);
    expect((await jsonOf<SessionResponse>(await ctx.signIn({ email: GRACE.email, code: grace.code }), 201)).memberInfo.email).toBe(GRACE.email);
  });

  test('a demo code does not sign in on the other site', async () => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    await expectError(await post(ctx, '/sessions', { email: ADA.email, code }, { origin: null }, OTHER_BASE), 401, 'invalidCode');
    await expectError(await post(ctx, '/sessions', { email: OTTO.email, code }, { origin: null }, OTHER_BASE), 401, 'invalidCode');
  });

  test('the link signs in: POST /sessions {token} is 201, a second use 400 tokenUsed', async () => {
    const ctx = await fresh();
    const { token } = await requestCode(ctx);
    const session = await jsonOf<SessionResponse>(await ctx.signIn({ token }), 201);
    expect(session.memberInfo.email).toBe(ADA.email);
    expect((await ctx.authed(session.token, ME)).status).toBe(200);
    await expectError(await ctx.signIn({ token }), 400, 'tokenUsed', 'token');
  });

  test('the link and the code are one: after the link, the code is spent, and the other way round', async () => {
    const ctx = await fresh();
    const a = await requestCode(ctx);
    await jsonOf(await ctx.signIn({ token: a.token }), 201);
    await expectError(await ctx.signIn({ email: ADA.email, code: a.code }), 401, 'invalidCode');
    const b = await requestCode(ctx);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: b.code }), 201);
    await expectError(await ctx.signIn({ token: b.token }), 400, 'tokenUsed', 'token');
  });

  test('the link lasts 10 minutes: at 10 minutes it is 400 tokenExpired', async () => {
    const ctx = await fresh();
    const { token } = await requestCode(ctx);
    ctx.advance(SIGN_IN_CODE_MS);
    await expectError(await ctx.signIn({ token }), 400, 'tokenExpired', 'token');
  });

  test('a garbage token is 400 tokenInvalid', async () => {
    const ctx = await fresh();
    await expectError(await ctx.signIn({ token: 'garbage' }), 400, 'tokenInvalid', 'token');
    await expectError(await ctx.signIn({ token: 'A'.repeat(43) }), 400, 'tokenInvalid', 'token');
  });

  test("a blocked member's sign-in link is 403 memberBlocked", async () => {
    const ctx = await fresh();
    const token = await plantToken(ctx, ctx.demo.memberIds.mallory!, 'signIn', SIGN_IN_CODE_MS);
    await expectError(await ctx.signIn({ token }), 403, 'memberBlocked');
  });

  test('a password change voids a code asked for before it', async () => {
    const ctx = await fresh();
    const { code, token } = await requestCode(ctx);
    const { token: bearer } = await ctx.session(ADA);
    expect((await ctx.authed(bearer, `${ME}/password`, { method: 'PUT', json: { password: ADA.password, newPassword: 'changed on purpose' } })).status).toBe(204);
    await expectError(await ctx.signIn({ email: ADA.email, code }), 401, 'invalidCode');
    await expectError(await ctx.signIn({ token }), 400, 'tokenInvalid');
  });

  // Audit findings of issue 26: a wrong code answered invalidCode ("4 tries left") for a member
  // and codeExpired for a non-member, 50 of 50 each way; and an address could be sent new codes
  // to guess at again and again. These failed before.
  test('a wrong code answers a member exactly as it answers an address that is no member\'s, each after asking for a code', async () => {
    const ctx = await fresh();
    const { code } = await requestCode(ctx);
    await expectMailSent(await askCode(ctx, { email: 'nobody@example.com' }), 'nobody@example.com');
    const guess = wrong(code);
    const member = await ctx.signIn({ email: ADA.email, code: guess });
    const stranger = await ctx.signIn({ email: 'nobody@example.com', code: guess });
    expect(member.status).toBe(401);
    expect(stranger.status).toBe(member.status);
    expect(await stranger.text()).toBe(await member.text());
    const headers = (r: Response) => [...r.headers.entries()].filter(([k]) => k !== 'date');
    expect(headers(stranger)).toEqual(headers(member));
    // Every later wrong guess, and the member's used-up code, answer the same too.
    for (let i = 2; i <= CODE_TRIES + 1; i++) {
      const a = await ctx.signIn({ email: ADA.email, code: wrong(code, i) });
      const b = await ctx.signIn({ email: 'nobody@example.com', code: wrong(code, i) });
      expect([a.status, await a.text()]).toEqual([b.status, await b.text()]);
    }
  });

  test(`wrong codes are counted per address across codes: after ${CODE_FAILURES} within the hour even a new right code is 429, for members and strangers alike`, async () => {
    const ctx = await fresh();
    let failures = 0;
    while (failures < CODE_FAILURES) {
      const { code } = await requestCode(ctx);
      for (let i = 1; i < CODE_TRIES && failures < CODE_FAILURES; i++, failures++) {
        await expectError(await ctx.signIn({ email: ADA.email, code: wrong(code, i) }), 401, 'invalidCode', 'code');
      }
      // Each code is still good after CODE_TRIES - 1 wrong tries; only the address's count ends it.
      ctx.advance(SECOND);
    }
    ctx.advance(10 * 60_000);
    const { code } = await requestCode(ctx);
    const locked = await ctx.signIn({ email: ADA.email, code });
    await expectError(locked.clone(), 429, 'rateLimited', 'code');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let i = 1; i <= CODE_FAILURES; i++) await expectError(await ctx.signIn({ email: 'nobody@example.com', code: wrong(code, i) }), 401, 'invalidCode');
    await expectError(await ctx.signIn({ email: 'nobody@example.com', code }), 429, 'rateLimited', 'code');
    // Once the hour has passed, the address may try again.
    ctx.advance(CODE_WINDOW_MS);
    const fresher = await requestCode(ctx);
    await jsonOf(await ctx.signIn({ email: ADA.email, code: fresher.code }), 201);
  });

  test('the right code clears the address\'s count of wrong ones', async () => {
    const ctx = await fresh();
    for (let round = 0; round < 3; round++) {
      const { code } = await requestCode(ctx);
      for (let i = 1; i < CODE_TRIES; i++) await expectError(await ctx.signIn({ email: ADA.email, code: wrong(code, i) }), 401, 'invalidCode');
      await jsonOf(await ctx.signIn({ email: ADA.email, code }), 201);
      ctx.advance(SECOND);
    }
  });
});
