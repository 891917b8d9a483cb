/**
 * Authentication (spec 5.1): every route wants a live Bearer key, checks it before anything
 * else, and answers 401 accessDenied with a challenge otherwise. Keys are stored only hashed.
 */
import { expect, test } from 'vitest';
import { SCOPES } from '../../src/contract/admin';
import { hashApiKey } from '../../src/service/auth/api-keys';
import { fixtureClock, forEachStore, SECOND, storeFingerprint, useAdminFixture } from '../support/admin-fixture';
import { actionRequests, call, expectAccessDenied, LIST_ENDPOINTS, routeUrls, UNKNOWN_KEY } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('every route answers 401 accessDenied with a Bearer challenge when the key is missing', async () => {
    const fx = fixture();
    for (const route of await routeUrls(fx)) expectAccessDenied(await call(fx.app, route.url));
  });

  test('every owner action answers 401 to a missing, malformed, unknown, revoked or expired key, and nothing is done', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    const key = fx.keys.demo.all;
    const authorizations = [undefined, '', `Basic ${key}`, key, `Bearer ${key}x`, `Bearer ${UNKNOWN_KEY}`, `Bearer ${fx.keys.revoked}`, `Bearer ${fx.keys.expired}`];
    for (const action of await actionRequests(fx)) {
      for (const authorization of authorizations) {
        const res = await call(fx.app, action.url, { method: action.method, body: action.body, headers: authorization === undefined ? {} : { authorization } });
        expectAccessDenied(res);
      }
    }
    expect(await storeFingerprint(fx)).toBe(before);
  });

  test('every route answers 401 to a malformed Authorization header', async () => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    const malformed = [
      '', 'Bearer', 'Bearer ', `Basic ${Buffer.from(`user:${key}`).toString('base64')}`, key, `Token ${key}`,
      `Bearer ${key} extra`, `Bearer: ${key}`, `Bearer ${key.slice(0, -1)}`, `Bearer ${key}x`, `Bearer ${key.slice('svc_admin_'.length)}`,
      `Bearer "${key}"`, `Bearer ${key.toUpperCase()}`,
    ];
    for (const route of await routeUrls(fx)) {
      for (const authorization of malformed) {
        expectAccessDenied(await call(fx.app, route.url, { headers: { authorization } }));
      }
    }
  });

  test('every route answers 401 to an unknown, a revoked and an expired key', async () => {
    const fx = fixture();
    for (const route of await routeUrls(fx)) {
      for (const key of [UNKNOWN_KEY, 'svc_admin_short', fx.keys.revoked, fx.keys.expired]) {
        expectAccessDenied(await call(fx.app, route.url, { key }));
      }
    }
  });

  test('a key stops working the moment it expires', async () => {
    const fx = fixture();
    const clock = fixtureClock(fx.clock());
    const key = await fx.issueKey(fx.demo.id, [...SCOPES], 60 * SECOND);
    const app = await fx.makeApp({ clock });
    expect((await call(app, '/members', { key })).status).toBe(200);
    clock.advance(60 * SECOND - 1);
    expect((await call(app, '/members', { key })).status).toBe(200);
    clock.advance(1);
    expectAccessDenied(await call(app, '/members', { key }));
    expectAccessDenied(await call(app, '/sites', { key }));
  });

  test('a revoked key answers 401 from the next request on', async () => {
    const fx = fixture();
    const key = await fx.issueKey(fx.demo.id, [...SCOPES]);
    expect((await call(fx.app, '/sites', { key })).status).toBe(200);
    await fx.store.revokeApiKey(hashApiKey(key), fx.clock());
    expectAccessDenied(await call(fx.app, '/sites', { key }));
  });

  test('the key check comes first: a bad key with bad parameters, cursor or page size is still a 401', async () => {
    const fx = fixture();
    for (const endpoint of LIST_ENDPOINTS) {
      for (const key of [undefined, UNKNOWN_KEY, fx.keys.expired]) {
        const res = await call(fx.app, endpoint.path, {
          ...(key !== undefined && { key }),
          query: { memberId: 'x', status: 'nope', createdAfter: 'never' },
          headers: { 'x-cursor': 'garbage', 'x-items-after': '0' },
        });
        expectAccessDenied(res);
      }
    }
  });

  test('API keys are kept only as hashes: no stored row holds a key', async () => {
    const fx = fixture();
    const everything = await storeFingerprint(fx);
    const keys = [fx.keys.demo.all, fx.keys.other.all, fx.keys.closed, fx.keys.revoked, fx.keys.expired, ...Object.values(fx.keys.demo.only)];
    for (const key of keys) {
      expect(everything).not.toContain(key);
      expect(everything).not.toContain(key.slice('svc_admin_'.length));
    }
  });
});
