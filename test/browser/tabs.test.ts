/**
 * Without cookieDomain the login lives in localStorage: two tabs of one origin follow each
 * other's login and logout (storage events), and a session the service has revoked (signed out
 * elsewhere, or the member blocked by the owner) ends in the page with Service.member.logout.
 */
import { expect } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { issueApiKey } from '../../src/service/auth/api-keys';
import { systemClock } from '../../src/service/domain/clock';
import { createMember } from './support/members';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();
const PAGE = 'single-host.html';

browserTest('a login in one tab reaches the other tab of the origin, and so does the logout', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const first = await suite.open(context, HOST_A, PAGE);
  const second = await suite.open(context, HOST_A, PAGE);
  await second.waitForEvent('Service.member.logout');

  await first.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  const info = await second.waitForEvent('Service.member.info');
  expect((info.detail as { memberInfo: MemberInfo }).memberInfo.email).toBe(member.email);

  await second.page.evaluate(() => window.Service.logout());
  await first.waitForEvent('Service.member.logout', { count: 2 }); // the start-up one, then this
  expect(await first.page.evaluate(() => window.Service.getMemberInfo())).toEqual({ isLoggedIn: false });
  expect(await first.count('Service.member.info')).toBe(1);
});

browserTest('a session revoked on the service logs the page out at its next call, with Service.member.logout', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const page = await suite.open(context, HOST_A, PAGE);
  await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  const token = await page.page.evaluate(() => localStorage.getItem('svc:shop:token'));
  expect(token).toMatch(/^svc_session_/);

  // Signed out elsewhere (another device, say): the service forgets the session.
  const signOut = await fetch(`${suite.service.url}/member/v1/sites/shop/sessions/current`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(signOut.status).toBe(204);

  const code = await page.page.evaluate(() => window.Service.getMemberMetadata().then(() => 'resolved', (e: { code: string }) => e.code));
  expect(code).toBe('unauthenticated');
  await page.waitForEvent('Service.member.logout', { count: 2 });
  expect(await page.page.evaluate(() => [window.Service.getMemberInfo(), localStorage.getItem('svc:shop:token')])).toEqual([
    { isLoggedIn: false },
    null,
  ]);
});

browserTest('a member the owner blocks is logged out at the page\'s next call, and the log-in screen says the account is blocked', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const page = await suite.open(context, HOST_A, PAGE);
  const { id } = await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);

  // The owner blocks them through the Admin API, with a key of the new write scope.
  const key = await suite.service.withStore(async (store, site) => (await issueApiKey(store, systemClock, { siteId: site.id, scopes: ['members:write'] })).key);
  const blocked = await fetch(`${suite.service.url}/admin/v1/members/${id}/block`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  expect(blocked.status).toBe(200);

  const code = await page.page.evaluate(() => window.Service.getMemberMetadata().then(() => 'resolved', (e: { code: string }) => e.code));
  expect(code).toBe('unauthenticated');
  await page.waitForEvent('Service.member.logout', { count: 2 });

  await page.page.evaluate(() => window.Service.open('/member/sign_in'));
  const dialog = page.page.getByRole('dialog', { name: 'Log in' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  await page.page.getByLabel('E-mail', { exact: true }).fill(member.email);
  await page.page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect.poll(() => dialog.getByRole('alert').textContent(), { timeout: 5_000 }).toBe('This account is blocked. Contact the site.');
  expect(await page.page.evaluate(() => window.Service.getMemberInfo())).toEqual({ isLoggedIn: false });
});
