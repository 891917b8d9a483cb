/**
 * Issue 26: an e-mail address is a plain address by the WHATWG grammar of `<input type=email>`
 * (https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address), with a dot in its
 * domain and at most 254 characters, stored trimmed and lower-case. Spellings the old check took
 * but nodemailer reads as a mailbox of its own (`x@y.test,z.com`, `n<x@y.test>`, `x@y.test;z`)
 * sent one mailbox more mails than the per-address limit allows, each spelling counted apart.
 * Each is a 400 on `email` now, wherever an address is typed, and nothing reaches the outbox.
 */
import { expect, test } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { ACCEPTED, REFUSED } from '../support/email-spellings';
import { allMail, post } from './mail-support';
import { ADA, BASE, expectError, forEachStore, jsonOf, validSignUp, type MemberCtx } from './support';

forEachStore((fresh) => {
  async function expectRefusedEverywhere(ctx: MemberCtx, typed: string): Promise<void> {
    const { token } = await ctx.session(ADA);
    const outbox = (await allMail(ctx)).length;
    const members = (await ctx.store.listMembers(ctx.demo.site.id, {}, { limit: 1000 })).items.length;
    const why = JSON.stringify(typed);
    await expectError(await ctx.signUp(validSignUp(ctx.demo, { email: typed })), 400, 'invalidField', 'email').catch((e) => {
      throw new Error(`sign-up ${why}: ${e}`);
    });
    await expectError(await post(ctx, '/password-reset', { email: typed }), 400, 'invalidField', 'email').catch((e) => {
      throw new Error(`password reset ${why}: ${e}`);
    });
    await expectError(await post(ctx, '/sign-in-codes', { email: typed }), 400, 'invalidField', 'email').catch((e) => {
      throw new Error(`sign-in code ${why}: ${e}`);
    });
    const change = await ctx.authed(token, `${BASE}/me/email`, { method: 'PUT', json: { email: typed, password: ADA.password } });
    await expectError(change, 400, 'invalidField', 'email').catch((e) => {
      throw new Error(`e-mail change ${why}: ${e}`);
    });
    expect((await allMail(ctx)).length, `the outbox after ${why}`).toBe(outbox);
    expect((await ctx.store.listMembers(ctx.demo.site.id, {}, { limit: 1000 })).items.length).toBe(members);
    expect((await jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200)).email).toBe(ADA.email);
  }

  test('the finding’s spellings are 400 on email at sign-up, password reset, sign-in code and e-mail change; nothing is queued', async () => {
    const ctx = await fresh();
    for (const typed of REFUSED.slice(0, 3)) await expectRefusedEverywhere(ctx, typed);
  });

  test('every other spelling that is no plain address is refused the same way', async () => {
    const ctx = await fresh();
    for (const typed of REFUSED.slice(3)) await expectRefusedEverywhere(ctx, typed);
  });

  test('plain addresses are still taken, trimmed and lower-cased', async () => {
    const ctx = await fresh();
    for (const [i, [typed, stored]] of ACCEPTED.entries()) {
      const res = await ctx.signUp(validSignUp(ctx.demo, { email: typed }));
      if (i === 1) {
        // The same address as the first, spelled otherwise: the same member.
        await expectError(res, 409, 'emailTaken');
        continue;
      }
      const body = await jsonOf<{ memberInfo: MemberInfo }>(res, 201);
      expect(body.memberInfo.email).toBe(stored);
    }
  });
});
