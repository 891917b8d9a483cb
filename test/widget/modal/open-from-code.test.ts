// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * The screens open from code (`Service.open(path)`) and from the page's own links to
 * `?svcopen=…` on the same page, without a reload (issue 5: "The same screens open from code and
 * from links inside the member menu").
 */
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { messagesFor } from '../../../src/widget/modal/locales';
import { ADA, recordEvents, settle } from '../support';
import { catchNavigation } from './plan-support';
import { hosts, silenceWarnings, startAt, waitForScreen } from './support';

test('Service.open opens the screen of a path, logged in or not, in one dialog at a time', async () => {
  const h = await startAt('/');
  await h.service.open('/member/sign_in');
  await waitForScreen('Log in');
  await h.service.login(ADA);
  await h.service.open('/member/memberships');
  const m = await waitForScreen('Your memberships');
  expect(hosts()).toHaveLength(1);
  expect(m.dialog.textContent).toContain('Monthly');
  expect(location.href).toBe('https://www.demo.localhost/'); // no svcopen written, no reload
});

test('Service.open("/member/sign_out") logs out, with no dialog', async () => {
  const h = await startAt('/', { member: ADA });
  const events = recordEvents();
  await h.service.open('/member/sign_out');
  expect(events.names()).toEqual(['Service.member.logout']);
  expect(hosts()).toHaveLength(0);
});

test.each([['/member/nowhere'], [''], [42], [null]])('Service.open(%j) rejects with unknownScreen and opens nothing', async (path) => {
  silenceWarnings();
  const h = await startAt('/');
  const error = await h.service.open(path as string).catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'ServiceError', code: 'unknownScreen' });
  await settle();
  expect(hosts()).toHaveLength(0);
});

test('offline: Service.open rejects with networkError, and a dialog says the service could not be reached', async () => {
  silenceWarnings();
  const h = await startAt('/', { member: ADA });
  // The site's settings cannot be fetched any more (the network is gone).
  h.mock.server.use(http.get(`${h.mock.origin}/member/v1/sites/demo/config`, () => HttpResponse.error()));
  const error = await h.service.open('/member/invoices').catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'ServiceError', code: 'networkError' });
  expect(hosts()).toHaveLength(1);
  const dialog = hosts()[0]!.shadowRoot!;
  expect(dialog.querySelector('h2')!.textContent).toBe('Something went wrong');
  expect(dialog.querySelector('[role="alert"]')!.textContent).toBe(messagesFor('en').errors.networkError);
});

test('a click on a link to this page with ?svcopen= opens the screen without leaving the page', async () => {
  const navigation = catchNavigation();
  await startAt('/shop/?item=3', {
    beforeStart: () => document.body.insertAdjacentHTML('beforeend', '<a id="login" href="?svcopen=%2Fmember%2Fsign_in">Log in</a>'),
  });
  const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
  document.getElementById('login')!.dispatchEvent(click);
  expect(click.defaultPrevented).toBe(true);
  await waitForScreen('Log in');
  expect(navigation.urls).toEqual([]);
  expect(location.pathname + location.search).toBe('/shop/?item=3');
});

test.each([
  ['another page', '<a id="l" href="/other/?svcopen=/member/sign_in">x</a>', {}],
  ['another site', '<a id="l" href="https://elsewhere.example/?svcopen=/member/sign_in">x</a>', {}],
  ['a new tab (target)', '<a id="l" target="_blank" href="?svcopen=/member/sign_in">x</a>', {}],
  ['a new tab (ctrl-click)', '<a id="l" href="?svcopen=/member/sign_in">x</a>', { ctrlKey: true }],
  ['no svcopen', '<a id="l" href="?page=2">x</a>', {}],
])('a click on a link to %s is left to the browser', async (_what, html, modifiers) => {
  await startAt('/', { beforeStart: () => document.body.insertAdjacentHTML('beforeend', html) });
  const link = document.getElementById('l')!;
  // The browser's own navigation is not what is tested: stop it after the widget has had its turn.
  let seen: boolean | undefined;
  document.addEventListener('click', (e) => {
    seen = e.defaultPrevented;
    e.preventDefault();
  }, { once: true });
  link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...modifiers }));
  expect(seen).toBe(false);
  await settle();
  expect(hosts()).toHaveLength(0);
});
