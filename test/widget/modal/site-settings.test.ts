// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * The two site settings the screens follow (GET /config): the member menu, where a logged-in
 * member lands from "Log in" and "Register", and the after-registration action, run after a
 * registration that names no plan and by /member/plans with no plan (spec 4.1, the svcopen table).
 */
import { waitFor } from '@testing-library/dom';
import { expect, test, vi } from 'vitest';
import { ADA, GRACE, recordEvents, settle } from '../support';
import { catchNavigation } from './plan-support';
import { fill, hosts, siteSettings, startAt, svcopen, waitForScreen } from './support';

const at = (path: string) => `/?svcopen=${encodeURIComponent(path)}`;
let emails = 0;
const newEmail = () => `settings-${Date.now().toString(36)}-${++emails}@example.com`;

/** Counts every modal host the page ever gets, even one removed at once. */
function countHosts(): { count: number } {
  const seen = { count: 0 };
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if ((node as Element).hasAttribute?.('data-svc-modal')) seen.count++;
  }).observe(document.documentElement, { childList: true, subtree: true });
  return seen;
}

async function register(): Promise<void> {
  const m = await waitForScreen('Create an account');
  fill(m.control('email'), newEmail());
  fill(m.control('password'), 'a long enough password');
  const h = m.root.querySelector('select') as HTMLSelectElement; // Role, required
  h.value = 'developer';
  h.dispatchEvent(new Event('change', { bubbles: true }));
  (m.root.querySelector('input[type=checkbox][required]') as HTMLInputElement).click(); // the terms, required
  m.button('Create account').click();
}

test.each(['/member/sign_in', '/member/sign_up'])('%s, logged in, on a site with a member menu: the menu, greeting the member', async (path) => {
  await svcopen(path, ADA);
  const m = await waitForScreen('Menu');
  expect(m.dialog.textContent).toContain('Logged in as Ada Lovelace');
  const nav = m.q.getByRole('navigation', { name: 'Menu' });
  expect([...nav.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Your account', 'Your memberships', 'Invoices', 'Plans', 'Log out']);
});

test('the member menu’s links open their screens in the same dialog; its Log out logs out and closes', async () => {
  const h = await svcopen('/member/sign_in', ADA);
  const menu = await waitForScreen('Menu');
  menu.button('Your memberships').click();
  const memberships = await waitForScreen('Your memberships');
  expect(memberships.host).toBe(menu.host);
  expect(memberships.dialog.textContent).toContain('Monthly');

  history.replaceState(null, '', at('/member/sign_in'));
  h.start();
  const again = await waitForScreen('Menu');
  const events = recordEvents();
  again.button('Log out').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(events.names()).toEqual(['Service.member.logout']);
});

test('after-registration action "plans" (the demo site): registering with no plan named goes on to every public plan', async () => {
  const h = await svcopen('/member/sign_up');
  await register();
  const plans = await waitForScreen('Plans');
  expect(plans.q.getAllByRole('heading', { level: 3 }).map((e) => e.textContent)).toEqual(['Community', 'Lifetime', 'Course in three payments', 'Monthly']);
  expect(h.service.getMemberInfo().isLoggedIn).toBe(true);
});

test('after-registration action "redirect": registering with no plan named goes to the site’s page', async () => {
  const navigation = catchNavigation();
  await startAt(at('/member/sign_up'), { beforeStart: siteSettings({ afterRegistration: { action: 'redirect', url: 'https://demo.localhost/start-here' } }) });
  await register();
  await waitFor(() => expect(navigation.urls).toEqual(['https://demo.localhost/start-here']));
  expect(hosts()).toHaveLength(0);
});

test('/member/plans with no plan, logged in: the after-registration action runs ("plans": every public plan)', async () => {
  await svcopen('/member/plans', GRACE);
  await waitForScreen('Plans');
});

test('/member/plans with no plan, logged in, action "redirect": the browser goes there, no dialog is drawn', async () => {
  const navigation = catchNavigation();
  const drawn = countHosts();
  await startAt(at('/member/plans'), { member: GRACE, beforeStart: siteSettings({ afterRegistration: { action: 'redirect', url: 'https://demo.localhost/start-here' } }) });
  await waitFor(() => expect(navigation.urls).toEqual(['https://demo.localhost/start-here']));
  await settle();
  expect(drawn.count).toBe(0);
});

test('/member/plans with no plan, logged in, action "stay": nothing opens and nothing is said', async () => {
  const navigation = catchNavigation();
  const drawn = countHosts();
  const h = await startAt(at('/member/plans'), { member: GRACE, beforeStart: siteSettings({ afterRegistration: { action: 'stay' } }) });
  await waitFor(() => expect(h.requests('GET', '/config')).toBeGreaterThan(0));
  await settle();
  expect(drawn.count).toBe(0);
  expect(navigation.urls).toEqual([]);
});

test('/member/plans with no plan, logged out: register first, then the after-registration action', async () => {
  await svcopen('/member/plans');
  await register();
  await waitForScreen('Plans');
});

test('the dialog names the site above its title, with the theme’s logo when it has one', async () => {
  await startAt(`/?svcopen=${encodeURIComponent('/member/sign_in')}`, { beforeStart: siteSettings({ theme: { logoUrl: '/images/logo.svg' } }) });
  const m = await waitForScreen('Log in');
  const brand = m.root.querySelector<HTMLElement>('.brand')!;
  expect(brand.hidden).toBe(false);
  expect(brand.textContent).toBe('Demo Academy');
  const logo = brand.querySelector('img')!;
  // Decoration beside the name that says the same.
  expect([logo.getAttribute('src'), logo.alt]).toEqual(['/images/logo.svg', '']);
});

test('a logo at an address the widget does not follow is left out, with a warning; the name stays', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  await startAt(`/?svcopen=${encodeURIComponent('/member/sign_in')}`, { beforeStart: siteSettings({ theme: { logoUrl: 'javascript:alert(1)' } }) });
  const m = await waitForScreen('Log in');
  expect(m.root.querySelector('.brand')!.textContent).toBe('Demo Academy');
  expect(m.root.querySelector('.brand img')).toBeNull();
  expect(warn.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringContaining('javascript:alert(1)'));
  warn.mockRestore();
});
