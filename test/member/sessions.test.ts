/** Bearer sessions of the member API: who is authenticated, for how long, on which site. */
import { expect, test } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { toBase64Url } from '../../src/service/crypto/bytes';
import { sha256Hex } from '../../src/service/crypto/digests';
import { ADA, BASE, DAY, expectError, forEachStore, GRACE, HOUR, jsonOf, MINUTE, OTHER_BASE, SECOND, type MemberCtx } from './support';

const ME = `${BASE}/me`;
const CURRENT = `${BASE}/sessions/current`;

const me = (ctx: MemberCtx, token: string) => ctx.authed(token, ME);
const stored = async (ctx: MemberCtx, token: string) => (await ctx.store.findSessionByHash(sha256Hex(token)))!;
const wellFormedToken = (fill: number) => `svc_session_${toBase64Url(new Uint8Array(32).fill(fill))}`;

forEachStore((fresh) => {
  test('GET /me without a token is 401 unauthenticated', async () => {
    const ctx = await fresh();
    await expectError(await ctx.request(ME), 401, 'unauthenticated');
  });

  test.each([
    ['a token without the prefix', 'Bearer abcdef'],
    ['the prefix alone', 'Bearer svc_session_'],
    ['a Basic credential', `Basic ${Buffer.from('ada@demo.localhost:demo-password').toString('base64')}`],
    ['an empty Bearer', 'Bearer '],
    ['a token with a bad character', `Bearer svc_session_${'a'.repeat(42)}!`],
    ['a token one character short', `Bearer svc_session_${'a'.repeat(42)}`],
  ])('GET /me with %s is 401 unauthenticated', async (_label, authorization) => {
    const ctx = await fresh();
    await expectError(await ctx.request(ME, { headers: { authorization } }), 401, 'unauthenticated');
  });

  test('GET /me with a well-formed token that was never issued is 401 unauthenticated', async () => {
    const ctx = await fresh();
    await expectError(await me(ctx, wellFormedToken(7)), 401, 'unauthenticated');
  });

  test('a token is accepted with the scheme written in any case', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    expect((await ctx.request(ME, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
  });

  test("GET /me answers the token's member", async () => {
    const ctx = await fresh();
    const ada = await ctx.session(ADA);
    const grace = await ctx.session(GRACE);
    expect((await jsonOf<MemberInfo>(await me(ctx, ada.token), 200)).email).toBe(ADA.email);
    expect(await jsonOf<MemberInfo>(await me(ctx, grace.token), 200)).toStrictEqual(grace.memberInfo);
  });

  test('a demo token used under the other site is 401 unauthenticated', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    await expectError(await ctx.request(`${OTHER_BASE}/me`, { token, origin: null }), 401, 'unauthenticated');
    await expectError(await ctx.request(`${OTHER_BASE}/me`, { token, origin: 'https://shop.other.example' }), 401, 'unauthenticated');
    await expectError(await ctx.request(`${OTHER_BASE}/me/metadata`, { token, origin: null }), 401, 'unauthenticated');
    // And it still works where it belongs.
    expect((await me(ctx, token)).status).toBe(200);
  });

  test('DELETE /sessions/current answers 204 with no body, and the token is then 401', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const res = await ctx.authed(token, CURRENT, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectError(await me(ctx, token), 401, 'unauthenticated');
    await expectError(await ctx.authed(token, `${BASE}/me/metadata`), 401, 'unauthenticated');
    expect((await stored(ctx, token)).revokedAt).toBe(ctx.now());
  });

  test('DELETE /sessions/current again, or with an unknown or no token, still answers 204', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    expect((await ctx.authed(token, CURRENT, { method: 'DELETE' })).status).toBe(204);
    expect((await ctx.authed(token, CURRENT, { method: 'DELETE' })).status).toBe(204);
    expect((await ctx.authed(wellFormedToken(9), CURRENT, { method: 'DELETE' })).status).toBe(204);
    expect((await ctx.request(CURRENT, { method: 'DELETE' })).status).toBe(204);
  });

  test('DELETE /sessions/current with an expired token answers 204', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    ctx.advance(8 * DAY);
    expect((await ctx.authed(token, CURRENT, { method: 'DELETE' })).status).toBe(204);
  });

  test('signing one session out leaves the member’s other sessions alone', async () => {
    const ctx = await fresh();
    const first = await ctx.session(ADA);
    const second = await ctx.session(ADA);
    expect((await ctx.authed(first.token, CURRENT, { method: 'DELETE' })).status).toBe(204);
    expect((await me(ctx, second.token)).status).toBe(200);
  });

  // BUG: closeSession (src/service/member/sessions.ts) revokes by token hash without checking
  // the session's site, so a token "used under another subdomain" still acts on its session.
  test('a demo token sent to DELETE under the other site does not sign the demo session out', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const res = await ctx.request(`${OTHER_BASE}/sessions/current`, { method: 'DELETE', token, origin: null });
    expect(res.status).toBe(204);
    expect((await me(ctx, token)).status).toBe(200);
  });

  test('the answer’s expiresAt is 7 days after sign-in and matches the stored session', async () => {
    const ctx = await fresh();
    const { token, expiresAt } = await ctx.session(ADA);
    const session = await stored(ctx, token);
    expect(expiresAt).toBe(new Date(ctx.now() + 7 * DAY).toISOString());
    expect(session.expiresAt).toBe(ctx.now() + 7 * DAY);
    expect(session.createdAt).toBe(ctx.now());
    expect(session.lastUsedAt).toBe(ctx.now());
    expect(session.siteId).toBe(ctx.demo.site.id);
    expect(session.memberId).toBe(ctx.demo.memberIds.ada);
  });

  test('an unused session expires exactly 7 days after sign-in', async () => {
    const ctx = await fresh();
    const a = await ctx.session(ADA);
    const b = await ctx.session(ADA);
    ctx.advance(7 * DAY - SECOND);
    expect((await me(ctx, a.token)).status).toBe(200);
    ctx.advance(SECOND);
    await expectError(await me(ctx, b.token), 401, 'unauthenticated');
  });

  test('using a session slides its expiry to 7 days after the use', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const start = ctx.now();
    ctx.advance(6 * DAY);
    expect((await me(ctx, token)).status).toBe(200);
    expect((await stored(ctx, token)).expiresAt).toBe(start + 13 * DAY);
    ctx.advance(6 * DAY); // 12 days after sign-in: alive only because it slid
    expect((await me(ctx, token)).status).toBe(200);
    ctx.advance(7 * DAY); // unused for 7 days
    await expectError(await me(ctx, token), 401, 'unauthenticated');
  });

  test('metadata requests slide the session too', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    ctx.advance(6 * DAY);
    expect((await ctx.authed(token, `${BASE}/me/metadata`)).status).toBe(200);
    ctx.advance(6 * DAY);
    expect((await me(ctx, token)).status).toBe(200);
  });

  test('a session is touched at most once an hour: uses within the hour leave the stored record alone', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const start = ctx.now();
    ctx.advance(30 * MINUTE);
    expect((await me(ctx, token)).status).toBe(200);
    let session = await stored(ctx, token);
    expect([session.lastUsedAt, session.expiresAt]).toEqual([start, start + 7 * DAY]);
    ctx.advance(30 * MINUTE);
    expect((await me(ctx, token)).status).toBe(200);
    session = await stored(ctx, token);
    expect([session.lastUsedAt, session.expiresAt]).toEqual([start + HOUR, start + HOUR + 7 * DAY]);
  });

  test('a session never lives past 30 days after sign-in, however often it is used', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const start = ctx.now();
    for (let day = 6; day <= 24; day += 6) {
      ctx.advance(6 * DAY);
      expect((await me(ctx, token)).status, `day ${day}`).toBe(200);
    }
    ctx.advance(5 * DAY); // day 29
    expect((await me(ctx, token)).status).toBe(200);
    expect((await stored(ctx, token)).expiresAt).toBe(start + 30 * DAY);
    ctx.advance(DAY - SECOND);
    expect((await me(ctx, token)).status).toBe(200);
    ctx.advance(SECOND);
    await expectError(await me(ctx, token), 401, 'unauthenticated');
  });

  test('the store keeps only the SHA-256 of a token, never the token itself', async () => {
    const ctx = await fresh();
    const signIn = await ctx.session(ADA);
    const signUp = await jsonOf<{ token: string }>(
      await ctx.signUp({
        email: 'hash@example.com',
        password: 'a good password',
        customFields: { [ctx.demo.fieldIds.role!]: 'other', [ctx.demo.fieldIds.terms!]: true },
      }),
      201,
    );
    for (const token of [signIn.token, signUp.token]) {
      const session = await stored(ctx, token);
      expect(session).toBeDefined();
      expect(session.tokenHash).toBe(sha256Hex(token));
      const secret = token.slice('svc_session_'.length);
      for (const value of Object.values(session)) {
        expect(value).not.toBe(token);
        expect(String(value)).not.toContain(secret);
      }
      expect(JSON.stringify(session)).not.toContain(secret);
      expect(await ctx.store.findSessionByHash(token)).toBeUndefined();
    }
  });

  test("a blocked member's existing session is 401 unauthenticated", async () => {
    const ctx = await fresh();
    // Mallory cannot sign in; give her a session as if she had before being blocked.
    const token = wellFormedToken(3);
    await ctx.store.createSession({
      siteId: ctx.demo.site.id,
      memberId: ctx.demo.memberIds.mallory!,
      tokenHash: sha256Hex(token),
      createdAt: ctx.now(),
      lastUsedAt: ctx.now(),
      expiresAt: ctx.now() + 7 * DAY,
    });
    await expectError(await me(ctx, token), 401, 'unauthenticated');
    await expectError(await ctx.authed(token, `${BASE}/me/metadata`), 401, 'unauthenticated');
    await expectError(await ctx.authed(token, `${BASE}/me/metadata`, { method: 'PATCH', json: { a: 1 } }), 401, 'unauthenticated');
    expect(await ctx.store.getMemberMetadata(ctx.demo.site.id, ctx.demo.memberIds.mallory!)).toEqual({});
  });

  test('a session stored for one site never authenticates under another, even with a matching member id', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session({ email: 'otto@other.example', password: 'otto-password' }, OTHER_BASE);
    await expectError(await me(ctx, token), 401, 'unauthenticated');
    expect((await ctx.request(`${OTHER_BASE}/me`, { token, origin: null })).status).toBe(200);
  });
});
