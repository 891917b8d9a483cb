/**
 * Headers every Admin API answer carries, whatever it says: member data is never stored by a
 * browser or a proxy (`Cache-Control: no-store`), never sniffed as another type, and never
 * rendered as a page (a JSON answer opened in a tab runs nothing and cannot be framed).
 */
import { expect, test } from 'vitest';
import { fixtureClock, forEachStore, SECOND, useAdminFixture } from '../support/admin-fixture';
import { adminRequest, type AdminResponse } from '../support/admin-request';
import { BASE, call, routeUrls, UNKNOWN_KEY } from './helpers';

const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

function expectHardened(res: AdminResponse, what: string): void {
  expect(res.headers.get('cache-control'), what).toBe('no-store');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('content-security-policy'), what).toBe(JSON_CSP);
  expect(res.headers.get('content-type'), what).toBe('application/json');
}

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('200 on every route, HEAD too, and the OpenAPI description: no-store, nosniff, a locked-down CSP', async () => {
    const fx = fixture();
    for (const route of await routeUrls(fx)) {
      const res = await call(fx.app, route.url, { key: fx.keys.demo.all });
      expect(res.status, route.name).toBe(200);
      expectHardened(res, route.name);
      const head = await call(fx.app, route.url, { key: fx.keys.demo.all, method: 'HEAD' });
      expect(head.headers.get('cache-control'), `HEAD ${route.name}`).toBe('no-store');
      expect(head.headers.get('x-content-type-options'), `HEAD ${route.name}`).toBe('nosniff');
    }
    expectHardened(await adminRequest(fx.app, `${BASE}/openapi.json`), 'openapi.json');
  });

  test('every error the Admin API answers carries them too: 400, 401, 403, 404, 405, 413, 415 and 429', async () => {
    const fx = fixture();
    const rateApp = await fx.makeApp({ rateLimit: { limit: 1, windowMs: 60 * SECOND }, clock: fixtureClock(fx.clock()) });
    await call(rateApp, '/sites', { key: fx.keys.demo.all });
    const answers: Array<[number, AdminResponse]> = [
      [400, await call(fx.app, '/members', { key: fx.keys.demo.all, query: { status: 'x' } })],
      [400, await call(fx.app, '/members', { key: fx.keys.demo.all, headers: { 'x-cursor': 'x' } })],
      [401, await call(fx.app, '/members')],
      [401, await call(fx.app, '/members', { key: UNKNOWN_KEY })],
      [401, await call(fx.app, '/nope')],
      [403, await call(fx.app, '/members', { key: fx.keys.closed })],
      [404, await call(fx.app, '/members', { key: fx.keys.demo.none })],
      [404, await call(fx.app, '/plans/999999', { key: fx.keys.demo.all })],
      [404, await call(fx.app, '/nope', { key: fx.keys.demo.all })],
      [404, await call(fx.app, '/sites/', { key: fx.keys.demo.all })],
      [405, await call(fx.app, '/members', { key: fx.keys.demo.all, method: 'POST' })],
      [405, await call(fx.app, '/members/1/block', { key: fx.keys.demo.all })],
      // An owner action's body: not what it takes, too large, not JSON.
      [400, await call(fx.app, '/memberships', { key: fx.keys.demo.all, body: { memberId: 'x' } })],
      [413, await call(fx.app, '/memberships', { key: fx.keys.demo.all, body: { pad: 'x'.repeat(5000) } })],
      [415, await call(fx.app, '/memberships', { key: fx.keys.demo.all, method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } })],
      [429, await call(rateApp, '/sites', { key: fx.keys.demo.all })],
      [429, await call(rateApp, '/nope', { key: fx.keys.demo.all })],
    ];
    for (const [status, res] of answers) {
      expect(res.status).toBe(status);
      expectHardened(res, `${status} ${JSON.stringify(res.body)}`);
    }
  });
});
