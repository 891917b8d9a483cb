/** A member changing their own account: PATCH /me, PUT /me/email, PUT /me/password. */
import { expect, test } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { allMail, codeOf, expectMailSent, lastMailTo } from './mail-support';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, type MemberCtx } from './support';

const ME = `${BASE}/me`;
const patchMe = (ctx: MemberCtx, token: string, json: unknown) => ctx.authed(token, ME, { method: 'PATCH', json });
const putEmail = (ctx: MemberCtx, token: string, json: unknown) => ctx.authed(token, `${ME}/email`, { method: 'PUT', json });
const confirmEmail = (ctx: MemberCtx, token: string, json: unknown) => ctx.authed(token, `${ME}/email/confirm`, { method: 'POST', json });
const putPassword = (ctx: MemberCtx, token: string, json: unknown) => ctx.authed(token, `${ME}/password`, { method: 'PUT', json });
const me = async (ctx: MemberCtx, token: string) => jsonOf<MemberInfo>(await ctx.authed(token, ME), 200);
const field = (info: MemberInfo, id: number) => info.customSignupFields.find((f) => f.id === id)?.value;

forEachStore((fresh) => {
  test('PATCH /me changes the names it is given and answers the MemberInfo after it', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const info = await jsonOf<MemberInfo>(await patchMe(ctx, token, { firstName: '  Augusta ' }), 200);
    expect(info).toMatchObject({ firstName: 'Augusta', lastName: 'Lovelace', name: 'Augusta Lovelace' });
    expect(await me(ctx, token)).toStrictEqual(info);
    const cleared = await jsonOf<MemberInfo>(await patchMe(ctx, token, { lastName: '' }), 200);
    expect(cleared).toMatchObject({ firstName: 'Augusta', lastName: '', name: 'Augusta' });
  });

  test('PATCH /me changes only the custom fields given; an optional one given empty is cleared', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const ids = ctx.demo.fieldIds;
    const info = await jsonOf<MemberInfo>(
      await patchMe(ctx, token, { customFields: { [ids.role!]: 'designer', [ids.company!]: '', [ids.topics!]: ['billing'] } }),
      200,
    );
    expect([field(info, ids.role!), field(info, ids.company!), field(info, ids.topics!), field(info, ids.terms!)]).toEqual([
      'designer', '', ['billing'], true,
    ]);
  });

  test('PATCH /me names every bad field in one 400 and changes nothing', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const before = await me(ctx, token);
    const ids = ctx.demo.fieldIds;
    const res = await patchMe(ctx, token, {
      firstName: 'Ok',
      lastName: 42,
      email: 'new@example.com',
      password: 'x',
      customFields: { [ids.role!]: '', [ids.terms!]: false, [ids.topics!]: ['nope'], 999999: 'x' },
    });
    const body = await expectError(res, 400, 'invalidField');
    expect(body.errors.map((e) => e.path).sort()).toEqual(
      ['email', 'password', 'lastName', `customFields.${ids.role}`, `customFields.${ids.terms}`, `customFields.${ids.topics}`, 'customFields.999999'].sort(),
    );
    expect(body.errors.find((e) => e.path === 'email')?.message).toMatch(/PUT \/me\/email/);
    expect(await me(ctx, token)).toStrictEqual(before);
  });

  test('PATCH /me without a session is 401; with a body that is not an object, 400', async () => {
    const ctx = await fresh();
    await expectError(await ctx.request(ME, { method: 'PATCH', json: { firstName: 'X' } }), 401, 'unauthenticated');
    const { token } = await ctx.session(ADA);
    await expectError(await patchMe(ctx, token, ['x']), 400, 'invalidBody');
    await expectError(await patchMe(ctx, token, { customFields: 'x' }), 400, 'invalidField', 'customFields');
  });

  test('PUT /me/email with the current password moves the login to the new address once the mailed code confirms it', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    await expectMailSent(await putEmail(ctx, token, { email: ' Augusta@Example.com ', password: ADA.password }), 'augusta@example.com');
    // Not yet: the old address still signs in, the new one does not.
    expect((await me(ctx, token)).email).toBe(ADA.email);
    await expectError(await ctx.signIn({ email: 'augusta@example.com', password: ADA.password }), 401, 'invalidCredentials');
    const code = codeOf(await lastMailTo(ctx, 'augusta@example.com', 'emailChange'));
    const info = await jsonOf<MemberInfo>(await confirmEmail(ctx, token, { code }), 200);
    expect(info.email).toBe('augusta@example.com');
    expect((await ctx.signIn({ email: 'augusta@example.com', password: ADA.password })).status).toBe(201);
    await expectError(await ctx.signIn(ADA), 401, 'invalidCredentials');
    expect((await me(ctx, token)).email).toBe('augusta@example.com');
  });

  test('a confirmed e-mail change signs the member out everywhere else, as a password change does; this session and other members stay', async () => {
    const ctx = await fresh();
    const current = await ctx.session(ADA);
    const other = await ctx.session(ADA);
    const grace = await ctx.session(GRACE);
    await expectMailSent(await putEmail(ctx, current.token, { email: 'augusta@example.com', password: ADA.password }), 'augusta@example.com');
    // Asking signs no one out: only the change taking effect does.
    expect((await me(ctx, other.token)).email).toBe(ADA.email);
    const code = codeOf(await lastMailTo(ctx, 'augusta@example.com', 'emailChange'));
    await jsonOf<MemberInfo>(await confirmEmail(ctx, current.token, { code }), 200);
    expect((await me(ctx, current.token)).email).toBe('augusta@example.com');
    await expectError(await ctx.authed(other.token, ME), 401, 'unauthenticated');
    expect((await me(ctx, grace.token)).email).toBe(GRACE.email);
  });

  test('PUT /me/email that changes nothing (a wrong password, a taken address, the same address) signs no one out', async () => {
    const ctx = await fresh();
    const current = await ctx.session(ADA);
    const other = await ctx.session(ADA);
    await expectError(await putEmail(ctx, current.token, { email: 'new@example.com', password: 'wrong password' }), 401, 'invalidCredentials');
    // A taken address is answered like any other (the answer tells no one who is a member).
    await expectMailSent(await putEmail(ctx, current.token, { email: GRACE.email, password: ADA.password }), GRACE.email);
    await jsonOf<MemberInfo>(await putEmail(ctx, current.token, { email: ADA.email, password: ADA.password }), 200);
    expect((await me(ctx, other.token)).email).toBe(ADA.email);
    expect((await me(ctx, current.token)).email).toBe(ADA.email);
  });

  test('PUT /me/email: a wrong password is 401 invalidCredentials, a bad address 400, a taken one 202 with no change; nothing changes', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    await expectError(await putEmail(ctx, token, { email: 'new@example.com', password: 'wrong password' }), 401, 'invalidCredentials', 'password');
    await expectError(await putEmail(ctx, token, { email: 'not an address', password: ADA.password }), 400, 'invalidField', 'email');
    await expectError(await putEmail(ctx, token, { email: 'new@example.com' }), 400, 'invalidField', 'password');
    // Nothing of those mailed anything.
    expect(await allMail(ctx)).toEqual([]);
    await expectMailSent(await putEmail(ctx, token, { email: GRACE.email, password: ADA.password }), GRACE.email);
    expect((await allMail(ctx)).map((m) => [m.to, m.kind])).toEqual([[GRACE.email, 'emailInUse']]);
    expect((await me(ctx, token)).email).toBe(ADA.email);
    expect((await ctx.signIn(GRACE)).status).toBe(201);
    // Its own address again is no conflict.
    expect((await jsonOf<MemberInfo>(await putEmail(ctx, token, { email: ADA.email, password: ADA.password }), 200)).email).toBe(ADA.email);
  });

  test('wrong current passwords count as failed sign-ins: the sixth try is 429 with Retry-After', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    for (let i = 0; i < 5; i++) {
      await expectError(await putPassword(ctx, token, { password: `wrong ${i}`, newPassword: 'a new password' }), 401, 'invalidCredentials');
    }
    const res = await putEmail(ctx, token, { email: 'new@example.com', password: ADA.password });
    await expectError(res, 429, 'rateLimited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(await ctx.signIn(ADA), 429, 'rateLimited');
  });

  test('PUT /me/password: 204, the new password signs in, the old does not, other sessions are signed out, this one stays', async () => {
    const ctx = await fresh();
    const current = await ctx.session(ADA);
    const other = await ctx.session(ADA);
    const grace = await ctx.session(GRACE);
    const res = await putPassword(ctx, current.token, { password: ADA.password, newPassword: 'a brand new passphrase' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectError(await ctx.signIn(ADA), 401, 'invalidCredentials');
    expect((await ctx.signIn({ email: ADA.email, password: 'a brand new passphrase' })).status).toBe(201);
    expect((await me(ctx, current.token)).email).toBe(ADA.email);
    await expectError(await ctx.authed(other.token, ME), 401, 'unauthenticated');
    expect((await me(ctx, grace.token)).email).toBe(GRACE.email);
  });

  test('PUT /me/password: a wrong current password is 401, a short new one 400 on newPassword; nothing changes', async () => {
    const ctx = await fresh();
    const current = await ctx.session(ADA);
    const other = await ctx.session(ADA);
    await expectError(await putPassword(ctx, current.token, { password: 'wrong', newPassword: 'a brand new passphrase' }), 401, 'invalidCredentials', 'password');
    await expectError(await putPassword(ctx, current.token, { password: ADA.password, newPassword: 'short' }), 400, 'invalidField', 'newPassword');
    await expectError(await putPassword(ctx, current.token, { password: ADA.password }), 400, 'invalidField', 'newPassword');
    expect((await ctx.signIn(ADA)).status).toBe(201);
    expect((await me(ctx, other.token)).email).toBe(ADA.email);
  });

  test('the new routes answer other methods with 405 and are allowed in CORS preflights', async () => {
    const ctx = await fresh();
    const res = await ctx.request(`${ME}/email`, { method: 'POST', json: {} });
    await expectError(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')).toBe('PUT');
    const preflight = await ctx.request(`${ME}/password`, {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'PUT' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
  });
});
