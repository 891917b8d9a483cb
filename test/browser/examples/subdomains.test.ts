/**
 * examples/subdomains.html. Against the demo service, on two subdomains of the demo site's domain
 * (a.demo.localhost and b.demo.localhost: Chromium answers every *.localhost name with loopback
 * itself, as it does for a QA person after `npm start`), in one browser: each page's install code
 * sets cookieDomain 'demo.localhost', the login is one cookie on .demo.localhost, a login on a
 * reaches the open b within seconds, a page opened later on c starts logged in, and a logout on b
 * reaches a and c; on 127.0.0.1 the page sets no
 * cookieDomain. With no service (mock mode) every page has its own mock service, so the page
 * explains that the two-tab steps need the real one, and says which cookieDomain it chose.
 */
import type { BrowserContext } from 'playwright-core';
import { expect } from 'vitest';
import { ADA, EXAMPLE_MODES, expectNoErrors, useExamplesSuite, type ExampleMode, type ExamplePage } from '../support/examples';
import { browserTest } from '../support/suite';
import { WidgetPage } from '../support/widget-page';

const suite = useExamplesSuite();

/** How long another page may take to notice: the widget reads the login cookie every 1.5 s. */
const FOLLOW_MS = 5_000;

/** The example's address in `mode` on `host` (127.0.0.1 when none), the mode's port. */
function address(mode: ExampleMode, host?: string): string {
  const url = new URL(`${suite.origin(mode)}/examples/subdomains.html`);
  if (host) url.hostname = host;
  return url.href;
}

/** Opens the example on `host` and waits for Service.ready (suite.open knows only 127.0.0.1). */
async function openOn(context: BrowserContext, mode: ExampleMode, host: string): Promise<ExamplePage> {
  const widgetPage = new WidgetPage(await context.newPage());
  const page: ExamplePage = Object.assign(widgetPage, {
    errors: () => widgetPage.log.filter((line) => line.startsWith('console.error:') || line.startsWith('pageerror:')),
  });
  await page.page.goto(address(mode, host));
  await page.waitForEvent('Service.ready', { timeout: 15_000 });
  return page;
}

const choice = (page: ExamplePage) => page.page.locator('#choice').getAttribute('data-cookie-domain');
const status = (page: ExamplePage) => page.page.locator('#status').textContent();
const heard = (page: ExamplePage) => page.page.locator('#heard > li > strong').allTextContents();

for (const mode of EXAMPLE_MODES) {
  if (mode === 'service') {
    browserTest('subdomains.html (service): a login on a.demo.localhost reaches the open b tab and a new c tab; a logout on b reaches both', async () => {
      const context = await suite.newContext();
      const b = await openOn(context, mode, 'b.demo.localhost');
      const a = await openOn(context, mode, 'a.demo.localhost');
      for (const page of [a, b]) {
        expect(await choice(page)).toBe('demo.localhost');
        expect(await page.page.locator('#install-code').textContent()).toBe("window.Service = { subdomain: 'demo', cookieDomain: 'demo.localhost' };");
        await expect.poll(() => status(page)).toBe('no');
        expect(await page.page.locator('#mode').textContent()).toBe('the real service');
      }
      expect(await b.page.locator('#link-b').evaluate((link) => link.parentElement!.textContent)).toContain('(this tab)');
      expect(await b.page.locator('#link-a').getAttribute('href')).toBe(address(mode, 'a.demo.localhost'));

      // Log in on a, through the page's own link.
      await a.page.locator('#login-link').click();
      const dialog = a.page.getByRole('dialog', { name: 'Log in' });
      await dialog.getByLabel('E-mail').fill(ADA.email);
      await dialog.getByLabel('Password').fill(ADA.password);
      await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
      await expect.poll(() => status(a)).toBe(`yes, as Ada Lovelace (${ADA.email})`);
      expect(await a.page.locator('#where').textContent()).toBe('the cookie svc_demo_token on demo.localhost');
      const cookie = (await context.cookies()).find((c) => c.name === 'svc_demo_token');
      expect(cookie).toMatchObject({ domain: '.demo.localhost', sameSite: 'Lax', secure: false });

      // b, already open and left alone, follows within seconds, with no reload.
      await b.page.evaluate(() => ((window as { marker?: number }).marker = 1));
      await b.waitForEvent('Service.member.info', { timeout: FOLLOW_MS });
      await expect.poll(() => status(b)).toBe(`yes, as Ada Lovelace (${ADA.email})`);
      expect(await b.page.locator('header [data-svc-member-info="name"]').textContent()).toBe('Ada Lovelace');
      expect((await heard(b))[0]).toBe('Service.member.info');
      expect(await b.page.evaluate(() => (window as { marker?: number }).marker)).toBe(1);

      // A third subdomain opened now starts logged in.
      const c = await openOn(context, mode, 'c.demo.localhost');
      expect(await c.eventTypes()).not.toContain('Service.member.logout');
      await expect.poll(() => status(c)).toBe(`yes, as Ada Lovelace (${ADA.email})`);

      // Log out on b: a and c follow.
      const logoutsOnA = await a.count('Service.member.logout');
      await b.page.locator('#logout').click();
      await expect.poll(() => status(b)).toBe('no');
      await a.waitForEvent('Service.member.logout', { count: logoutsOnA + 1, timeout: FOLLOW_MS });
      await expect.poll(() => status(a)).toBe('no');
      await c.waitForEvent('Service.member.logout', { timeout: FOLLOW_MS });
      await expect.poll(() => status(c)).toBe('no');
      expect(await a.page.locator('#login-link').isVisible()).toBe(true);
      expect((await heard(a))[0]).toBe('Service.member.logout');
      expect((await context.cookies()).map((c) => c.name)).not.toContain('svc_demo_token');

      expectNoErrors(a);
      expectNoErrors(b);
      expectNoErrors(c);
    });
  }

  browserTest(`subdomains.html (${mode}): on 127.0.0.1 no cookieDomain; the page says so and explains the mock mode`, async () => {
    const context = await suite.newContext({ width: 375 });
    const page = await suite.open(context, mode, 'subdomains.html');
    const p = page.page;
    expect(await choice(page)).toBe('');
    expect(await p.locator('#choice').textContent()).toContain('set no cookieDomain');
    expect(await p.locator('#install-code').textContent()).toBe("window.Service = { subdomain: 'demo' };");
    expect(await p.locator('#host').textContent()).toBe(new URL(suite.origin(mode)).host);
    await expect.poll(() => status(page)).toBe('no');
    // The steps' links, on this server's port.
    expect(await p.locator('#link-a').getAttribute('href')).toBe(address(mode, 'a.demo.localhost'));
    expect(await p.locator('#link-b').textContent()).toBe(address(mode, 'b.demo.localhost'));
    // The mock mode: explained on every page, marked as the case here when it is.
    expect(await p.locator('#mock-note').textContent()).toContain('Every tab has its own');
    expect(await p.locator('#mode').textContent()).toBe(
      mode === 'mock' ? 'the mock service, in this page (npm run examples:mock): the two-tab steps below need npm start' : 'the real service',
    );
    expect(await p.locator('#mock-note').evaluate((note) => note.classList.contains('subdomains-mock'))).toBe(mode === 'mock');

    // Logged in here, the login is this origin's own (localStorage), not a cookie.
    await p.locator('#login-link').click();
    const dialog = p.getByRole('dialog', { name: 'Log in' });
    await dialog.getByLabel('E-mail').fill(ADA.email);
    await dialog.getByLabel('Password').fill(ADA.password);
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect.poll(() => status(page)).toBe(`yes, as Ada Lovelace (${ADA.email})`);
    expect(await p.locator('#where').textContent()).toBe(`localStorage of ${suite.origin(mode)}`);
    expect((await context.cookies()).map((c) => c.name)).not.toContain('svc_demo_token');
    expect(await heard(page)).toEqual(['Service.member.info', 'Service.member.logout', 'Service.ready']);

    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `subdomains.html scrolls sideways by ${overflow} px at 375 px`).toBeLessThanOrEqual(0);
    expectNoErrors(page);
  });
}
