// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * A site with no public plans (GET /plans answers []): the plans screen says so in the site's
 * language instead of drawing an empty list; after registration (action "plans") the dialog
 * closes, as after "stay" (src/widget/modal/open.ts, afterRegistrationScreen).
 */
import { waitFor } from '@testing-library/dom';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { GRACE, type Harness } from '../support';
import { catchNavigation, dialogText, onOtherSite } from './plan-support';
import { fill, hosts, startAt, waitForScreen } from './support';

const at = (path: string) => `/?svcopen=${encodeURIComponent(path)}`;
let emails = 0;
const newEmail = () => `no-plans-${Date.now().toString(36)}-${++emails}@example.com`;

/** The German site's member (mock-server/fixtures.ts), as in plan-screens.test.ts. */
const OTTO = { email: 'otto@other.example', password: 'otto-password' };

/** Before the page loads: the demo site's GET /plans answers an empty list. */
const noPlans = () => (h: Harness) => void h.mock.server.use(http.get(`${h.base}/plans`, () => HttpResponse.json([])));

/** Fills and submits the demo site's register screen (its required custom fields included). */
async function register(): Promise<void> {
  const m = await waitForScreen('Create an account');
  fill(m.control('email'), newEmail());
  fill(m.control('password'), 'a long enough password');
  const role = m.root.querySelector('select') as HTMLSelectElement;
  role.value = 'developer';
  role.dispatchEvent(new Event('change', { bubbles: true }));
  (m.root.querySelector('input[type=checkbox][required]') as HTMLInputElement).click(); // the terms, required
  m.button('Create account').click();
}

test('plans/all with no public plans: "This site offers no plans yet." under "Plans", no list', async () => {
  const h = await startAt(at('/member/plans/all'), { member: GRACE, beforeStart: noPlans() });
  const m = await waitForScreen('Plans');
  expect(m.root.querySelector('ul.plans')).toBeNull();
  expect(m.root.querySelectorAll('li')).toHaveLength(0);
  expect(dialogText()).toContain('This site offers no plans yet.');
  expect(h.requests('GET', '/plans')).toBe(1);
});

test('the plans on a German site (other, de) with no public plans: "Diese Website bietet noch keine Tarife an." under "Tarife"', async () => {
  await onOtherSite('/member/account', OTTO, async (h) => {
    const account = await waitForScreen('Ihr Konto');
    h.mock.server.use(http.get(`${h.mock.origin}/member/v1/sites/other/plans`, () => HttpResponse.json([])));
    account.button('Tarife').click();
    const m = await waitForScreen('Tarife');
    expect(m.host).toBe(account.host);
    expect(m.root.querySelector('ul.plans')).toBeNull();
    expect(dialogText()).toContain('Diese Website bietet noch keine Tarife an.');
    expect(dialogText()).not.toContain('This site offers no plans yet.');
    expect(m.button('Schließen')).toBeDefined();
  });
});

test('the member menu\'s Plans with no public plans: the message in the same dialog', async () => {
  await startAt(at('/member/sign_in'), { member: GRACE, beforeStart: noPlans() });
  const menu = await waitForScreen('Menu');
  menu.button('Plans').click();
  const m = await waitForScreen('Plans');
  expect(m.host).toBe(menu.host);
  expect(m.root.querySelector('ul.plans')).toBeNull();
  expect(dialogText()).toContain('This site offers no plans yet.');
});

test('after-registration action "plans" with no public plans: registering closes the dialog, the member stays logged in on the page', async () => {
  const navigation = catchNavigation();
  const h = await startAt(at('/member/sign_up'), { beforeStart: noPlans() });
  await register();
  await waitFor(() => expect(h.requests('GET', '/plans')).toBe(1));
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(h.service.getMemberInfo().isLoggedIn).toBe(true);
  expect(navigation.urls).toEqual([]);
});

test('/member/plans with no plan, logged in, action "plans" and no public plans: the dialog closes, as after "stay"', async () => {
  const navigation = catchNavigation();
  const h = await startAt(at('/member/plans'), { member: GRACE, beforeStart: noPlans() });
  await waitFor(() => expect(h.requests('GET', '/plans')).toBe(1));
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(navigation.urls).toEqual([]);
});
