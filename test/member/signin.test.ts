/** POST /member/v1/sites/{subdomain}/sessions: sign-in, its throttle, and blocked members. */
import { expect, test } from 'vitest';
import { FIXTURE_NOW } from '../../mock-server/fixtures';
import type { SessionResponse } from '../../src/contract/member';
import { ADA, BASE, DAY, expectError, forEachStore, GRACE, invalidFieldPaths, jsonOf, MALLORY, MINUTE, SECOND, type MemberCtx } from './support';

const iso = (ms: number) => new Date(ms).toISOString();

async function eventsOf(ctx: MemberCtx, memberId: number): Promise<string[]> {
  return (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId }, { limit: 100 })).items.map((e) => e.eventType);
}

forEachStore((fresh) => {
  test("ada's password answers 201 with her complete MemberInfo: both memberships, her custom fields", async () => {
    const ctx = await fresh();
    const { fieldIds: f, planIds: p, memberIds: m } = ctx.demo;
    const body = await jsonOf<SessionResponse>(await ctx.signIn(ADA), 201);
    expect(body.token).toMatch(/^svc_session_[A-Za-z0-9_-]{43}$/);
    expect(body.expiresAt).toBe(iso(ctx.now() + 7 * DAY));
    const info = body.memberInfo;
    expect(info).toMatchObject({
      id: m.ada,
      name: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@demo.localhost',
    });
    expect(info.profileImageUrl.startsWith('data:image/svg+xml,')).toBe(true);
    const joined = iso(FIXTURE_NOW - 89 * DAY);
    expect(info.memberships).toHaveLength(2);
    const community = info.memberships.find((x) => x.planId === p.community)!;
    const monthly = info.memberships.find((x) => x.planId === p.monthly)!;
    expect(community).toStrictEqual({
      id: community.id,
      planId: p.community,
      publicPlanId: 'community',
      name: 'Community',
      type: 'free',
      createdAt: joined,
      status: 'active',
      paymentFailure: false,
      welcomeUrl: 'https://demo.localhost/welcome',
      contentUrl: 'https://demo.localhost/',
    });
    expect(monthly).toStrictEqual({
      id: monthly.id,
      planId: p.monthly,
      publicPlanId: 'monthly',
      name: 'Monthly',
      type: 'subscription',
      createdAt: joined,
      status: 'active',
      billingPeriodEnd: iso(FIXTURE_NOW + 20 * DAY),
      paymentFailure: false,
      welcomeUrl: 'https://demo.localhost/',
      contentUrl: 'https://demo.localhost/',
    });
    expect(Number.isInteger(community.id) && Number.isInteger(monthly.id) && community.id !== monthly.id).toBe(true);
    expect(info.customSignupFields.map((c) => [c.id, c.type, c.required, c.value])).toStrictEqual([
      [f.company, 'text', false, 'Analytical Engines'],
      [f.bio, 'textarea', false, ''],
      [f.role, 'select', true, 'developer'],
      [f.topics, 'multiple-select', false, ['widgets', 'apis']],
      [f.terms, 'checkbox', true, true],
    ]);
    for (const c of info.customSignupFields) {
      if (c.type === 'select' || c.type === 'multiple-select') expect(c.options).toHaveLength(3);
      else expect(c).not.toHaveProperty('options');
    }
  });

  test('sign-in takes the e-mail in any case and with surrounding spaces', async () => {
    const ctx = await fresh();
    const body = await jsonOf<SessionResponse>(await ctx.signIn({ email: '  ADA@Demo.LocalHost ', password: ADA.password }), 201);
    expect(body.memberInfo.id).toBe(ctx.demo.memberIds.ada);
  });

  test('each sign-in opens a new session with its own token', async () => {
    const ctx = await fresh();
    const a = await ctx.session(ADA);
    const b = await ctx.session(ADA);
    expect(a.token).not.toBe(b.token);
    expect((await ctx.authed(a.token, `${BASE}/me`)).status).toBe(200);
    expect((await ctx.authed(b.token, `${BASE}/me`)).status).toBe(200);
  });

  test('a wrong password and an unknown e-mail get byte-identical answers: 401 invalidCredentials', async () => {
    const ctx = await fresh();
    const wrong = await ctx.signIn({ email: ADA.email, password: 'not her password' });
    const unknown = await ctx.signIn({ email: 'nobody@demo.localhost', password: 'not her password' });
    const [wrongText, unknownText] = [await wrong.text(), await unknown.text()];
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknownText).toBe(wrongText);
    expect(JSON.parse(wrongText).errors[0].code).toBe('invalidCredentials');
    expect([...unknown.headers].sort()).toEqual([...wrong.headers].sort());
  });

  test("another member's password does not sign ada in", async () => {
    const ctx = await fresh();
    await expectError(await ctx.signIn({ email: ADA.email, password: GRACE.password }), 401, 'invalidCredentials');
  });

  test("a demo member's credentials do not sign in on another site", async () => {
    const ctx = await fresh();
    const res = await ctx.request('/member/v1/sites/other/sessions', { method: 'POST', origin: null, json: ADA });
    await expectError(res, 401, 'invalidCredentials');
  });

  test('sign-in without e-mail or password names each missing field', async () => {
    const ctx = await fresh();
    expect(await invalidFieldPaths(await ctx.signIn({}))).toEqual(['email', 'password']);
    expect(await invalidFieldPaths(await ctx.signIn({ email: ADA.email }))).toEqual(['password']);
    expect(await invalidFieldPaths(await ctx.signIn({ password: ADA.password }))).toEqual(['email']);
    expect(await invalidFieldPaths(await ctx.signIn({ email: 7, password: ['x'] }))).toEqual(['email', 'password']);
  });

  test('a sign-in body that is not a JSON object is 400 invalidBody', async () => {
    const ctx = await fresh();
    for (const raw of ['', 'nope', '[]', '"ada"', 'null', '{"email":']) {
      await expectError(await ctx.request(`${BASE}/sessions`, { method: 'POST', raw }), 400, 'invalidBody');
    }
  });

  test('after 5 failed sign-ins the 6th, even with the right password, is 429 rateLimited with an integer Retry-After', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 5; i++) {
      await expectError(await ctx.signIn({ email: ADA.email, password: `wrong ${i}` }), 401, 'invalidCredentials');
    }
    const res = await ctx.signIn(ADA);
    await expectError(res, 429, 'rateLimited');
    const retry = res.headers.get('retry-after');
    expect(retry).toMatch(/^\d+$/);
    expect(Number(retry)).toBeGreaterThan(0);
    expect(Number(retry)).toBeLessThanOrEqual(15 * 60);
  });

  test('the throttle counts per e-mail in any case: another member can still sign in, the same one in capitals cannot', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 5; i++) await ctx.signIn({ email: ADA.email, password: `wrong ${i}` });
    await expectError(await ctx.signIn({ email: 'ADA@DEMO.LOCALHOST', password: ADA.password }), 429, 'rateLimited');
    await jsonOf(await ctx.signIn(GRACE), 201);
  });

  test('Retry-After counts down to the moment the oldest failure leaves the 15-minute window, and then the right password works', async () => {
    const ctx = await fresh();
    const start = ctx.now();
    for (let i = 0; i < 5; i++) {
      await expectError(await ctx.signIn({ email: ADA.email, password: 'wrong' }), 401, 'invalidCredentials');
      ctx.advance(MINUTE);
    }
    // Now start + 5 min: the first failure leaves the window at start + 15 min.
    const first = await ctx.signIn(ADA);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe(String(10 * 60));
    ctx.advance(9 * MINUTE + 59 * SECOND);
    const late = await ctx.signIn(ADA);
    expect(late.status).toBe(429);
    expect(late.headers.get('retry-after')).toBe('1');
    ctx.advance(SECOND);
    expect(ctx.now()).toBe(start + 15 * MINUTE);
    await jsonOf(await ctx.signIn(ADA), 201);
  });

  test('failures older than 15 minutes do not count towards the throttle', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 4; i++) await ctx.signIn({ email: ADA.email, password: 'wrong' });
    ctx.advance(15 * MINUTE);
    for (let i = 0; i < 4; i++) await expectError(await ctx.signIn({ email: ADA.email, password: 'wrong' }), 401, 'invalidCredentials');
    await jsonOf(await ctx.signIn(ADA), 201);
  });

  test('a successful sign-in clears the failures counted so far', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 4; i++) await expectError(await ctx.signIn({ email: ADA.email, password: 'wrong' }), 401, 'invalidCredentials');
    await jsonOf(await ctx.signIn(ADA), 201);
    for (let i = 0; i < 4; i++) await expectError(await ctx.signIn({ email: ADA.email, password: 'wrong' }), 401, 'invalidCredentials');
    await jsonOf(await ctx.signIn(ADA), 201);
  });

  test('unknown e-mails are throttled like known ones, so the 429 does not reveal who is a member', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 5; i++) await expectError(await ctx.signIn({ email: 'ghost@demo.localhost', password: 'x' }), 401, 'invalidCredentials');
    await expectError(await ctx.signIn({ email: 'ghost@demo.localhost', password: 'x' }), 429, 'rateLimited');
  });

  test('a throttled sign-in records no login event', async () => {
    const ctx = await fresh();
    for (let i = 0; i < 5; i++) await ctx.signIn({ email: ADA.email, password: 'wrong' });
    await expectError(await ctx.signIn(ADA), 429, 'rateLimited');
    expect(await eventsOf(ctx, ctx.demo.memberIds.ada!)).not.toContain('login');
  });

  test('a blocked member with the right password is 403 memberBlocked and gets no session', async () => {
    const ctx = await fresh();
    const body = await expectError(await ctx.signIn(MALLORY), 403, 'memberBlocked');
    expect(JSON.stringify(body)).not.toContain('svc_session_');
    expect(await eventsOf(ctx, ctx.demo.memberIds.mallory!)).not.toContain('login');
  });

  test('a blocked member with a wrong password gets the ordinary 401 invalidCredentials', async () => {
    const ctx = await fresh();
    await expectError(await ctx.signIn({ email: MALLORY.email, password: 'wrong password' }), 401, 'invalidCredentials');
  });

  test('sign-in records a login member event at the clock time; a failed sign-in records none', async () => {
    const ctx = await fresh();
    const ada = ctx.demo.memberIds.ada!;
    await expectError(await ctx.signIn({ email: ADA.email, password: 'wrong' }), 401, 'invalidCredentials');
    expect(await eventsOf(ctx, ada)).toEqual([]);
    ctx.advance(MINUTE);
    await jsonOf(await ctx.signIn(ADA), 201);
    const events = (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: ada }, { limit: 100 })).items;
    expect(events.map((e) => [e.eventType, e.createdAt])).toEqual([['login', ctx.now()]]);
  });
});
