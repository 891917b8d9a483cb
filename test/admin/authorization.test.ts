/**
 * What a live key may reach: nothing while its site's plan leaves out the Admin API (403), and
 * only the routes its scopes name (404, so a missing scope looks like a missing route).
 */
import { expect, test } from 'vitest';
import { SCOPES } from '../../src/contract/admin';
import { forEachStore, storeFingerprint, useAdminFixture } from '../support/admin-fixture';
import { actionRequests, call, demoPlanId, expectAccessDenied, expectError, expectJson, LIST_ENDPOINTS, routeUrls } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  // -------------------------------------------------------------------------------- 403

  test('every route answers 403 when the site\'s plan no longer includes the Admin API', async () => {
    const fx = fixture();
    for (const route of await routeUrls(fx)) expectError(await call(fx.app, route.url, { key: fx.keys.closed }), 403);
  });

  test('every owner action answers 403 to the key of a site whose plan no longer includes the Admin API, before its body is read', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    for (const action of await actionRequests(fx)) {
      expectError(await call(fx.app, action.url, { key: fx.keys.closed, method: action.method, body: action.body }), 403, 'forbidden');
      if (action.method === 'POST') {
        expectError(await call(fx.app, action.url, { key: fx.keys.closed, method: 'POST', body: '{"not json', headers: { 'content-type': 'text/plain' } }), 403, 'forbidden');
      }
    }
    expect(await storeFingerprint(fx)).toBe(before);
  });

  test('the 403 comes before scope and parameter checks, but after the key check', async () => {
    const fx = fixture();
    const scopeless = await fx.issueKey(fx.closed.id, []);
    for (const endpoint of LIST_ENDPOINTS) {
      expectError(await call(fx.app, endpoint.path, { key: scopeless }), 403);
      expectError(await call(fx.app, endpoint.path, { key: fx.keys.closed, query: { memberId: 'x' }, headers: { 'x-cursor': 'bad' } }), 403);
    }
    const expired = await fx.issueKey(fx.closed.id, [...SCOPES], -1);
    expectAccessDenied(await call(fx.app, '/sites', { key: expired }));
  });

  test('switching a site\'s Admin API off refuses its keys with 403 at once; switching it on restores them', async () => {
    const fx = fixture();
    const key = fx.keys.empty.all;
    expect((await call(fx.app, '/plans', { key })).status).toBe(200);
    await fx.store.updateSite(fx.empty.id, { adminApiEnabled: false });
    try {
      expectError(await call(fx.app, '/plans', { key }), 403);
      expectError(await call(fx.app, '/sites', { key }), 403);
    } finally {
      await fx.store.updateSite(fx.empty.id, { adminApiEnabled: true });
    }
    expect((await call(fx.app, '/plans', { key })).status).toBe(200);
  });

  // -------------------------------------------------------------------------------- 404 (scopes)

  test('each scoped route answers 404 notFound to every key lacking its scope, and 200 to a key with only that scope', async () => {
    const fx = fixture();
    for (const route of (await routeUrls(fx)).filter((r) => r.scope)) {
      const lacking = [fx.keys.demo.none, fx.keys.demo.allBut[route.scope!], ...SCOPES.filter((s) => s !== route.scope).map((s) => fx.keys.demo.only[s])];
      for (const key of lacking) expectError(await call(fx.app, route.url, { key }), 404, 'notFound');
      const ok = await call(fx.app, route.url, { key: fx.keys.demo.only[route.scope!] });
      expect(ok.status, route.name).toBe(200);
      expectJson(ok);
    }
  });

  test('each owner action answers 404 notFound to every key lacking its write scope, before its body is read, and nothing is done', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    for (const action of await actionRequests(fx)) {
      const lacking = [fx.keys.demo.none, fx.keys.demo.allBut[action.scope], ...SCOPES.filter((s) => s !== action.scope).map((s) => fx.keys.demo.only[s])];
      for (const key of lacking) {
        expectError(await call(fx.app, action.url, { key, method: action.method, body: action.body }), 404, 'notFound');
        if (action.method === 'POST') expectError(await call(fx.app, action.url, { key, method: 'POST', body: { nope: true } }), 404, 'notFound');
      }
      // With only its scope the request gets past the check: to the body, which is refused, so nothing is done here either.
      if (action.method === 'POST') expectError(await call(fx.app, action.url, { key: fx.keys.demo.only[action.scope], method: 'POST', body: { nope: true } }), 400, 'invalidBody');
    }
    expect(await storeFingerprint(fx)).toBe(before);
    // The one action a GET makes, with only its scope: the member's export.
    const exported = (await actionRequests(fx)).find((a) => a.method === 'GET')!;
    const ok = await call(fx.app, exported.url, { key: fx.keys.demo.only[exported.scope] });
    expect(ok.status, exported.name).toBe(200);
    expectJson(ok);
  });

  test('a key lacking the scope learns nothing about parameters, cursors or page size: still 404', async () => {
    const fx = fixture();
    for (const endpoint of LIST_ENDPOINTS) {
      const res = await call(fx.app, endpoint.path, {
        key: fx.keys.demo.allBut[endpoint.scope],
        query: { memberId: 'x', planId: '-1', status: 'nope', createdAfter: 'never', type: 'gold' },
        headers: { 'x-cursor': 'garbage', 'x-items-after': '1000' },
      });
      expectError(res, 404, 'notFound');
    }
  });

  test('without read.plans, an existing plan and a missing one answer the same 404', async () => {
    const fx = fixture();
    const key = fx.keys.demo.allBut['read.plans'];
    const existing = await call(fx.app, `/plans/${await demoPlanId(fx)}`, { key });
    const missing = await call(fx.app, '/plans/987654', { key });
    expectError(existing, 404, 'notFound');
    expect(existing.body).toStrictEqual(missing.body);
  });
});
