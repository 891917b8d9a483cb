// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** cookieDomain (spec 1.2): the login lives in a cookie every subdomain reads. */
import { expect, test, vi } from 'vitest';
import { cookieTokenStore } from '../../src/widget/cookie-token-store';
import { COOKIE_POLL_MS } from '../../src/widget/watchers';
import { ADA, GRACE, harness, recordEvents } from './support';

const COOKIE = 'svc_demo_token';
/** happy-dom's control of the page: navigates without unloading the test. */
const { happyDOM } = window as unknown as { happyDOM: { setURL(url: string): void } };
const CONFIG = { cookieDomain: 'demo.localhost' };

function readCookie(): string | undefined {
  return document.cookie
    .split('; ')
    .find((pair) => pair.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
}

/** What the widget on another subdomain of demo.localhost does to the shared cookie. */
function setCookieElsewhere(token: string | null): void {
  document.cookie = token
    ? `${COOKIE}=${token}; Domain=demo.localhost; Path=/; Max-Age=3600; SameSite=Lax; Secure`
    : `${COOKIE}=; Domain=demo.localhost; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * Nobody logged in, so ready at once; setInterval is faked. vi.waitFor works with fake timers
 * (it advances them as it polls); testing-library's waitFor would never poll again.
 */
async function started() {
  const h = await harness();
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  h.start(CONFIG);
  expect(h.service.ready).toBe(true);
  return h;
}

test('login writes the token to a cookie on the cookie domain, not to localStorage', async () => {
  const h = await started();
  const writes = vi.spyOn(document, 'cookie', 'set');
  await h.service.login(ADA);
  expect(writes).toHaveBeenCalledTimes(1);
  expect(writes.mock.calls[0]![0]).toMatch(
    /^svc_demo_token=svc_session_[\w-]{43}; Domain=demo\.localhost; Path=\/; Max-Age=2592000; SameSite=Lax; Secure$/,
  );
  const token = readCookie()!;
  expect((await h.me(token)).member?.email).toBe(ADA.email);
  expect(localStorage.getItem('svc:demo:token')).toBeNull();
  expect(JSON.stringify({ ...localStorage })).not.toContain(token);
});

test('another subdomain of the domain sees the login', async () => {
  const h = await started();
  const member = await h.service.login(ADA);
  h.start(); // stop this page's widget before leaving it
  happyDOM.setURL('https://shop.demo.localhost/cart');
  try {
    localStorage.clear(); // another origin has its own storage
    expect(readCookie()).toBeDefined();
    const events = recordEvents();
    h.start(CONFIG);
    await vi.waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.info']));
    expect(events[0]!.detail).toEqual({ memberInfo: member });
  } finally {
    happyDOM.setURL('https://www.demo.localhost/');
  }
});

test('a cookie removed on another subdomain logs the member out here within the poll interval', async () => {
  const h = await started();
  await h.service.login(ADA);
  const events = recordEvents();
  setCookieElsewhere(null);
  vi.advanceTimersByTime(COOKIE_POLL_MS - 1);
  expect(events.names()).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(events.names()).toEqual(['Service.member.logout']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  expect(COOKIE_POLL_MS).toBeLessThanOrEqual(2_000);
});

test('a login on another subdomain shows up here as member.info', async () => {
  const h = await started();
  const session = await h.signIn(GRACE);
  const events = recordEvents();
  setCookieElsewhere(session.token);
  vi.advanceTimersByTime(COOKIE_POLL_MS);
  await vi.waitFor(() => expect(events.names()).toEqual(['Service.member.info']));
  expect(events[0]!.detail).toEqual({ memberInfo: session.memberInfo });
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: session.memberInfo });
});

test('another member logging in on another subdomain replaces the member here', async () => {
  const h = await started();
  await h.service.login(ADA);
  const grace = await h.signIn(GRACE);
  const events = recordEvents();
  setCookieElsewhere(grace.token);
  vi.advanceTimersByTime(COOKIE_POLL_MS);
  await vi.waitFor(() => expect(events.names()).toEqual(['Service.member.info']));
  expect(events[0]!.detail).toEqual({ memberInfo: grace.memberInfo });
});

test('at start, a cached member that belongs to an older cookie is not used', async () => {
  const h = await started();
  await h.service.login(ADA); // caches Ada in this origin's localStorage
  h.start(); // page closed
  const grace = await h.signIn(GRACE);
  setCookieElsewhere(grace.token);
  const events = recordEvents();
  h.start(CONFIG);
  await vi.waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.info']));
  expect(events[0]!.detail).toEqual({ memberInfo: grace.memberInfo });
});

test('logout removes the cookie', async () => {
  const h = await started();
  await h.service.login(ADA);
  await h.service.logout();
  expect(readCookie()).toBeUndefined();
});

test('stop() ends the cookie polling', async () => {
  const h = await started();
  await h.service.login(ADA);
  const events = recordEvents();
  h.start(); // restarts without cookieDomain; the cookie-mode widget is stopped
  const afterRestart = events.length;
  setCookieElsewhere(null);
  vi.advanceTimersByTime(COOKIE_POLL_MS * 3);
  expect(events.names().slice(afterRestart)).toEqual([]);
});

test('a browser that refuses the cookie keeps the login on this page, with one warning', async () => {
  const h = await started();
  vi.spyOn(document, 'cookie', 'set').mockImplementation(() => undefined);
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const events = recordEvents();
  const member = await h.service.login(ADA);
  vi.advanceTimersByTime(COOKIE_POLL_MS * 2);
  expect(events.names()).toEqual(['Service.member.info']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: member });
  await expect(h.service.getMemberMetadata()).resolves.toEqual({ theme: 'dark' });
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0]![0]).toMatch(/^\[Service\] the browser refused the login cookie/);
});

test('over http the cookie is not marked Secure', () => {
  const jar: string[] = [];
  const doc = { get cookie() { return jar.map((c) => c.split(';')[0]).join('; '); }, set cookie(value: string) { jar.push(value); } };
  const store = cookieTokenStore(doc as Document, 'svc_x_token', 'example.com', false);
  store._set('abc');
  expect(jar[0]).toBe('svc_x_token=abc; Domain=example.com; Path=/; Max-Age=2592000; SameSite=Lax');
  expect(store._get()).toBe('abc');
});
