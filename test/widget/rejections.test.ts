// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** Every widget promise rejects with an Error carrying `code` and `path`; none throws. */
import { waitFor } from '@testing-library/dom';
import { http, HttpResponse } from 'msw';
import { expect, test, vi } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/widget/api-client';
import type { ServiceApi } from '../../src/widget/public-types';
import { ADA, harness, recordEvents } from './support';

type AsyncName = Exclude<keyof ServiceApi, 'ready' | 'getMemberInfo'>;
const calls: Record<AsyncName, (api: ServiceApi) => Promise<unknown>> = {
  getMemberMetadata: (api) => api.getMemberMetadata(),
  updateMemberMetadata: (api) => api.updateMemberMetadata({ a: 1 }),
  clearMemberMetadata: (api) => api.clearMemberMetadata(),
  login: (api) => api.login(ADA),
  register: (api) => api.register({ email: 'x@demo.localhost', password: 'long enough password' }),
  logout: (api) => api.logout(),
  open: (api) => api.open('/member/account'),
};

test.each(Object.keys(calls) as AsyncName[])('%s before the widget is ready rejects with notReady', async (name) => {
  const h = await harness();
  const session = await h.signIn(ADA);
  localStorage.setItem('svc:demo:token', session.token); // no cache: ready waits for the service
  h.start();
  expect(h.service.ready).toBe(false);
  const error = await calls[name](h.service).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  expect(error).toMatchObject({ code: 'notReady', path: 'base' });
  await waitFor(() => expect(h.service.ready).toBe(true));
});

test('getMemberInfo before ready says logged out, and does not throw', async () => {
  const h = await harness();
  const session = await h.signIn(ADA);
  localStorage.setItem('svc:demo:token', session.token);
  h.start();
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  await waitFor(() => expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true }));
});

test.each(['getMemberMetadata', 'updateMemberMetadata', 'clearMemberMetadata'] as const)(
  '%s with nobody logged in rejects with notLoggedIn without asking the service',
  async (name) => {
    const h = await harness();
    h.start();
    await waitFor(() => expect(h.service.ready).toBe(true));
    await expect(calls[name](h.service)).rejects.toMatchObject({ code: 'notLoggedIn', path: 'base' });
    expect(h.requests('GET', '/me/metadata') + h.requests('PATCH', '/me/metadata') + h.requests('DELETE', '/me/metadata')).toBe(0);
  },
);

test('a service that cannot be reached gives networkError', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  h.failNetwork();
  const events = recordEvents();
  await expect(h.service.login(ADA)).rejects.toMatchObject({ code: 'networkError', path: 'base' });
  expect(events.names()).toEqual([]);
});

test('an answer that is not the member API’s JSON gives networkError, and does not log out', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  h.mock.server.use(
    http.get(`${h.base}/me/metadata`, () => new HttpResponse('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })),
    http.patch(`${h.base}/me/metadata`, () => HttpResponse.json(['not', 'an', 'object'])),
    http.delete(`${h.base}/me/metadata`, () => HttpResponse.json({ message: 'some proxy error' }, { status: 500 })),
  );
  const events = recordEvents();
  await expect(h.service.getMemberMetadata()).rejects.toMatchObject({ code: 'networkError' });
  await expect(h.service.updateMemberMetadata({ a: 1 })).rejects.toMatchObject({ code: 'networkError' });
  await expect(h.service.clearMemberMetadata()).rejects.toMatchObject({ code: 'networkError' });
  expect(events.names()).toEqual([]);
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true });
});

test('a wrong subdomain gets the service’s notFound', async () => {
  const h = await harness();
  h.start({ subdomain: 'no-such-site' });
  await waitFor(() => expect(h.service.ready).toBe(true));
  await expect(h.service.login(ADA)).rejects.toMatchObject({ code: 'notFound' });
});

test('requests carry the bearer token, JSON and no cookies', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  const seen: Request[] = [];
  h.mock.server.events.on('request:start', ({ request }) => {
    seen.push(request.clone());
  });
  await h.service.updateMemberMetadata({ a: 1 });
  const patch = seen.find((r) => r.method === 'PATCH')!;
  expect(patch.url).toBe(`${h.base}/me/metadata`);
  expect(patch.headers.get('authorization')).toBe(`Bearer ${localStorage.getItem('svc:demo:token')}`);
  expect(patch.headers.get('content-type')).toBe('application/json');
  expect(patch.credentials).toBe('omit');
  expect(await patch.json()).toEqual({ a: 1 });
});

test('a service that never answers: the call rejects with networkError after the timeout, and ready comes anyway', async () => {
  // The mock service starts on real timers: its first start waits on a timer, which fake ones would hold forever.
  const h = await harness();
  const session = await h.signIn(ADA);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    h.mock.server.use(http.all(`${h.base}/*`, () => new Promise<never>(() => undefined)));
    localStorage.setItem('svc:demo:token', session.token); // no cache: ready waits for /me
    h.start();
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 100);
    expect(h.service.ready).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await waitFor(() => expect(h.service.ready).toBe(true));
    expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });

    const login = h.service.login(ADA).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 100);
    expect(await login).toMatchObject({ code: 'networkError', message: expect.stringContaining('in time') as string });
  } finally {
    vi.useRealTimers();
  }
});

test('a 400 naming several fields rejects with the first as code and path, and every one in errors', async () => {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const error = await h.service.register({ email: 'not an address', password: 'short' }).catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'ServiceError', code: 'invalidField', path: 'email' });
  const errors = (error as { errors: { path: string; code: string }[] }).errors;
  expect(errors.map((e) => e.path)).toEqual(expect.arrayContaining(['email', 'password']));
  expect(errors.every((e) => e.code === 'invalidField')).toBe(true);
  // One problem alone carries no list.
  const single = await h.service.login({ email: 'ada@demo.localhost', password: 'wrong password' }).catch((e: unknown) => e);
  expect(single).toMatchObject({ code: 'invalidCredentials' });
  expect(single).not.toHaveProperty('errors');
});

test('a page the site does not answer (CORS): the refusal is said in the console, naming the domain the site answers', async () => {
  const h = await harness();
  const message = "Pages on https://elsewhere.example may not call this site's member API: it answers pages on demo.localhost and its subdomains";
  h.mock.server.use(http.get(`${h.base}/config`, () => HttpResponse.json({ errors: [{ code: 'originNotAllowed', path: 'base', message }] }, { status: 403 })));
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await expect(h.service.open('/member/sign_in')).rejects.toBeInstanceOf(Error);
  expect(error.mock.calls.map((c) => c[0])).toContain(`[Service] ${message}`);
  error.mockRestore();
  warn.mockRestore();
});
