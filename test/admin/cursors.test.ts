/**
 * Cursors (see docs/decisions/0004-cursors.md): reusable, and refused with 400 invalidCursor
 * when garbage, edited, respelled, or carried to another endpoint, filter set or site.
 */
import { expect, test } from 'vitest';
import { forEachStore, readSiteData, useAdminFixture } from '../support/admin-fixture';
import { BASE64URL, call, cursorOf, expectError, LIST_ENDPOINTS } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

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
    const flip = (s: string, i: number) => s.slice(0, i) + BASE64URL[BASE64URL.indexOf(s[i]!) ^ 32] + s.slice(i + 1);
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
    const last = BASE64URL.indexOf(mac.at(-1)!);
    const respelled = [1, 2, 4, 8, 15].map((bits) => `${id}.${mac.slice(0, -1)}${BASE64URL[last ^ bits]}`);
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
});
