/**
 * The HTTP surface every route shares: the methods each path takes (the reads GET, the owner's
 * actions their own; any other answers 405 and changes nothing), HEAD, no CORS, the base path and
 * its unknown paths, and one error body for every kind of error.
 */
import { expect, test } from 'vitest';
import { fixtureClock, forEachStore, SECOND, storeFingerprint, useAdminFixture } from '../support/admin-fixture';
import { adminRequest } from '../support/admin-request';
import { actionRequests, allowedMethods, BASE, call, expectAccessDenied, expectError, expectErrorBody, expectJson, routeUrls, walkPages } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('every method a path does not take answers 405 in the error body, Allow naming those it takes, and changes nothing', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    // /memberships once: it lists (a read) and gives a plan (an action).
    const paths = [
      ...new Map(
        [...(await routeUrls(fx)).map((r) => ({ template: r.name, url: r.url })), ...(await actionRequests(fx)).map((a) => ({ template: a.template, url: a.url }))].map(
          (p) => [p.url, p],
        ),
      ).values(),
    ];
    let refused = 0;
    for (const { template, url } of paths) {
      const allow = allowedMethods(template);
      // POST, PUT, PATCH and DELETE on a read; GET and the rest on an action a POST makes; POST /memberships gives a plan.
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !allow.split(', ').includes(m))) {
        const res = await call(fx.app, url, { key: fx.keys.demo.all, method });
        expectError(res, 405, 'methodNotAllowed');
        expect(res.headers.get('allow'), `${method} ${template}`).toBe(allow);
        refused++;
      }
    }
    // Every read but /memberships refuses four methods, every action four, /memberships three.
    expect(refused).toBe((paths.length - 1) * 4 + 3);
    expect(allowedMethods('/members')).toBe('GET, HEAD');
    expect(allowedMethods('/memberships')).toBe('GET, POST, HEAD');
    expect(allowedMethods('/members/{id}/block')).toBe('POST');
    expect(allowedMethods('/members/{id}/export')).toBe('GET, HEAD');
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
    // The owner's actions neither: a page elsewhere gets no leave to send one (and without a key it is a 401).
    for (const action of await actionRequests(fx)) {
      const unkeyed = await call(fx.app, action.url, { method: action.method, headers: origin, body: action.body });
      expectAccessDenied(unkeyed);
      const preflight = await call(fx.app, action.url, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': action.method, 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(preflight.status, action.name).toBeGreaterThanOrEqual(400);
      for (const res of [unkeyed, preflight]) {
        for (const [name] of res.headers) expect(name.startsWith('access-control-'), `${action.name}: ${name}`).toBe(false);
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

  // The reads' GETs: an export (GET /members/{id}/export) is an owner action, recorded as a member event.
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
