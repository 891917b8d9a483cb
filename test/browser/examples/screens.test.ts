/**
 * examples/screens.html, against the demo service and with no service (mock mode): the page's
 * own `?svcopen=` links open their screens with no page load, logged out and logged in; the
 * links that name a plan take its id from the member API; the Service.open box shows a
 * rejection's code; the Log out link logs out; a plan sign-up from the page sends
 * Service.conversion. No console error anywhere.
 */
import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import { browserTest } from '../support/suite';
import { ADA, EXAMPLE_MODES, expectNoErrors, useExamplesSuite } from '../support/examples';

const suite = useExamplesSuite();

/** Clicks the table's link `link`, waits for the dialog titled `title`, runs `check`, closes it. */
async function openAndClose(page: Page, link: string, title: string, check?: (text: string) => void): Promise<void> {
  await page.locator('#screens').getByRole('link', { name: link, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title, exact: true });
  await dialog.waitFor();
  if (check) check((await dialog.textContent()) ?? '');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** True while the document the test marked is still the one shown: no page load happened. */
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage === true);

for (const mode of EXAMPLE_MODES) {
  browserTest(`screens.html (${mode}): the svcopen links open their screens without a page load, logged out and in`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'screens.html');
    const p = page.page;
    const address = p.url();
    let loads = 0;
    p.on('load', () => loads++);
    await p.evaluate(() => void ((window as unknown as { __samePage: boolean }).__samePage = true));
    await expect.poll(() => p.locator('#state').textContent()).toBe('Nobody is logged in.');
    expect(await p.locator('#screens').getAttribute('data-state')).toBe('out');

    // Logged out, Account asks for a login first.
    await openAndClose(p, 'Account', 'Log in');

    // The page's own "Log in" link: the dialog, with no page load and the address unchanged.
    await p.locator('#login-link').click();
    const login = p.getByRole('dialog', { name: 'Log in' });
    await login.waitFor();
    expect(p.url()).toBe(address);
    await p.getByLabel('E-mail').fill(ADA.email);
    await p.getByLabel('Password').fill(ADA.password);
    await login.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForEvent('Service.member.info');
    await login.waitFor({ state: 'detached' });
    await expect.poll(() => p.locator('#state').textContent()).toContain('Logged in as ada@demo.localhost');
    expect(await p.locator('#screens').getAttribute('data-state')).toBe('in');
    expect(await p.locator('header [data-svc-member-info="name"]').textContent()).toBe('Ada Lovelace');
    expect(await p.locator('header .who').isVisible()).toBe(true);

    // Logged in: each link opens its screen.
    await openAndClose(p, 'Log in', 'Menu'); // the demo site has a member menu
    await openAndClose(p, 'Account', 'Your account', (text) => expect(text).toContain(ADA.email));
    await openAndClose(p, 'Memberships', 'Your memberships', (text) => {
      expect(text).toContain('Monthly');
      expect(text).toContain('Community');
    });
    await openAndClose(p, 'Invoices', 'Invoices');
    await openAndClose(p, 'All plans', 'Plans', (text) => {
      // Ada's own plans are marked, with nothing to buy them again.
      expect(text).toContain('Choose: Lifetime');
      expect(text).not.toContain('Choose: Community');
    });
    await openAndClose(p, 'Content 1', 'Welcome', (text) => expect(text).toContain('Start with the tour'));
    await openAndClose(p, 'Password change', 'Change password');

    // Service.open from the box: a good path opens its screen, a bad one shows the code.
    await p.locator('#open-path').fill('/member/invoices');
    await p.locator('#open-button').click();
    const invoices = p.getByRole('dialog', { name: 'Invoices' });
    await invoices.waitFor();
    await expect.poll(() => p.locator('#open-result').textContent()).toBe('Resolved: /member/invoices is opening.');
    await invoices.getByRole('button', { name: 'Close', exact: true }).click();
    await invoices.waitFor({ state: 'detached' });
    await p.locator('#open-path').fill('/member/nowhere');
    await p.locator('#open-button').click();
    await expect.poll(() => p.locator('#open-result').textContent()).toContain('Rejected with unknownScreen: ');
    expect(await p.locator('[data-svc-modal]').count()).toBe(0);

    // The table's Log out link logs out: no screen, the header and the state follow.
    await p.locator('#screens').getByRole('link', { name: 'Log out', exact: true }).click();
    await page.waitForEvent('Service.member.logout', { count: 2 });
    await expect.poll(() => p.locator('#state').textContent()).toBe('Nobody is logged in.');
    expect(await p.locator('header .who').isVisible()).toBe(false);
    expect(await p.locator('#screens').getAttribute('data-state')).toBe('out');
    expect(await p.locator('[data-svc-modal]').count()).toBe(0);

    // All along, one page: no load event, the same document and address.
    expect(loads).toBe(0);
    expect(await stillSamePage(p)).toBe(true);
    expect(p.url()).toBe(address);
    expectNoErrors(page);
  });

  browserTest(`screens.html (${mode}): Register with a plan signs a new member up to Community and sends Service.conversion`, async () => {
    const context = await suite.newContext();
    // Community's welcome page (the mock's fixtures: https://demo.localhost/welcome; the service's
    // demo site file: /examples/welcome.html): answer 204 so the page stays and the test sees where it went.
    const left: string[] = [];
    const stay = (route: Route) => {
      left.push(route.request().url());
      return route.fulfill({ status: 204 });
    };
    await context.route('https://demo.localhost/**', stay);
    await context.route('**/examples/welcome.html', stay);
    const page = await suite.open(context, mode, 'screens.html');
    const p = page.page;
    const address = p.url();
    await p.evaluate(() => void ((window as unknown as { __samePage: boolean }).__samePage = true));

    // The plan links name the plan chosen above the table, by its public id from the member API.
    const plans = await p.evaluate(() => fetch('/member/v1/sites/demo/plans').then((r) => r.json() as Promise<{ publicId: string; name: string }[]>));
    const community = plans.find((plan) => plan.name === 'Community')!;
    expect(community).toBeDefined();
    const registerWithPlan = p.locator('#link-register-plan');
    await expect.poll(() => registerWithPlan.getAttribute('href')).toBe(`?svcopen=/member/sign_up/${community.publicId}`);
    expect(await p.locator('#plan-choice').inputValue()).toBe(community.publicId);
    expect(await p.locator('#link-plan').getAttribute('href')).toBe(`?svcopen=/member/plans/${community.publicId}`);
    expect(await p.locator('#plan-choice option').allTextContents()).toContain('Community (free)');

    await registerWithPlan.click();
    const register = p.getByRole('dialog', { name: 'Create an account' });
    await register.waitFor();
    const email = `screens-${mode}-${Date.now()}@example.com`;
    await register.getByLabel('First name').fill('Katherine');
    await register.getByLabel('Last name').fill('Johnson');
    await register.getByLabel('E-mail').fill(email);
    await register.getByLabel('Password').fill('long-enough-password');
    // The site's required custom fields differ between the modes: answer whatever is required.
    for (const select of await register.locator('select[required]').all()) await select.selectOption({ index: 1 });
    for (const box of await register.locator('input[type=checkbox][required]').all()) await box.check();
    await register.getByRole('button', { name: 'Create account', exact: true }).click();

    const signup = p.getByRole('dialog', { name: 'Community' });
    await signup.waitFor();
    expect(await page.count('Service.member.registration')).toBe(1);
    await signup.getByRole('button', { name: 'Join free', exact: true }).click();
    const conversion = (await page.waitForEvent('Service.conversion')).detail as {
      membership: { name: string; publicPlanId: string; type: string };
      member: { email: string };
    };
    expect(conversion.membership).toMatchObject({ name: 'Community', publicPlanId: community.publicId, type: 'free' });
    expect(conversion.member.email).toBe(email);
    await expect.poll(() => p.locator('#state').textContent()).toBe(`Logged in as ${email}, on Community.`);
    await expect.poll(() => left).toEqual([mode === 'mock' ? 'https://demo.localhost/welcome' : new URL('/examples/welcome.html', address).href]);
    expect(await p.locator('[data-svc-modal]').count()).toBe(0);
    expect(await stillSamePage(p)).toBe(true);
    expect(p.url()).toBe(address);

    expectNoErrors(page);
  });
}
