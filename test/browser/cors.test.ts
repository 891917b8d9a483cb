/**
 * (d) Only the site's own pages may use its member API (docs/member-api.md, CORS): a page on
 * another domain loads the widget, but every call to the service fails.
 */
import { expect } from 'vitest';
import { OUTSIDE_HOST } from './support/chromium';
import { createMember, uniqueEmail } from './support/members';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();

/** No cookieDomain: the outside page could not claim shop.example for its cookie anyway. */
const PAGE = 'single-host.html';

browserTest('a page outside the site domain cannot log in, sign up or call the member API', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const evil = await suite.open(context, OUTSIDE_HOST, PAGE);
  expect(await evil.eventTypes()).toEqual(['Service.ready', 'Service.member.logout']);

  const login = await evil.page.evaluate(
    ({ email, password }) => window.Service.login({ email, password }).then(() => 'resolved', (e: { code: string }) => e.code),
    member,
  );
  expect(['networkError', 'originNotAllowed']).toContain(login);
  const email = uniqueEmail('outsider');
  const signUp = await evil.page.evaluate(
    (email) => window.Service.register({ email, password: 'correct horse battery' }).then(() => 'resolved', (e: { code: string }) => e.code),
    email,
  );
  expect(['networkError', 'originNotAllowed']).toContain(signUp);
  expect(await evil.eventTypes()).toEqual(['Service.ready', 'Service.member.logout']);
  expect(await evil.page.evaluate(() => window.Service.getMemberInfo())).toEqual({ isLoggedIn: false });

  // A request that needs no preflight reads the refusal, and nothing of the site's.
  const raw = await evil.page.evaluate((url) => fetch(url).then(async (r) => `${r.status} ${(await r.json()).errors[0].code}`, (e: Error) => e.name), `${suite.service.url}/member/v1/sites/shop/config`);
  expect(raw).toBe('403 originNotAllowed');

  // The page's developer is told why in the console, naming the domain the site answers.
  await evil.page.evaluate(() => window.Service.open('/member/sign_in').catch(() => undefined));
  await expect
    .poll(() => evil.log.filter((line) => line.startsWith('console.error:')), { timeout: 5_000 })
    .toContainEqual(expect.stringContaining(`[Service] Pages on ${suite.origin(OUTSIDE_HOST)} may not call this site's member API: it answers pages on `));

  // The sign-up never reached the service: the e-mail is still free for the site's own pages.
  await createMember(suite.service.url, suite.origin(HOST_A), { email });
});

browserTest('the service refuses the outside origin with 403 (readable only for a GET), and serves its own', async () => {
  const outside = await fetch(`${suite.service.url}/member/v1/sites/shop/config`, { headers: { origin: suite.origin(OUTSIDE_HOST) } });
  expect(outside.status).toBe(403);
  expect(outside.headers.get('access-control-allow-methods')).toBeNull();
  expect((await outside.json()).errors[0].code).toBe('originNotAllowed');

  const own = await fetch(`${suite.service.url}/member/v1/sites/shop/config`, { headers: { origin: suite.origin(HOST_A) } });
  expect(own.status).toBe(200);
  expect(own.headers.get('access-control-allow-origin')).toBe(suite.origin(HOST_A));
});

browserTest('the same page on the site domain logs in (localStorage, no cookieDomain)', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const page = await suite.open(context, HOST_A, PAGE);
  await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  await page.waitForEvent('Service.member.info');
  expect(await page.page.evaluate(() => window.Service.getMemberInfo().isLoggedIn)).toBe(true);
  expect((await context.cookies()).map((c) => c.name)).not.toContain('svc_shop_token');
});
