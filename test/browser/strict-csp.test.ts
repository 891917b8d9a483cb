/**
 * The widget under a site's strict Content-Security-Policy (issue 30): `default-src 'self';
 * script-src 'self' <service>; connect-src <service>; style-src 'self'`, nothing inline. The
 * dialog and the loading dialog are styled by constructed stylesheets, which no `style-src`
 * governs, and the hiding style too; the browser reports no violation, and the screens work.
 */
import { expect } from 'vitest';
import { createMember } from './support/members';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';

const suite = useBrowserSuite();

browserTest('under a strict policy: no violation reported, the dialog in its own styles, the hidden stays hidden, and a member logs in', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A), { firstName: 'Radia', lastName: 'Perlman' });
  const context = await suite.newContext();
  // Every violation the page sees, from its first script on.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sample}`));
  });
  const page = await suite.open(context, HOST_A, 'strict-csp.html');
  const errors: string[] = [];
  page.page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  // The page's own policy is the one the test means.
  expect(await page.page.evaluate(() => document.querySelector('[data-svc-show]') instanceof HTMLElement)).toBe(true);
  expect(await page.page.locator('[data-svc-show]').isVisible()).toBe(false);

  await page.page.evaluate(() => window.Service.open('/member/sign_in'));
  const dialog = page.page.getByRole('dialog', { name: 'Log in' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  // The screens' styles apply: the dialog's own font size, radius and padding, not the browser's.
  const look = await dialog.evaluate((node) => {
    const style = getComputedStyle(node);
    return { fontSize: style.fontSize, radius: style.borderTopLeftRadius, borderWidth: style.borderTopWidth, sheets: (node.getRootNode() as ShadowRoot).adoptedStyleSheets.length };
  });
  expect(look).toMatchObject({ fontSize: '16px', borderWidth: '0px', sheets: 1 });
  expect(look.radius).not.toBe('0px');

  await dialog.getByLabel('E-mail').fill(member.email);
  await dialog.getByLabel('Password', { exact: true }).fill(member.password);
  await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForEvent('Service.member.info');
  await expect.poll(() => page.page.locator('[data-svc-show]').isVisible(), { timeout: 5_000 }).toBe(true);

  expect(await page.page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  expect(errors).toEqual([]);
});
