/**
 * A password reset clears the e-mail's sign-in throttle (issue 16, left by issue 15): whoever
 * completes it read the address's mail, so the failed guesses before it (theirs or a stranger's)
 * keep nobody out of the account.
 */
import { expect, test } from 'vitest';
import type { SessionResponse } from '../../src/contract/member';
import { expectMailSent, lastMailTo, post, RESET_SCREEN, tokenOf } from './mail-support';
import { ADA, expectError, forEachStore, jsonOf } from './support';

const NEW_PASSWORD = 'a brand new passphrase';

forEachStore((fresh) => {
  test('after five failed sign-ins, completing a reset lets the new password in at once; failures count again from zero', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 5; i++) await expectError(await ctx.signIn({ email: ADA.email, password: `wrong ${i}` }), 401, 'invalidCredentials');
    await expectError(await ctx.signIn(ADA), 429, 'rateLimited');

    await expectMailSent(await post(ctx, '/password-reset', { email: ADA.email }), ADA.email);
    const token = tokenOf(await lastMailTo(ctx, ADA.email, 'passwordReset'), RESET_SCREEN);
    await jsonOf<SessionResponse>(await post(ctx, '/password-reset/complete', { token, newPassword: NEW_PASSWORD }), 201);

    await jsonOf<SessionResponse>(await ctx.signIn({ email: ADA.email, password: NEW_PASSWORD }), 201);
    for (let i = 0; i < 5; i++) await expectError(await ctx.signIn({ email: ADA.email, password: `wrong again ${i}` }), 401, 'invalidCredentials');
    await expectError(await ctx.signIn({ email: ADA.email, password: NEW_PASSWORD }), 429, 'rateLimited');
  });

  test('asking for a reset, without completing it, clears nothing', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 5; i++) await ctx.signIn({ email: ADA.email, password: `wrong ${i}` });
    await expectMailSent(await post(ctx, '/password-reset', { email: ADA.email }), ADA.email);
    const refused = await ctx.signIn(ADA);
    await expectError(refused, 429, 'rateLimited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
  });
});
