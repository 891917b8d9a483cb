/**
 * Rules every Admin API endpoint shares: authentication (401), the site's plan (403), scopes
 * (404), the rate limit (429), read-only methods (405), the error body, paging and cursors,
 * unknown parameters, date-time parameters.
 */
import type { Hono } from 'hono';
import { expect, test } from 'vitest';
import { SCOPES } from '../../src/contract/admin';
import { forEachStore, readSiteData, SECOND, storeFingerprint, useAdminFixture, fixtureClock, type AdminFixture } from '../support/admin-fixture';
import {
  BASE,
  call,
  expectError,
  expectErrorBody,
  expectInvalidParameters,
  expectJson,
  ids,
  LIST_ENDPOINTS,
  ROUTES,
  walkPages,
} from './helpers';
import { adminRequest, type AdminResponse } from '../support/admin-request';

const UNKNOWN_KEY = `svc_admin_${'A'.repeat(43)}`;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The 401 of spec 5.1: accessDenied, the error body, and a Bearer challenge. */
function expectAccessDenied(res: AdminResponse): void {
  expectError(res, 401, 'accessDenied');
  expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
}

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  /** A plan id of the demo site, for /plans/{id}. */
  const planId = async (fx: AdminFixture) => (await readSiteData(fx.store, fx.demo.id)).plans[0]!.id;
  const routePaths = async (fx: AdminFixture) => {
    const id = await planId(fx);
    return ROUTES.map((r) => ({ ...r, url: r.path(id) }));
  };

  // -------------------------------------------------------------------------------- 401

  test('every route answers 401 accessDenied with a Bearer challenge when the key is missing', async () => {
    const fx = fixture();
    for (const route of await routePaths(fx)) expectAccessDenied(await call(fx.app, route.url));
  });

  test('every route answers 401 to a malformed Authorization header', async () => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    const malformed = [
      '', 'Bearer', 'Bearer ', `Basic ${Buffer.from(`user:${key}`).toString('base64')}`, key, `Token ${key}`,
      `Bearer ${key} extra`, `Bearer: ${key}`, `Bearer ${key.slice(0, -1)}`, `Bearer ${key}x`, `Bearer ${key.slice('svc_admin_'.length)}`,
      `Bearer "${key}"`, `Bearer ${key.toUpperCase()}`,
    ];
    for (const route of await routePaths(fx)) {
      for (const authorization of malformed) {
        expectAccessDenied(await call(fx.app, route.url, { headers: { authorization } }));
      }
    }
  });

  test('every route answers 401 to an unknown, a revoked and an expired key', async () => {
    const fx = fixture();
    for (const route of await routePaths(fx)) {
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
    const { hashApiKey } = await import('../../src/service/auth/api-keys');
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

  // -------------------------------------------------------------------------------- 403

  test('every route answers 403 when the site\'s plan no longer includes the Admin API', async () => {
    const fx = fixture();
    for (const route of await routePaths(fx)) expectError(await call(fx.app, route.url, { key: fx.keys.closed }), 403);
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
    for (const route of (await routePaths(fx)).filter((r) => r.scope)) {
      const lacking = [fx.keys.demo.none, fx.keys.demo.allBut[route.scope!], ...SCOPES.filter((s) => s !== route.scope).map((s) => fx.keys.demo.only[s])];
      for (const key of lacking) expectError(await call(fx.app, route.url, { key }), 404, 'notFound');
      const ok = await call(fx.app, route.url, { key: fx.keys.demo.only[route.scope!] });
      expect(ok.status, route.name).toBe(200);
      expectJson(ok);
    }
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
    const existing = await call(fx.app, `/plans/${await planId(fx)}`, { key });
    const missing = await call(fx.app, '/plans/987654', { key });
    expectError(existing, 404, 'notFound');
    expect(existing.body).toStrictEqual(missing.body);
  });

  test('an unknown path under the Admin API answers 404 notFound as JSON', async () => {
    const fx = fixture();
    for (const path of ['/nope', '/site', '/Plans', '/plans/1/members', '/contentLibrary', '/contentLibrary/views/1', '/members/1']) {
      expectError(await call(fx.app, path, { key: fx.keys.demo.all }), 404, 'notFound');
    }
    const outside = await adminRequest(fx.app, '/admin/v2/sites', { key: fx.keys.demo.all });
    expectError(outside, 404);
  });

  // -------------------------------------------------------------------------------- 429

  test('over the rate limit a key gets 429 rateLimited with an integer Retry-After, and is let in again after it', async () => {
    const fx = fixture();
    const clock = fixtureClock(fx.clock());
    const app = await fx.makeApp({ rateLimit: { limit: 3, windowMs: 60 * SECOND }, clock });
    const key = fx.keys.demo.all;
    for (let i = 0; i < 3; i++) expect((await call(app, '/sites', { key })).status).toBe(200);
    const limited = await call(app, '/sites', { key });
    expectError(limited, 429, 'rateLimited');
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    const seconds = Number(retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    // Still limited a second before Retry-After runs out, let in once it has.
    clock.advance((seconds - 1) * SECOND);
    expectError(await call(app, '/sites', { key }), 429, 'rateLimited');
    clock.advance(SECOND);
    expect((await call(app, '/sites', { key })).status).toBe(200);
    // A whole window later the full allowance is back.
    clock.advance(60 * SECOND);
    for (let i = 0; i < 3; i++) expect((await call(app, '/sites', { key })).status).toBe(200);
    expectError(await call(app, '/sites', { key }), 429, 'rateLimited');
  });

  test('the rate limit is per key and counts requests to every endpoint', async () => {
    const fx = fixture();
    const app = await fx.makeApp({ rateLimit: { limit: 3, windowMs: 60 * SECOND }, clock: fixtureClock(fx.clock()) });
    const key = fx.keys.demo.all;
    for (const path of ['/plans', '/members', '/memberEvents']) expect((await call(app, path, { key })).status).toBe(200);
    for (const route of await routePaths(fx)) expectError(await call(app, route.url, { key }), 429, 'rateLimited');
    expect((await call(app, '/members', { key: fx.keys.demo.only['read.members'] })).status).toBe(200);
    expect((await call(app, '/sites', { key: fx.keys.other.all })).status).toBe(200);
  });

  test('429 comes after the key check and before the 403, the scope 404 and parameter 400s', async () => {
    const fx = fixture();
    const app = await fx.makeApp({ rateLimit: { limit: 1, windowMs: 60 * SECOND }, clock: fixtureClock(fx.clock()) });
    for (let i = 0; i < 3; i++) expectAccessDenied(await call(app, '/sites', { key: UNKNOWN_KEY }));
    expectError(await call(app, '/sites', { key: fx.keys.closed }), 403);
    expectError(await call(app, '/sites', { key: fx.keys.closed }), 429, 'rateLimited');
    expectError(await call(app, '/members', { key: fx.keys.demo.none }), 404, 'notFound');
    expectError(await call(app, '/members', { key: fx.keys.demo.none }), 429, 'rateLimited');
    const key = fx.keys.demo.only['read.members'];
    expectInvalidParameters(await call(app, '/members', { key, query: { status: 'x' } }), 'status');
    expectError(await call(app, '/members', { key, query: { status: 'x' } }), 429, 'rateLimited');
  });

  // -------------------------------------------------------------------------------- 405 and errors

  test('POST, PUT, PATCH and DELETE on every route answer 405 in the error body and change nothing', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    for (const route of await routePaths(fx)) {
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
    for (const route of await routePaths(fx)) {
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
    for (const route of await routePaths(fx)) {
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

  test('API keys are kept only as hashes: no stored row holds a key', async () => {
    const fx = fixture();
    const everything = await storeFingerprint(fx);
    const keys = [fx.keys.demo.all, fx.keys.other.all, fx.keys.closed, fx.keys.revoked, fx.keys.expired, ...Object.values(fx.keys.demo.only)];
    for (const key of keys) {
      expect(everything).not.toContain(key);
      expect(everything).not.toContain(key.slice('svc_admin_'.length));
    }
  });

  // -------------------------------------------------------------------------------- Paging

  test.each(LIST_ENDPOINTS)('$path answers 25 items by default, in id order, and says more follow', async (endpoint) => {
    const fx = fixture();
    const rows = endpoint.rows(await readSiteData(fx.store, fx.demo.id));
    const res = await call(fx.app, endpoint.path, { key: fx.keys.demo.all });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(ids(rows).slice(0, 25));
    expect(res.headers.get('x-has-more-items-after')).toBe(rows.length > 25 ? 'true' : 'false');
    expect(res.headers.has('x-next-cursor')).toBe(rows.length > 25);
  });

  test.each(LIST_ENDPOINTS)('$path honours X-Items-After 1 and 100', async (endpoint) => {
    const fx = fixture();
    const rows = endpoint.rows(await readSiteData(fx.store, fx.demo.id));
    const one = await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-items-after': '1' } });
    expect(ids(one.body)).toEqual(ids(rows).slice(0, 1));
    expect(one.headers.get('x-has-more-items-after')).toBe(String(rows.length > 1));
    const hundred = await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-items-after': '100' } });
    expect(ids(hundred.body)).toEqual(ids(rows).slice(0, 100));
    expect(hundred.headers.get('x-has-more-items-after')).toBe(String(rows.length > 100));
  });

  test.each(LIST_ENDPOINTS)('$path answers 400 naming X-Items-After outside 1-100 or not an integer', async (endpoint) => {
    const fx = fixture();
    for (const size of ['0', '101', 'abc', '-1', '1.5', '1e2', '', '0x10', '25 items', '99999999999']) {
      const res = await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-items-after': size } });
      expectError(res, 400, 'invalidParameter', 'X-Items-After');
    }
  });

  test.each(LIST_ENDPOINTS)('walking $path visits every item exactly once, in id order, at any page size', async (endpoint) => {
    const fx = fixture();
    const rows = endpoint.rows(await readSiteData(fx.store, fx.demo.id));
    for (const pageSize of [1, 7, 25, 100]) {
      const walk = await walkPages(fx.app, endpoint.path, { key: fx.keys.demo.all, pageSize });
      expect(ids(walk.items), `page size ${pageSize}`).toEqual(ids(rows));
      expect(walk.pages).toHaveLength(Math.max(1, Math.ceil(rows.length / pageSize)));
    }
    const defaultWalk = await walkPages(fx.app, endpoint.path, { key: fx.keys.demo.all });
    expect(ids(defaultWalk.items)).toEqual(ids(rows));
  });

  test.each(LIST_ENDPOINTS)('$path says exactly whether more items follow, at a page size equal to the count', async (endpoint) => {
    const fx = fixture();
    const rows = endpoint.rows(await readSiteData(fx.store, fx.other.id));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.length).toBeLessThanOrEqual(100);
    const key = fx.keys.other.all;
    const exact = await call(fx.app, endpoint.path, { key, headers: { 'x-items-after': String(rows.length) } });
    expect(ids(exact.body)).toEqual(ids(rows));
    expect(exact.headers.get('x-has-more-items-after')).toBe('false');
    expect(exact.headers.has('x-next-cursor')).toBe(false);
    const short = await call(fx.app, endpoint.path, { key, headers: { 'x-items-after': String(rows.length - 1) } });
    expect(short.headers.get('x-has-more-items-after')).toBe('true');
    const last = await call(fx.app, endpoint.path, { key, headers: { 'x-cursor': short.headers.get('x-next-cursor')! } });
    expect(ids(last.body)).toEqual(ids(rows).slice(-1));
    expect(last.headers.get('x-has-more-items-after')).toBe('false');
    expect(last.headers.has('x-next-cursor')).toBe(false);
  });

  test.each(LIST_ENDPOINTS)('$path with no items answers [] with no more items and no cursor', async (endpoint) => {
    const fx = fixture();
    const res = await call(fx.app, endpoint.path, { key: fx.keys.empty.all });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-has-more-items-after')).toBe('false');
    expect(res.headers.has('x-next-cursor')).toBe(false);
  });

  test('the page size may change between pages of one walk', async () => {
    const fx = fixture();
    const rows = (await readSiteData(fx.store, fx.demo.id)).members;
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; ; i++) {
      const res: AdminResponse<Array<{ id: number }>> = await call(fx.app, '/members', {
        key: fx.keys.demo.all,
        headers: { 'x-items-after': String([3, 50, 11][i % 3]), ...(cursor && { 'x-cursor': cursor }) },
      });
      seen.push(...ids(res.body));
      cursor = res.headers.get('x-next-cursor');
      if (!cursor) break;
    }
    expect(seen).toEqual(ids(rows));
  });

  test('a cursor can be used again, and by another app over the same store', async () => {
    const fx = fixture();
    const first = await call(fx.app, '/memberships', { key: fx.keys.demo.all, headers: { 'x-items-after': '10' } });
    const cursor = first.headers.get('x-next-cursor')!;
    const a = await call(fx.app, '/memberships', { key: fx.keys.demo.all, headers: { 'x-cursor': cursor, 'x-items-after': '10' } });
    const b = await call(fx.app, '/memberships', { key: fx.keys.demo.all, headers: { 'x-cursor': cursor, 'x-items-after': '10' } });
    const restarted = await call(await fx.makeApp(), '/memberships', { key: fx.keys.demo.only['read.memberships'], headers: { 'x-cursor': cursor, 'x-items-after': '10' } });
    expect(a.status).toBe(200);
    expect(b.body).toStrictEqual(a.body);
    expect(restarted.body).toStrictEqual(a.body);
  });

  // -------------------------------------------------------------------------------- Cursors

  /** A real cursor: the X-Next-Cursor of the first page of `path`. */
  async function cursorOf(app: Hono, path: string, key: string, query: Record<string, string> = {}): Promise<string> {
    const res = await call(app, path, { key, query, headers: { 'x-items-after': '1' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cursor = res.headers.get('x-next-cursor');
    expect(cursor).toEqual(expect.any(String));
    return cursor!;
  }

  test.each(LIST_ENDPOINTS)('$path answers 400 invalidCursor to garbage cursors', async (endpoint) => {
    const fx = fixture();
    const garbage = ['garbage', '', ' ', '0', '1', '-1', 'abc.def', `1.${'A'.repeat(22)}`, `zz.${'_'.repeat(22)}`, 'x'.repeat(5000), 'null', 'undefined', '{"id":1}', 'eyJpZCI6MX0', '%00', '1.'];
    for (const cursor of garbage) {
      expectError(await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-cursor': cursor } }), 400, 'invalidCursor');
    }
  });

  test.each(LIST_ENDPOINTS)('$path answers 400 invalidCursor to an edited cursor', async (endpoint) => {
    const fx = fixture();
    const cursor = await cursorOf(fx.app, endpoint.path, fx.keys.demo.all);
    const [id, mac] = cursor.split('.') as [string, string];
    // Changes the top bit of the base64url digit at i: a bit of the MAC itself, in every position.
    const flip = (s: string, i: number) => s.slice(0, i) + B64[B64.indexOf(s[i]!) ^ 32] + s.slice(i + 1);
    const edited = [
      `${(parseInt(id, 36) + 1).toString(36)}.${mac}`,
      `${(parseInt(id, 36) + 10).toString(36)}.${mac}`,
      `0.${mac}`,
      `${id}.${flip(mac, 0)}`,
      `${id}.${flip(mac, 10)}`,
      `${id}.${flip(mac, mac.length - 1)}`,
      `${id}.${mac.slice(0, -1)}`,
      `${id}.${mac}A`,
      `${id}${mac}`,
      cursor.toUpperCase(),
      ` ${cursor}x`,
      `${cursor}.${mac}`,
      Buffer.from(cursor).toString('base64url'),
    ].filter((c) => c !== cursor);
    for (const bad of edited) {
      expectError(await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-cursor': bad } }), 400, 'invalidCursor');
    }
    expect((await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-cursor': cursor } })).status).toBe(200);
  });

  test.each(LIST_ENDPOINTS)('$path answers 400 invalidCursor to a cursor respelled in the unused bits of its last character', async (endpoint) => {
    const fx = fixture();
    const cursor = await cursorOf(fx.app, endpoint.path, fx.keys.demo.all);
    const [id, mac] = cursor.split('.') as [string, string];
    // 16 MAC bytes are 128 bits: the 22nd base64url digit carries 2 of them and 4 unused bits.
    const last = B64.indexOf(mac.at(-1)!);
    const respelled = [1, 2, 4, 8, 15].map((bits) => `${id}.${mac.slice(0, -1)}${B64[last ^ bits]}`);
    for (const bad of respelled) {
      expectError(await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-cursor': bad } }), 400, 'invalidCursor');
    }
  });

  test('a cursor from one endpoint answers 400 invalidCursor on every other endpoint', async () => {
    const fx = fixture();
    for (const from of LIST_ENDPOINTS) {
      const cursor = await cursorOf(fx.app, from.path, fx.keys.demo.all);
      for (const to of LIST_ENDPOINTS.filter((e) => e !== from)) {
        expectError(await call(fx.app, to.path, { key: fx.keys.demo.all, headers: { 'x-cursor': cursor } }), 400, 'invalidCursor');
      }
    }
  });

  test('a cursor from one filter set answers 400 invalidCursor with another', async () => {
    const fx = fixture();
    const data = await readSiteData(fx.store, fx.demo.id);
    const key = fx.keys.demo.all;
    const member = data.memberships[0]!.memberId;
    const viewer = data.views.find((v) => data.views.filter((w) => w.memberId === v.memberId).length > 2)!.memberId;
    const cases: Array<[path: string, issued: Record<string, string>, replayed: Array<Record<string, string>>]> = [
      ['/plans', {}, [{ type: 'subscription' }, { status: 'enabled' }]],
      ['/plans', { type: 'subscription' }, [{}, { type: 'free' }, { type: 'subscription', status: 'enabled' }]],
      ['/members', { status: 'approved' }, [{}, { status: 'pending' }, { status: 'approved', createdAfter: '2020-01-01T00:00:00Z' }]],
      ['/members', {}, [{ firstName: 'Ada' }, { createdBefore: '2030-01-01T00:00:00Z' }]],
      ['/memberships', { planId: String(data.plans[0]!.id) }, [{}, { planId: String(data.plans[1]!.id) }, { memberId: String(member) }]],
      ['/memberships', { status: 'active' }, [{ status: 'expired' }, { status: 'active', expiresAfter: '2020-01-01T00:00:00Z' }]],
      ['/memberships', {}, [{ billingPeriodEndAfter: '2020-01-01T00:00:00Z' }, { expiresBefore: '2100-01-01T00:00:00Z' }]],
      ['/memberEvents', {}, [{ memberId: String(member) }, { createdAfter: '2000-01-01T00:00:00Z' }]],
      ['/memberEvents', { createdAfter: '2000-01-01T00:00:00Z' }, [{ createdAfter: '2000-01-01T00:00:00.001Z' }, {}]],
      ['/contentLibrary/views', {}, [{ nodeId: String(data.nodes[0]!.id) }, { viewedBefore: '2100-01-01T00:00:00Z' }]],
      ['/contentLibrary/views', { memberId: String(viewer) }, [{}, { memberId: String(viewer), viewedAfter: '2000-01-01T00:00:00Z' }]],
    ];
    for (const [path, issued, replays] of cases) {
      const cursor = await cursorOf(fx.app, path, key, issued);
      expect((await call(fx.app, path, { key, query: issued, headers: { 'x-cursor': cursor } })).status).toBe(200);
      for (const query of replays) {
        expectError(await call(fx.app, path, { key, query, headers: { 'x-cursor': cursor } }), 400, 'invalidCursor');
      }
    }
  });

  test.each(LIST_ENDPOINTS)('$path answers 400 invalidCursor to a cursor issued to another site', async (endpoint) => {
    const fx = fixture();
    const cursor = await cursorOf(fx.app, endpoint.path, fx.keys.other.all);
    expectError(await call(fx.app, endpoint.path, { key: fx.keys.demo.all, headers: { 'x-cursor': cursor } }), 400, 'invalidCursor');
    const back = await cursorOf(fx.app, endpoint.path, fx.keys.demo.all);
    expectError(await call(fx.app, endpoint.path, { key: fx.keys.other.all, headers: { 'x-cursor': back } }), 400, 'invalidCursor');
  });

  // -------------------------------------------------------------------------------- Query parameters

  test.each(LIST_ENDPOINTS)('$path ignores unknown query parameters, also when following a cursor', async (endpoint) => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    const unknown = { foo: 'bar', limit: '1', page: '3', sort: 'desc', STATUS: 'bogus', MemberId: 'x', 'status[]': 'x', '': 'y' };
    const plain = await call(fx.app, endpoint.path, { key, headers: { 'x-items-after': '5' } });
    const odd = await call(fx.app, endpoint.path, { key, query: unknown, headers: { 'x-items-after': '5' } });
    expect(odd.status).toBe(200);
    expect(odd.body).toStrictEqual(plain.body);
    const cursor = plain.headers.get('x-next-cursor');
    if (cursor) {
      const next = await call(fx.app, endpoint.path, { key, query: unknown, headers: { 'x-items-after': '5', 'x-cursor': cursor } });
      expect(next.status).toBe(200);
      const plainNext = await call(fx.app, endpoint.path, { key, headers: { 'x-items-after': '5', 'x-cursor': cursor } });
      expect(next.body).toStrictEqual(plainNext.body);
    }
  });

  test('date-time parameters accept every valid RFC 3339 instant, the leap day of year 0000 included', async () => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    // Year 0000 is a leap year in the proleptic Gregorian calendar RFC 3339 uses.
    for (const value of ['0000-02-29T00:00:00Z', '0000-02-29', '0004-02-29T00:00:00Z']) {
      const res = await call(fx.app, '/members', { key, query: { createdBefore: value } });
      expect(res.status, `${value}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body).toEqual([]);
    }
  });

  test('date-time parameters accept any number of second-fraction digits (RFC 3339 time-secfrac = "." 1*DIGIT)', async () => {
    const fx = fixture();
    const all = ids((await walkPages(fx.app, '/members', { key: fx.keys.demo.all, pageSize: 100 })).items);
    for (const value of ['2000-01-01T00:00:00.5Z', '2000-01-01T00:00:00.123456789Z', '2000-01-01T00:00:00.1234567890Z']) {
      const walk = await walkPages(fx.app, '/members', { key: fx.keys.demo.all, pageSize: 100, query: { createdAfter: value } });
      expect(ids(walk.items), value).toEqual(all);
    }
  });

  test('After stays inclusive and Before exclusive when a date-time carries digits below the millisecond', async () => {
    const fx = fixture();
    const data = await readSiteData(fx.store, fx.demo.id);
    const key = fx.keys.demo.all;
    for (const t of [data.members[0]!.createdAt, data.members[40]!.createdAt]) {
      // t + 0.1 ms and t + 0.999 ms: after every row at t, before every row at t + 1 ms.
      for (const later of [new Date(t).toISOString().replace('Z', '1Z'), new Date(t).toISOString().replace('Z', '999Z')]) {
        const after = await walkPages(fx.app, '/members', { key, pageSize: 100, query: { createdAfter: later } });
        expect(ids(after.items), `createdAfter=${later}`).toEqual(ids(data.members.filter((m) => m.createdAt > t)));
        const before = await walkPages(fx.app, '/members', { key, pageSize: 100, query: { createdBefore: later } });
        expect(ids(before.items), `createdBefore=${later}`).toEqual(ids(data.members.filter((m) => m.createdAt <= t)));
      }
    }
  });

  test('each path named in a 400 is the parameter\'s own name, query parameters and X-Items-After alike', async () => {
    const fx = fixture();
    const res = await call(fx.app, '/memberships', { key: fx.keys.demo.all, headers: { 'x-items-after': '500' } });
    expectInvalidParameters(res, 'X-Items-After');
    const q = await call(fx.app, '/contentLibrary/views', { key: fx.keys.demo.all, query: { nodeId: 'n' } });
    expectInvalidParameters(q, 'nodeId');
  });

  test('GET requests never change the store', async () => {
    const fx = fixture();
    const before = await storeFingerprint(fx);
    for (const route of await routePaths(fx)) await call(fx.app, route.url, { key: fx.keys.demo.all });
    await walkPages(fx.app, '/memberEvents', { key: fx.keys.demo.all, pageSize: 100 });
    expect(await storeFingerprint(fx)).toBe(before);
  });

  test('the base path is /admin/v1', async () => {
    const fx = fixture();
    const res = await adminRequest(fx.app, `${BASE}/sites`, { key: fx.keys.demo.all });
    expect(res.status).toBe(200);
  });
});
