/** POST /member/v1/sites/{subdomain}/members: sign-up, which signs the new member in at once. */
import { expect, test } from 'vitest';
import type { MemberInfo, SessionResponse } from '../../src/contract/member';
import { BASE, DAY, expectError, forEachStore, invalidFieldPaths, jsonOf, validSignUp, type MemberCtx } from './support';

const TOKEN = /^svc_session_[A-Za-z0-9_-]{43}$/;

async function memberCount(ctx: MemberCtx): Promise<number> {
  return (await ctx.store.listMembers(ctx.demo.site.id, {}, { limit: 100 })).items.length;
}

forEachStore((fresh) => {
  test('sign-up answers 201 with a session token, its expiry and the complete MemberInfo of the new member', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const res = await ctx.signUp(
      validSignUp(ctx.demo, {}, { [f.company!]: 'Acme', [f.topics!]: ['apis', 'billing'] }),
    );
    const body = await jsonOf<SessionResponse>(res, 201);
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'memberInfo', 'token']);
    expect(body.token).toMatch(TOKEN);
    expect(body.expiresAt).toBe(new Date(ctx.now() + 7 * DAY).toISOString());
    const info = body.memberInfo;
    expect(Object.keys(info).sort()).toEqual(
      ['customSignupFields', 'email', 'firstName', 'id', 'lastName', 'memberships', 'name', 'profileImageUrl'],
    );
    expect(info).toMatchObject({
      name: 'New Member',
      firstName: 'New',
      lastName: 'Member',
      email: 'new.member@example.com',
      memberships: [],
    });
    expect(Number.isInteger(info.id)).toBe(true);
    expect(info.profileImageUrl.startsWith('data:image/svg+xml,')).toBe(true);
    const roleOptions = [{ label: 'Developer', value: 'developer' }, { label: 'Designer', value: 'designer' }, { label: 'Other', value: 'other' }];
    const topicOptions = [{ label: 'Widgets', value: 'widgets' }, { label: 'APIs', value: 'apis' }, { label: 'Billing', value: 'billing' }];
    expect(info.customSignupFields).toStrictEqual([
      { id: f.company, type: 'text', required: false, value: 'Acme' },
      { id: f.bio, type: 'textarea', required: false, value: '' },
      { id: f.role, type: 'select', required: true, value: 'designer', options: roleOptions },
      { id: f.topics, type: 'multiple-select', required: false, value: ['apis', 'billing'], options: topicOptions },
      { id: f.terms, type: 'checkbox', required: true, value: true },
    ]);
  });

  test('custom fields not given hold the empty value of their type: "" for text, textarea, select, [] for multiple-select', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const body = await jsonOf<SessionResponse>(await ctx.signUp(validSignUp(ctx.demo)), 201);
    const byId = new Map(body.memberInfo.customSignupFields.map((c) => [c.id, c.value]));
    expect(byId.get(f.company!)).toBe('');
    expect(byId.get(f.bio!)).toBe('');
    expect(byId.get(f.topics!)).toEqual([]);
    expect(body.memberInfo.customSignupFields).toHaveLength(5);
  });

  test('an optional checkbox left out is false, and a text field given as "" is ""', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const body = await jsonOf<SessionResponse>(await ctx.signUp(validSignUp(ctx.demo, {}, { [f.company!]: '', [f.topics!]: [] })), 201);
    const byId = new Map(body.memberInfo.customSignupFields.map((c) => [c.id, c.value]));
    expect(byId.get(f.company!)).toBe('');
    expect(byId.get(f.topics!)).toEqual([]);
    expect(byId.get(f.terms!)).toBe(true);
  });

  test('sign-up lower-cases the e-mail address', async () => {
    const ctx = await fresh();
    const body = await jsonOf<SessionResponse>(await ctx.signUp(validSignUp(ctx.demo, { email: 'Mixed.Case@Example.COM' })), 201);
    expect(body.memberInfo.email).toBe('mixed.case@example.com');
    // And the lower-cased address signs in, whatever case is typed then.
    const signIn = await ctx.signIn({ email: 'MIXED.case@example.com', password: 'a good password' });
    expect((await jsonOf<SessionResponse>(signIn, 201)).memberInfo.id).toBe(body.memberInfo.id);
  });

  test('GET /me with the sign-up token answers the same MemberInfo the sign-up did', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const body = await jsonOf<SessionResponse>(
      await ctx.signUp(validSignUp(ctx.demo, {}, { [f.bio!]: 'Hello <b>there</b>', [f.topics!]: ['widgets'] })),
      201,
    );
    const me = await jsonOf<MemberInfo>(await ctx.authed(body.token, `${BASE}/me`), 200);
    expect(me).toStrictEqual(body.memberInfo);
  });

  test('a member signing up with only a first name is named by it alone, with lastName ""', async () => {
    const ctx = await fresh();
    const body = await jsonOf<SessionResponse>(await ctx.signUp(validSignUp(ctx.demo, { firstName: 'Solo', lastName: undefined })), 201);
    expect(body.memberInfo).toMatchObject({ name: 'Solo', firstName: 'Solo', lastName: '' });
  });

  test('sign-up records a signup member event for the new member', async () => {
    const ctx = await fresh();
    const body = await jsonOf<SessionResponse>(await ctx.signUp(validSignUp(ctx.demo)), 201);
    const events = await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: body.memberInfo.id }, { limit: 100 });
    const signups = events.items.filter((e) => e.eventType === 'signup');
    expect(signups).toHaveLength(1);
    expect(signups[0]!.createdAt).toBe(ctx.now());
  });

  test('a missing e-mail is invalidField at path email', async () => {
    const ctx = await fresh();
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, { email: undefined })))).toEqual(['email']);
  });

  test.each([
    ['no at sign', 'ada.example.com'],
    ['no domain dot', 'ada@localhost'],
    ['spaces inside', 'a da@example.com'],
    ['empty', ''],
    ['a number', 42],
    ['null', null],
    ['two at signs', 'a@b@example.com'],
  ])('an invalid e-mail (%s) is invalidField at path email', async (_label, email) => {
    const ctx = await fresh();
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, { email })))).toEqual(['email']);
  });

  test('a password shorter than 8 characters is invalidField at path password; 8 is enough', async () => {
    const ctx = await fresh();
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, { password: '1234567' })))).toEqual(['password']);
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo, { password: '12345678' })), 201);
  });

  test('a password longer than 256 characters is invalidField at path password; 256 is accepted', async () => {
    const ctx = await fresh();
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, { password: 'p'.repeat(257) })))).toEqual(['password']);
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo, { password: 'p'.repeat(256) })), 201);
  });

  // No password key at all is an account without one (test/member/email-confirmation.test.ts).
  test.each([['null', null], ['a number', 12345678], ['empty', '']])(
    'a password that is %s is invalidField at path password',
    async (_label, password) => {
      const ctx = await fresh();
      expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, { password })))).toEqual(['password']);
    },
  );

  test('names that are not strings are invalidField at paths firstName and lastName', async () => {
    const ctx = await fresh();
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, { firstName: 7, lastName: ['x'] })))).toEqual([
      'firstName',
      'lastName',
    ]);
  });

  test('a required select left out is invalidField at customFields.<its id>', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const body = validSignUp(ctx.demo);
    delete (body.customFields as Record<string, unknown>)[f.role!];
    expect(await invalidFieldPaths(await ctx.signUp(body))).toEqual([`customFields.${f.role}`]);
  });

  test('a select value that is not one of its options is invalidField at customFields.<its id>', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, {}, { [f.role!]: 'Developer' })))).toEqual([
      `customFields.${f.role}`,
    ]);
  });

  test.each([
    ['an unknown option', ['widgets', 'gardening']],
    ['a string, not an array', 'widgets'],
    ['an array with a number', ['widgets', 3]],
    ['an object', { widgets: true }],
  ])('a multiple-select with %s is invalidField at customFields.<its id>', async (_label, value) => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, {}, { [f.topics!]: value })))).toEqual([
      `customFields.${f.topics}`,
    ]);
  });

  test('a required checkbox that is false is invalidField at customFields.<its id>', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, {}, { [f.terms!]: false })))).toEqual([
      `customFields.${f.terms}`,
    ]);
  });

  test('a required checkbox left out is invalidField at customFields.<its id>', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const body = validSignUp(ctx.demo);
    delete (body.customFields as Record<string, unknown>)[f.terms!];
    expect(await invalidFieldPaths(await ctx.signUp(body))).toEqual([`customFields.${f.terms}`]);
  });

  test('a custom field id the site does not have is invalidField at customFields.<that id>', async () => {
    const ctx = await fresh();
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, {}, { 99999: 'x' })))).toEqual(['customFields.99999']);
  });

  test('a field id of another site is unknown on this one', async () => {
    const ctx = await fresh();
    // The other site has no fields; demo's ids are unknown to it.
    const f = ctx.demo.fieldIds;
    const noOrigin = await ctx.request('/member/v1/sites/other/members', {
      method: 'POST',
      origin: null,
      json: { email: 'someone@other.example', password: 'long enough', customFields: { [f.company!]: 'x' } },
    });
    expect(await invalidFieldPaths(noOrigin)).toEqual([`customFields.${f.company}`]);
  });

  test.each([
    ['text given a number', 'company', 42],
    ['textarea given an array', 'bio', ['a']],
    ['select given a boolean', 'role', true],
    ['checkbox given a string', 'terms', 'true'],
    ['checkbox given 1', 'terms', 1],
    ['text given null', 'company', null],
  ])('a custom field of the wrong type (%s) is invalidField at customFields.<its id>', async (_label, key, value) => {
    const ctx = await fresh();
    const id = ctx.demo.fieldIds[key]!;
    expect(await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, {}, { [id]: value })))).toEqual([`customFields.${id}`]);
  });

  test('customFields that is not an object is invalidField at customFields', async () => {
    const ctx = await fresh();
    const paths = await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, { customFields: ['designer', true] })));
    expect(paths).toContain('customFields');
  });

  test('one 400 lists every bad field at once', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const res = await ctx.signUp({
      email: 'not an address',
      password: 'short',
      firstName: false,
      customFields: { [f.role!]: 'astronaut', [f.topics!]: 'widgets', [f.terms!]: false, 424242: 'x' },
    });
    expect(await invalidFieldPaths(res)).toEqual(
      [
        'email',
        'password',
        'firstName',
        `customFields.${f.role}`,
        `customFields.${f.topics}`,
        `customFields.${f.terms}`,
        'customFields.424242',
      ].sort(),
    );
  });

  test('a failed sign-up stores nothing: no member, no event, and the same e-mail can sign up afterwards', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const before = await memberCount(ctx);
    const events = async () => (await ctx.store.listMemberEvents(ctx.demo.site.id, {}, { limit: 100 })).items.length;
    const eventsBefore = await events();
    await invalidFieldPaths(await ctx.signUp(validSignUp(ctx.demo, {}, { [f.terms!]: false })));
    expect(await memberCount(ctx)).toBe(before);
    expect(await events()).toBe(eventsBefore);
    expect(await ctx.store.findMemberLogin(ctx.demo.site.id, 'new.member@example.com')).toBeUndefined();
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo)), 201);
    expect(await memberCount(ctx)).toBe(before + 1);
  });

  test('signing up with an e-mail the site has, in any case, is 409 emailTaken', async () => {
    const ctx = await fresh();
    await expectError(await ctx.signUp(validSignUp(ctx.demo, { email: 'ada@demo.localhost' })), 409, 'emailTaken');
    await expectError(await ctx.signUp(validSignUp(ctx.demo, { email: 'ADA@Demo.Localhost' })), 409, 'emailTaken');
    await jsonOf(await ctx.signUp(validSignUp(ctx.demo, { email: 'twice@example.com' })), 201);
    const before = await memberCount(ctx);
    await expectError(await ctx.signUp(validSignUp(ctx.demo, { email: 'Twice@Example.com', password: 'another password' })), 409, 'emailTaken');
    expect(await memberCount(ctx)).toBe(before);
    // The first password still signs in; the second does not.
    await jsonOf(await ctx.signIn({ email: 'twice@example.com', password: 'a good password' }), 201);
    await expectError(await ctx.signIn({ email: 'twice@example.com', password: 'another password' }), 401, 'invalidCredentials');
  });

  test('two sign-ups of the same e-mail at once: one 201, one 409, one member', async () => {
    const ctx = await fresh();
    const before = await memberCount(ctx);
    const [a, b] = await Promise.all([
      ctx.signUp(validSignUp(ctx.demo, { email: 'race@example.com' })),
      ctx.signUp(validSignUp(ctx.demo, { email: 'RACE@example.com' })),
    ]);
    expect([a!.status, b!.status].sort()).toEqual([201, 409]);
    expect(await memberCount(ctx)).toBe(before + 1);
  });

  test('the same e-mail may sign up on another site', async () => {
    const ctx = await fresh();
    const res = await ctx.request('/member/v1/sites/other/members', {
      method: 'POST',
      origin: 'https://shop.other.example',
      json: { email: 'ada@demo.localhost', password: 'a good password' },
    });
    await jsonOf(res, 201);
  });

  test.each([
    ['not JSON', '{"email": '],
    ['a JSON array', '[{"email":"x@example.com","password":"a good password"}]'],
    ['a JSON string', '"hello"'],
    ['JSON null', 'null'],
    ['empty', ''],
    ['only spaces', '   '],
  ])('a sign-up body that is %s is 400 invalidBody', async (_label, raw) => {
    const ctx = await fresh();
    await expectError(await ctx.request(`${BASE}/members`, { method: 'POST', raw }), 400, 'invalidBody');
  });

  test('a sign-up with no body at all is 400 invalidBody', async () => {
    const ctx = await fresh();
    await expectError(await ctx.request(`${BASE}/members`, { method: 'POST' }), 400, 'invalidBody');
  });

  test('a body over 64 KiB is refused with 413 and stores nothing', async () => {
    const ctx = await fresh();
    const before = await memberCount(ctx);
    const f = ctx.demo.fieldIds;
    const body = JSON.stringify(validSignUp(ctx.demo, { email: 'big@example.com' }, { [f.bio!]: 'x'.repeat(64 * 1024) }));
    const res = await ctx.request(`${BASE}/members`, { method: 'POST', raw: body });
    const text = await res.text();
    expect(res.status, text).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(text).errors).toHaveLength(1);
    expect(await memberCount(ctx)).toBe(before);
  });

  test('a body over 64 KiB that declares its length is refused with 413', async () => {
    const ctx = await fresh();
    const raw = JSON.stringify({ email: 'big@example.com', password: 'p'.repeat(70 * 1024) });
    const res = await ctx.request(`${BASE}/members`, { method: 'POST', raw, headers: { 'content-length': String(raw.length) } });
    expect(res.status).toBe(413);
  });
});
