/**
 * svcopen in real Chromium (spec 4.1; DESIGN.md "Widget modal"): the page's widgets.js downloads
 * widgets-modal.js from the service once, the screen opens in the dialog, and a person logs in or
 * signs up with the keyboard alone. Playwright's role and label queries reach into the open
 * shadow root, as assistive technology does.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { createMember, uniqueEmail } from './support/members';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';
import { WidgetPage } from './support/widget-page';

const suite = useBrowserSuite();

interface Opened {
  page: WidgetPage;
  /** Every request for widgets-modal.js the page made, as URLs. */
  modalRequests: string[];
}

/** Opens the site's page with `svcopen=<path>` and waits for Service.ready. */
async function openWithSvcopen(context: BrowserContext, path: string, extra = ''): Promise<Opened> {
  const raw = await context.newPage();
  const modalRequests: string[] = [];
  raw.on('request', (request) => {
    if (request.url().includes('widgets-modal.js')) modalRequests.push(request.url());
  });
  const page = new WidgetPage(raw);
  await raw.goto(`${suite.pages.url(HOST_A)}?svcopen=${encodeURIComponent(path)}${extra}`);
  await page.waitForEvent('Service.ready');
  return { page, modalRequests };
}

const hostCount = (page: Page) => page.evaluate(() => document.querySelectorAll('[data-svc-modal]').length);

/** What has focus, looking into the dialog's shadow root: `input:email`, `button:Log in`, or a page element's id. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const inner = document.querySelector('[data-svc-modal]')?.shadowRoot?.activeElement;
    if (inner) return `${inner.tagName.toLowerCase()}:${inner.getAttribute('name') ?? inner.textContent}`;
    return document.activeElement?.id || document.activeElement?.tagName.toLowerCase();
  });

browserTest('svcopen=/member/sign_in: the modal bundle is fetched once, and a member logs in with the keyboard', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A), { firstName: 'Hedy', lastName: 'Lamarr' });
  const context = await suite.newContext();
  const { page, modalRequests } = await openWithSvcopen(context, '/member/sign_in', '&ref=mail#intro');
  const dialog = page.page.getByRole('dialog', { name: 'Log in' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  // svcopen is gone from the address; the rest stays.
  expect(new URL(page.page.url()).search).toBe('?ref=mail');
  expect(new URL(page.page.url()).hash).toBe('#intro');
  expect(modalRequests).toEqual([`${suite.service.url}/scripts/widgets-modal.js`]);
  expect(await hostCount(page.page)).toBe(1);
  expect(await dialog.getAttribute('aria-modal')).toBe('true');

  // Focus is already in the e-mail field: type, Tab, type, Enter.
  expect(await focused(page.page)).toBe('input:email');
  await page.page.keyboard.type(member.email);
  await page.page.keyboard.press('Tab');
  expect(await focused(page.page)).toBe('input:password');
  await page.page.keyboard.type(member.password);
  await page.page.keyboard.press('Enter');

  const info = await page.waitForEvent('Service.member.info');
  expect((info.detail as { memberInfo: MemberInfo }).memberInfo).toMatchObject({ email: member.email, name: 'Hedy Lamarr' });
  await dialog.waitFor({ state: 'detached', timeout: 5_000 });
  expect(await hostCount(page.page)).toBe(0);
  expect(await page.page.evaluate(() => window.Service.getMemberInfo().isLoggedIn)).toBe(true);
  expect(modalRequests).toHaveLength(1);
});

browserTest('svcopen=/member/sign_up: a new member registers through the form (registration, then member.info)', async () => {
  const context = await suite.newContext();
  const { page, modalRequests } = await openWithSvcopen(context, '/member/sign_up');
  const dialog = page.page.getByRole('dialog', { name: 'Create an account' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  // The shop site has no custom fields: names, e-mail, password.
  const names = await page.page.evaluate(() =>
    [...document.querySelector('[data-svc-modal]')!.shadowRoot!.querySelectorAll('input, select, textarea')].map((c) => c.getAttribute('name')),
  );
  expect(names).toEqual(['firstName', 'lastName', 'email', 'password']);

  const email = uniqueEmail('modal');
  expect(await focused(page.page)).toBe('input:firstName');
  await page.page.keyboard.type('Radia');
  await page.page.keyboard.press('Tab');
  await page.page.keyboard.type('Perlman');
  await page.page.keyboard.press('Tab');
  await page.page.keyboard.type(email);
  await page.page.getByLabel('Password').fill('spanning-tree-protocol');
  await page.page.getByLabel('Password').press('Enter');

  const info = await page.waitForEvent('Service.member.info');
  expect((info.detail as { memberInfo: MemberInfo }).memberInfo).toMatchObject({ email, firstName: 'Radia', lastName: 'Perlman' });
  const types = await page.eventTypes();
  expect(types.slice(types.indexOf('Service.member.registration'))).toEqual(['Service.member.registration', 'Service.member.info']);
  await dialog.waitFor({ state: 'detached', timeout: 5_000 });
  expect(modalRequests).toHaveLength(1);

  // The member exists on the service: they can log in with that password.
  const session = await fetch(`${suite.service.url}/member/v1/sites/shop/sessions`, {
    method: 'POST',
    headers: { origin: suite.origin(HOST_A), 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'spanning-tree-protocol' }),
  });
  expect(session.status).toBe(201);
});

browserTest('a wrong password shows the words next to the form; Escape closes the dialog and focus is back on the page', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  // The page has a focused control of its own before the dialog opens.
  await context.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const button = document.createElement('button');
      button.id = 'page-button';
      button.textContent = 'Page';
      document.body.append(button);
      button.focus();
    });
  });
  const { page } = await openWithSvcopen(context, '/member/sign_in');
  const dialog = page.page.getByRole('dialog', { name: 'Log in' });
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });

  await page.page.getByLabel('E-mail').fill(member.email);
  await page.page.getByLabel('Password').fill('not the password');
  await page.page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect.poll(() => dialog.getByRole('alert').textContent(), { timeout: 5_000 }).toBe('The e-mail or the password is wrong.');
  expect(await page.count('Service.member.info')).toBe(0);

  await page.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 5_000 });
  expect(await hostCount(page.page)).toBe(0);
  expect(await focused(page.page)).toBe('page-button');
  expect(await page.page.evaluate(() => window.Service.getMemberInfo())).toEqual({ isLoggedIn: false });
});

browserTest('svcopen=/member/sign_out logs a logged-in member out without fetching the modal bundle', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A));
  const context = await suite.newContext();
  const first = await suite.open(context, HOST_A);
  await first.page.evaluate(({ email, password }) => window.Service.login({ email, password }), member);
  await first.page.close();

  const { page, modalRequests } = await openWithSvcopen(context, '/member/sign_out');
  await page.waitForEvent('Service.member.logout');
  // Logged in at start (from the cookie), then logged out by svcopen.
  expect(await page.eventTypes()).toEqual(['Service.ready', 'Service.member.info', 'Service.member.logout']);
  expect(await page.page.evaluate(() => window.Service.getMemberInfo())).toEqual({ isLoggedIn: false });
  expect(new URL(page.page.url()).search).toBe('');
  await page.page.waitForTimeout(200);
  expect(modalRequests).toEqual([]);
  expect(await hostCount(page.page)).toBe(0);
});

browserTest('the screens come in groups: logging in downloads its group, the account its own and its words, once, on first open', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST_A), { firstName: 'Ada', lastName: 'Byron' });
  const context = await suite.newContext();
  const raw = await context.newPage();
  const scripts: string[] = [];
  raw.on('request', (request) => {
    const name = /\/scripts\/(widgets-modal[^/?]*\.js)$/.exec(request.url())?.[1];
    if (name) scripts.push(name);
  });
  const page = new WidgetPage(raw);
  await raw.goto(`${suite.pages.url(HOST_A)}?svcopen=${encodeURIComponent('/member/sign_in')}`);
  await page.waitForEvent('Service.ready');
  await raw.getByRole('dialog', { name: 'Log in' }).waitFor({ state: 'visible', timeout: 5_000 });
  const chunk = (name: string) => /^widgets-modal-[a-z-]+-[\w-]{8}\.js$/.test(name);
  const inGroup = (group: string) => (name: string) => name.startsWith(`widgets-modal-${group}-`);
  // The base, then logging in's group (and what it shares with others): no other group.
  expect(scripts[0]).toBe('widgets-modal.js');
  const signIn = scripts.slice(1);
  expect(signIn.every(chunk), signIn.join(', ')).toBe(true);
  expect(signIn.some(inGroup('sign-in')), signIn.join(', ')).toBe(true);
  expect(signIn.filter((name) => ['account', 'join', 'content', 'links'].some((group) => inGroup(group)(name)))).toEqual([]);

  await raw.getByLabel('E-mail', { exact: true }).fill(member.email);
  await raw.getByLabel('Password', { exact: true }).fill(member.password);
  await raw.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForEvent('Service.member.info');
  await raw.evaluate(() => window.Service.open('/member/account'));
  await raw.getByRole('dialog', { name: 'Your account' }).waitFor({ state: 'visible', timeout: 5_000 });
  // The account's group and its words (the dialog is titled with one of them).
  const account = scripts.slice(1 + signIn.length);
  expect(account.some(inGroup('account')), account.join(', ')).toBe(true);
  expect(account.some(inGroup('en-account-words')), account.join(', ')).toBe(true);
  expect(account.some(inGroup('join'))).toBe(false);

  // Another of the account's screens: its own chunk, not the account's words again; then the two
  // screens again: nothing more to download.
  const before = scripts.length;
  await raw.evaluate(() => window.Service.open('/member/invoices'));
  await raw.getByRole('dialog', { name: 'Invoices' }).waitFor({ state: 'visible', timeout: 5_000 });
  expect(scripts.slice(before).filter((name) => !name.startsWith('widgets-modal-invoices-'))).toEqual([]);
  const after = scripts.length;
  await raw.evaluate(() => window.Service.open('/member/account'));
  await raw.getByRole('dialog', { name: 'Your account' }).waitFor({ state: 'visible', timeout: 5_000 });
  await raw.evaluate(() => window.Service.open('/member/invoices'));
  await raw.getByRole('dialog', { name: 'Invoices' }).waitFor({ state: 'visible', timeout: 5_000 });
  expect(scripts.length).toBe(after);
  expect(page.log.filter((line) => line.startsWith('pageerror:') || line.startsWith('console.error:'))).toEqual([]);
});
