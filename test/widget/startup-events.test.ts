// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** When the widget sends its events at start-up (spec 6.1, 9), with and without a member. */
import { waitFor } from '@testing-library/dom';
import { expect, test, vi } from 'vitest';
import { ADA, GRACE, harness, joinCommunity, recordEvents, settle } from './support';

test('with nobody logged in: ready once with an empty detail, then logout, and never member.info', async () => {
  const h = await harness();
  const events = recordEvents();
  h.start();
  await waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']));
  expect(events[0]!.detail).toEqual({});
  expect(events[1]!.detail).toBeNull();
  expect(h.service.ready).toBe(true);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  await settle();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']);
  expect(h.requests('GET', '/me')).toBe(0);
});

test('ready is a read-only flag on the page’s own Service object, which keeps its configuration', async () => {
  const h = await harness();
  const page = { subdomain: 'demo', custom: 'kept' };
  window.Service = page as never;
  const { startWidget } = await import('../../src/widget/start-widget');
  const handle = startWidget({ window, apiOrigin: h.mock.origin });
  try {
    expect(window.Service).toBe(page);
    expect(page).toMatchObject({ subdomain: 'demo', custom: 'kept', ready: true });
    expect(() => {
      (page as unknown as { ready: boolean }).ready = false;
    }).toThrow(TypeError);
    expect(window.Service.ready).toBe(true);
  } finally {
    handle.stop();
  }
});

test('after a reload with a member: ready with memberInfo, member.info from the cache, no second info when nothing changed', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const member = await h.service.login(ADA);

  const events = recordEvents();
  const handle = h.start(); // the page is reloaded
  expect(events.names()).toEqual(['Service.ready', 'Service.member.info']);
  expect(events[0]!.detail).toEqual({ memberInfo: member });
  expect(events[1]!.detail).toEqual({ memberInfo: member });
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: member });

  await handle.refresh(); // joins the background check already under way
  expect(h.requests('GET', '/me')).toBe(1);
  await settle();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.info']);
});

test('member.info is sent again when the service’s answer differs from the cache', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const before = await h.service.login(GRACE);
  expect(before.memberships).toEqual([]);
  await joinCommunity(h.mock, 'grace'); // changed while the page was closed

  const events = recordEvents();
  h.start();
  await waitFor(() => expect(events.of('Service.member.info')).toHaveLength(2));
  const [cached, fresh] = events.of('Service.member.info') as { memberInfo: typeof before }[];
  expect(cached!.memberInfo.memberships).toEqual([]);
  expect(fresh!.memberInfo.memberships.map((m) => m.name)).toEqual(['Community']);
  expect(events.names()).toEqual(['Service.ready', 'Service.member.info', 'Service.member.info']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: fresh!.memberInfo });

  // The cache was updated: the next reload starts from the fresh data and sends one info.
  const next = recordEvents();
  const handle = h.start();
  expect(next.of('Service.member.info')).toEqual([{ memberInfo: fresh!.memberInfo }]);
  await handle.refresh();
  await settle();
  expect(next.of('Service.member.info')).toHaveLength(1);
});

test('a session revoked while the page was closed: info from the cache, then logout, and the login is forgotten', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  const token = localStorage.getItem('svc:demo:token')!;
  await h.revoke(token);

  const events = recordEvents();
  h.start();
  await waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.info', 'Service.member.logout']));
  expect(events[2]!.detail).toBeNull();
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  expect(localStorage.getItem('svc:demo:token')).toBeNull();
  expect(localStorage.getItem('svc:demo:member')).toBeNull();

  const afterReload = recordEvents();
  h.start();
  expect(afterReload.names()).toEqual(['Service.ready', 'Service.member.logout']);
});

test('a network failure at start keeps the cached member, warns, and does not log out', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const member = await h.service.login(ADA);
  h.failNetwork('me');
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

  const events = recordEvents();
  const handle = h.start();
  await handle.refresh();
  await settle();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.info']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: member });
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0]![0]).toMatch(/^\[Service\] /);
  expect(localStorage.getItem('svc:demo:token')).not.toBeNull();
});

test('a token without a cached member: the widget asks the service first, then becomes ready with the member', async () => {
  const h = await harness();
  const session = await h.signIn(ADA);
  localStorage.setItem('svc:demo:token', session.token);

  const events = recordEvents();
  h.start();
  expect(h.service.ready).toBe(false);
  expect(events.names()).toEqual([]);
  await waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.info']));
  expect(events[0]!.detail).toEqual({ memberInfo: session.memberInfo });
  expect(h.service.ready).toBe(true);
  expect(h.requests('GET', '/me')).toBe(1);
});

test('a stale token without a cached member: ready without a member, then logout', async () => {
  const h = await harness();
  const session = await h.signIn(ADA);
  await h.revoke(session.token);
  localStorage.setItem('svc:demo:token', session.token);

  const events = recordEvents();
  h.start();
  await waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']));
  expect(events[0]!.detail).toEqual({});
  expect(localStorage.getItem('svc:demo:token')).toBeNull();
});

test('a cached member stored for another token is not used', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  const grace = await h.signIn(GRACE);
  localStorage.setItem('svc:demo:token', grace.token); // Ada's cache stays behind

  const events = recordEvents();
  h.start();
  await waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.info']));
  expect(events[0]!.detail).toEqual({ memberInfo: grace.memberInfo });
});

test('stop() removes the API and no event is sent afterwards', async () => {
  const h = await harness();
  const session = await h.signIn(ADA);
  localStorage.setItem('svc:demo:token', session.token);
  const events = recordEvents();
  const handle = h.start();
  handle.stop();
  handle.stop();
  await settle();
  expect(events.names()).toEqual([]);
  expect('ready' in h.service).toBe(false);
  expect('getMemberInfo' in h.service).toBe(false);
});

test('a token without a cache and no service at start: ready logged out, the token kept; member.info once the service answers', async () => {
  const h = await harness();
  const session = await h.signIn(ADA);
  localStorage.setItem('svc:demo:token', session.token);
  h.failNetwork('me');
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const events = recordEvents();
  const handle = h.start();
  await waitFor(() => expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']));
  expect(warn).toHaveBeenCalledTimes(1);
  expect(localStorage.getItem('svc:demo:token')).toBe(session.token);

  h.mock.server.resetHandlers(); // the service is back
  await handle.refresh();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout', 'Service.member.info']);
  expect(events[2]!.detail).toEqual({ memberInfo: session.memberInfo });
});

test('a token without a cache and no service at start, later revoked: no second logout', async () => {
  const h = await harness();
  const session = await h.signIn(ADA);
  localStorage.setItem('svc:demo:token', session.token);
  h.failNetwork('me');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const events = recordEvents();
  const handle = h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));

  h.mock.server.resetHandlers();
  await h.revoke(session.token);
  await handle.refresh();
  await settle();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']);
  expect(localStorage.getItem('svc:demo:token')).toBeNull();
});
