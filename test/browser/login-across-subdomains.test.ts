/**
 * (b, c) With `cookieDomain` set, one login holds on every subdomain of the site (spec 1.2):
 * a page opened later starts logged in, and pages already open follow logins and logouts.
 */
import { expect } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { createMember } from './support/members';
import { browserTest, HOST_A, HOST_B, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();

/** How long another page may take to notice: the widget reads the login cookie every 1.5 s. */
const FOLLOW_MS = 5_000;

browserTest('Service.login on a.shop.example sends Service.member.info; b.shop.example then starts logged in', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A), { firstName: 'Grace', lastName: 'Hopper' });
  const context = await suite.newContext();

  const a = await suite.open(context, HOST_A);
  const loggedIn = await a.page.evaluate(
    ({ email, password }) => window.Service.login({ email, password }),
    { email: member.email, password: member.password },
  );
  expect(loggedIn).toMatchObject({ email: member.email, firstName: 'Grace', lastName: 'Hopper', name: 'Grace Hopper' });
  const info = await a.waitForEvent('Service.member.info');
  expect((info.detail as { memberInfo: MemberInfo }).memberInfo).toEqual(loggedIn);
  expect(await a.page.evaluate(() => window.Service.getMemberInfo())).toEqual({ isLoggedIn: true, memberInfo: loggedIn });

  const b = await suite.open(context, HOST_B);
  const ready = await b.waitForEvent('Service.ready');
  expect((ready.detail as { memberInfo?: MemberInfo }).memberInfo).toMatchObject({ id: loggedIn.id, email: member.email });
  await b.waitForEvent('Service.member.info');
  expect(await b.eventTypes()).not.toContain('Service.member.logout');
  expect(await b.page.evaluate(() => window.Service.getMemberInfo().isLoggedIn)).toBe(true);
});

browserTest('a login on a.shop.example reaches an open b.shop.example tab; a logout there reaches a', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const b = await suite.open(context, HOST_B);
  const a = await suite.open(context, HOST_A);
  await b.waitForEvent('Service.member.logout'); // nobody is logged in at first
  expect(await b.count('Service.member.info')).toBe(0);

  await a.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  // "Within seconds" is the wait's own bound: no event within FOLLOW_MS fails the test.
  const info = await b.waitForEvent('Service.member.info', { timeout: FOLLOW_MS });
  expect((info.detail as { memberInfo: MemberInfo }).memberInfo.email).toBe(member.email);
  expect(await b.page.evaluate(() => window.Service.getMemberInfo().isLoggedIn)).toBe(true);

  const cookie = (await context.cookies()).find((c) => c.name === 'svc_shop_token');
  expect(cookie).toMatchObject({ domain: '.shop.example' });
  const logoutsOnA = await a.count('Service.member.logout');
  await b.page.evaluate(() => window.Service.logout());
  expect(await b.count('Service.member.logout')).toBe(2); // the start-up one and this one
  await a.waitForEvent('Service.member.logout', { count: logoutsOnA + 1, timeout: FOLLOW_MS });
  expect(await a.page.evaluate(() => window.Service.getMemberInfo())).toEqual({ isLoggedIn: false });
  expect((await context.cookies()).map((c) => c.name)).not.toContain('svc_shop_token');

  // Revoked on the service too, not only forgotten by the browser.
  const me = await fetch(`${suite.service.url}/member/v1/sites/shop/me`, {
    headers: { authorization: `Bearer ${decodeURIComponent(cookie!.value)}` },
  });
  expect(me.status).toBe(401);
});
