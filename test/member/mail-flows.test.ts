/**
 * What the mail flows share (issue 15): send limits per address and per site, links built from
 * returnTo or the site's settings (never the request's Host), and 405s on the new paths.
 */
import { expect, test } from 'vitest';
import type { NewMail } from '../../src/service/store/records';
import { MAILS_PER_ADDRESS, MAILS_PER_SITE, SEND_WINDOW_MS } from '../../src/service/member/mail-flows';
import { allMail, expectMailSent, lastMailTo, linkOf, mailsTo, post, RESET_SCREEN, SIGN_IN_SCREEN, EMAIL_CONFIRM_SCREEN, tokenOf } from './mail-support';
import { ADA, BASE, expectError, forEachStore, GRACE, ORIGIN, OTHER_BASE, OTTO, SECOND, validSignUp, type MemberCtx } from './support';

const askReset = (ctx: MemberCtx, email: string) => post(ctx, '/password-reset', { email });
const askCode = (ctx: MemberCtx, email: string) => post(ctx, '/sign-in-codes', { email });

/** `count` mails of `kind` to made-up addresses of the site, queued now. */
async function prequeue(ctx: MemberCtx, count: number, kind: string, siteId = ctx.demo.site.id): Promise<void> {
  const mails: NewMail[] = Array.from({ length: count }, (_, i) => ({
    siteId, kind, to: `filler${i}@example.com`, subject: 'x', text: 'x', createdAt: ctx.now(),
  }));
  await ctx.store.queueMail(mails);
}

forEachStore((fresh) => {
  test(`20 reset requests for one address send exactly ${MAILS_PER_ADDRESS} mails, and all 20 are answered alike`, async () => {
    const ctx = await fresh();
    const texts = new Set<string>();
    for (let i = 0; i < 20; i++) {
      ctx.advance(SECOND);
      texts.add(await expectMailSent(await askReset(ctx, ADA.email), ADA.email));
    }
    expect(texts.size).toBe(1);
    expect(await mailsTo(ctx, ADA.email)).toHaveLength(MAILS_PER_ADDRESS);
    // Another address is not held back by Ada's.
    await expectMailSent(await askReset(ctx, GRACE.email), GRACE.email);
    expect(await mailsTo(ctx, GRACE.email, 'passwordReset')).toHaveLength(1);
  });

  test('a held-back request leaves the earlier links working, and writes no token', async () => {
    const ctx = await fresh();
    for (let i = 0; i < MAILS_PER_ADDRESS; i++) await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    const last = tokenOf(await lastMailTo(ctx, ADA.email, 'passwordReset'), RESET_SCREEN);
    await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    expect(await mailsTo(ctx, ADA.email)).toHaveLength(MAILS_PER_ADDRESS);
    expect((await post(ctx, '/password-reset/complete', { token: last, newPassword: 'a brand new passphrase' })).status).toBe(201);
  });

  test('the limit per address counts every mail anyone can ask for: resets and sign-in codes together', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 4; i++) {
      await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
      await expectMailSent(await askCode(ctx, ADA.email), ADA.email);
    }
    expect(await mailsTo(ctx, ADA.email)).toHaveLength(MAILS_PER_ADDRESS);
  });

  test('mails older than the hour do not count: after it, the address gets mail again', async () => {
    const ctx = await fresh();
    for (let i = 0; i < MAILS_PER_ADDRESS + 2; i++) await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    expect(await mailsTo(ctx, ADA.email)).toHaveLength(MAILS_PER_ADDRESS);
    ctx.advance(SEND_WINDOW_MS / 2);
    await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    expect(await mailsTo(ctx, ADA.email)).toHaveLength(MAILS_PER_ADDRESS);
    ctx.advance(SEND_WINDOW_MS / 2 + SECOND);
    await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    await expectMailSent(await askCode(ctx, ADA.email), ADA.email);
    expect(await mailsTo(ctx, ADA.email)).toHaveLength(MAILS_PER_ADDRESS + 2);
  });

  test(`the limit per site (${MAILS_PER_SITE} an hour) holds mail for every address of the site, and only that site`, async () => {
    const ctx = await fresh();
    await prequeue(ctx, MAILS_PER_SITE - 1, 'passwordReset');
    // One more fits.
    await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    expect(await mailsTo(ctx, ADA.email)).toHaveLength(1);
    // Now the site is at its limit: nothing for anyone, answered alike.
    await expectMailSent(await askReset(ctx, GRACE.email), GRACE.email);
    await expectMailSent(await askCode(ctx, GRACE.email), GRACE.email);
    expect(await mailsTo(ctx, GRACE.email)).toEqual([]);
    // The other site sends as usual.
    await expectMailSent(await post(ctx, '/password-reset', { email: OTTO.email }, { origin: null }, OTHER_BASE), OTTO.email);
    expect(await mailsTo(ctx, OTTO.email, 'passwordReset')).toHaveLength(1);
    // An hour later the site's old mails no longer count.
    ctx.advance(SEND_WINDOW_MS + SECOND);
    await expectMailSent(await askReset(ctx, GRACE.email), GRACE.email);
    expect(await mailsTo(ctx, GRACE.email, 'passwordReset')).toHaveLength(1);
  });

  test('mails nobody can ask for (receipts) do not count toward the limit per site', async () => {
    const ctx = await fresh();
    await prequeue(ctx, MAILS_PER_SITE, 'receipt');
    await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    expect(await mailsTo(ctx, ADA.email, 'passwordReset')).toHaveLength(1);
  });

  test('the other site’s mails do not count toward the demo site’s limit', async () => {
    const ctx = await fresh();
    await prequeue(ctx, MAILS_PER_SITE, 'passwordReset', ctx.other.site.id);
    await expectMailSent(await askReset(ctx, ADA.email), ADA.email);
    expect(await mailsTo(ctx, ADA.email, 'passwordReset')).toHaveLength(1);
  });

  test('e-mail change requests are limited per address too', async () => {
    const ctx = await fresh();
    // Two members, each within the limit per member (test/security/client-limits.test.ts).
    const { token } = await ctx.session(ADA);
    const grace = await ctx.session(GRACE);
    for (let i = 0; i < MAILS_PER_ADDRESS + 3; i++) {
      await expectMailSent(await ctx.authed(token, `${BASE}/me/email`, { method: 'PUT', json: { email: 'new@example.com', password: ADA.password } }), 'new@example.com');
      await expectMailSent(await ctx.authed(grace.token, `${BASE}/me/email`, { method: 'PUT', json: { email: ADA.email, password: GRACE.password } }), ADA.email);
    }
    expect(await mailsTo(ctx, 'new@example.com', 'emailChange')).toHaveLength(MAILS_PER_ADDRESS);
    expect(await mailsTo(ctx, ADA.email, 'emailInUse')).toHaveLength(MAILS_PER_ADDRESS);
  });

  const FORGED = 'http://evil.example/member/v1/sites/demo';
  const forged = (ctx: MemberCtx, path: string, init: { method?: string; json?: unknown; token?: string; origin?: string } = {}) =>
    ctx.request(`${FORGED}${path}`, {
      method: init.method ?? 'POST',
      json: init.json,
      origin: init.origin ?? ORIGIN,
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', forwarded: 'host=evil.example;proto=https' },
      ...(init.token !== undefined && { token: init.token }),
    });

  test('a forged Host: a reset link without returnTo still leads to https://<site domain>/', async () => {
    const ctx = await fresh();
    await expectMailSent(await forged(ctx, '/password-reset', { json: { email: ADA.email } }), ADA.email);
    const mail = await lastMailTo(ctx, ADA.email, 'passwordReset');
    const token = tokenOf(mail, RESET_SCREEN);
    expect(linkOf(mail)).toBe(`https://demo.localhost/?svcopen=${RESET_SCREEN}/${token}`);
    expect(mail.text + (mail.html ?? '')).not.toContain('evil.example');
  });

  test('a forged Host: sign-in codes, sign-up and e-mail change links lead to the site too', async () => {
    const ctx = await fresh();
    await expectMailSent(await forged(ctx, '/sign-in-codes', { json: { email: ADA.email } }), ADA.email);
    expect(linkOf(await lastMailTo(ctx, ADA.email, 'signInCode')).startsWith(`https://demo.localhost/?svcopen=${SIGN_IN_SCREEN}/`)).toBe(true);
    expect((await forged(ctx, '/members', { json: validSignUp(ctx.demo) })).status).toBe(201);
    expect(linkOf(await lastMailTo(ctx, 'new.member@example.com', 'welcome')).startsWith(`https://demo.localhost/?svcopen=${SIGN_IN_SCREEN}/`)).toBe(true);
    const { token } = await ctx.session(ADA);
    await expectMailSent(await forged(ctx, '/me/email', { method: 'PUT', json: { email: 'x@example.com', password: ADA.password }, token }), 'x@example.com');
    expect(linkOf(await lastMailTo(ctx, 'x@example.com', 'emailChange')).startsWith(`https://demo.localhost/?svcopen=${EMAIL_CONFIRM_SCREEN}/`)).toBe(true);
    for (const mail of await allMail(ctx)) expect(mail.text + (mail.html ?? '')).not.toContain('evil.example');
  });

  test('a forged Host whose page calls from that host: a returnTo on it is not taken, though the request itself passes CORS', async () => {
    const ctx = await fresh();
    const res = await forged(ctx, '/password-reset', { json: { email: ADA.email, returnTo: 'http://evil.example/steal' }, origin: 'http://evil.example' });
    expect(res.status).toBe(202);
    const mails = await allMail(ctx);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('https://demo.localhost/?svcopen=/member/reset_password/');
    expect(mails[0]!.text + (mails[0]!.html ?? '')).not.toContain('evil.example');
  });

  test.each([
    ['GET', '/password-reset', ['POST']],
    ['PUT', '/password-reset', ['POST']],
    ['DELETE', '/password-reset', ['POST']],
    ['GET', '/password-reset/complete', ['POST']],
    ['PUT', '/password-reset/complete', ['POST']],
    ['GET', '/sign-in-codes', ['POST']],
    ['PATCH', '/sign-in-codes', ['POST']],
    ['POST', '/me/email', ['PUT']],
    ['DELETE', '/me/email', ['PUT']],
    ['GET', '/me/email/confirm', ['POST']],
    ['PUT', '/me/email/confirm', ['POST']],
    ['GET', '/email-changes', ['POST']],
    ['DELETE', '/email-changes', ['POST']],
  ])('%s %s is 405 methodNotAllowed with Allow: %s, and sends nothing', async (method, path, allow) => {
    const ctx = await fresh();
    const res = await ctx.request(`${BASE}${path}`, { method, ...(method !== 'GET' && { json: { email: ADA.email } }) });
    await expectError(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')?.split(/\s*,\s*/).sort()).toEqual([...allow].sort());
    expect(await allMail(ctx)).toEqual([]);
  });

  test('the new paths answer CORS preflights for POST', async () => {
    const ctx = await fresh();
    for (const path of ['/password-reset', '/password-reset/complete', '/sign-in-codes', '/email-changes', '/me/email/confirm']) {
      const res = await ctx.request(`${BASE}${path}`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    }
  });

  test('a page of another origin cannot ask for mail: 403 originNotAllowed, no mail', async () => {
    const ctx = await fresh();
    await expectError(await post(ctx, '/password-reset', { email: ADA.email }, { origin: 'https://evil.example' }), 403, 'originNotAllowed');
    await expectError(await post(ctx, '/sign-in-codes', { email: ADA.email }, { origin: 'https://evil.example' }), 403, 'originNotAllowed');
    expect(await allMail(ctx)).toEqual([]);
  });
});
