/**
 * The HTTP surface every route shares: read-only methods (405) that change nothing, HEAD, no
 * CORS, the base path and its unknown paths, and one error body for every kind of error.
 */
import { expect, test } from 'vitest';
import { fixtureClock, forEachStore, SECOND, storeFingerprint, useAdminFixture } from '../support/admin-fixture';
import { adminRequest } from '../support/admin-request';
import { BASE, call, expectError, expectErrorBody, expectJson, routeUrls, walkPages } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('POST, PUT, PATCH and DELETE on every route answer 405 in the error body and change nothing', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    for (const route of await routeUrls(fx)) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await call(fx.app, route.url, { key: fx.keys.demo.all, method });
        expectError(res, 405, 'methodNotAllowed');
        expect(res.headers.get('allow') ?? '').toMatch(/\bGET\b/);
      }
    }
    expect(await storeFingerprint(fx)).toBe(before);
  });

  test('every kind of error answers application/json with the {errors:[{path,code,message}]} body', async () => {
    const fx = fixture();
    const rateApp = await fx.makeApp({ rateLimit: { limit: 1, windowMs: 60 * SECOND }, clock: fixtureClock(fx.clock()) });
    await call(rateApp, '/sites', { key: fx.keys.demo.all });
    const responses = [
      await call(fx.app, '/members', { key: fx.keys.demo.all, query: { status: 'x' } }),
      await call(fx.app, '/members', { key: fx.keys.demo.all, headers: { 'x-cursor': 'x' } }),
      await call(fx.app, '/members'),
      await call(fx.app, '/members', { key: fx.keys.closed }),
      await call(fx.app, '/members', { key: fx.keys.demo.none }),
      await call(fx.app, '/members', { key: fx.keys.demo.all, method: 'POST' }),
      await call(rateApp, '/sites', { key: fx.keys.demo.all }),
    ];
    expect(responses.map((r) => r.status)).toEqual([400, 400, 401, 403, 404, 405, 429]);
    for (const res of responses) expectErrorBody(res);
  });

  test('an error not tied to one parameter has path base', async () => {
    const fx = fixture();
    for (const res of [
      await call(fx.app, '/members'),
      await call(fx.app, '/members', { key: fx.keys.closed }),
      await call(fx.app, '/members', { key: fx.keys.demo.none }),
    ]) {
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['base']);
    }
  });

  test('HEAD answers what GET answers, status and headers, without a body', async () => {
    const fx = fixture();
    for (const route of await routeUrls(fx)) {
      for (const key of [fx.keys.demo.all, fx.keys.demo.none, undefined]) {
        const get = await call(fx.app, route.url, { ...(key && { key }), headers: { 'x-items-after': '2' } });
        const head = await call(fx.app, route.url, { ...(key && { key }), headers: { 'x-items-after': '2' }, method: 'HEAD' });
        expect(head.status, route.name).toBe(get.status);
        expect(head.body).toBeUndefined();
        expectJson(head);
        for (const name of ['x-has-more-items-after', 'x-total-count', 'www-authenticate']) {
          expect(head.headers.get(name), `${route.name} ${name}`).toBe(get.headers.get(name));
        }
        expect(head.headers.has('x-next-cursor')).toBe(get.headers.has('x-next-cursor'));
      }
    }
  });

  test('the Admin API sends no CORS headers, not even to a preflight', async () => {
    const fx = fixture();
    const origin = { origin: 'https://demo.localhost' };
    for (const route of await routeUrls(fx)) {
      const get = await call(fx.app, route.url, { key: fx.keys.demo.all, headers: origin });
      const preflight = await call(fx.app, route.url, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.status).toBeGreaterThanOrEqual(400);
      for (const res of [get, preflight]) {
        for (const [name] of res.headers) expect(name.startsWith('access-control-'), `${route.name}: ${name}`).toBe(false);
      }
    }
  });

  test('an unknown path under the Admin API answers 404 notFound as JSON', async () => {
    const fx = fixture();
    for (const path of ['/nope', '/site', '/Plans', '/plans/1/members', '/contentLibrary', '/contentLibrary/views/1', '/members/1']) {
      expectError(await call(fx.app, path, { key: fx.keys.demo.all }), 404, 'notFound');
    }
    const outside = await adminRequest(fx.app, '/admin/v2/sites', { key: fx.keys.demo.all });
    expectError(outside, 404);
  });

  test('GET requests never change the store', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    for (const route of await routeUrls(fx)) await call(fx.app, route.url, { key: fx.keys.demo.all });
    await walkPages(fx.app, '/memberEvents', { key: fx.keys.demo.all, pageSize: 100 });
    expect(await storeFingerprint(fx)).toBe(before);
  });

  test('the base path is /admin/v1', async () => {
    const fx = fixture();
    const res = await adminRequest(fx.app, `${BASE}/sites`, { key: fx.keys.demo.all });
    expect(res.status).toBe(200);
  });
});
