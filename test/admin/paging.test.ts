/**
 * Paging every list endpoint shares: 25 items by default, X-Items-After from 1 to 100, and
 * X-Has-More-Items-After / X-Next-Cursor that say exactly whether more follow.
 */
import { expect, test } from 'vitest';
import { forEachStore, readSiteData, useAdminFixture } from '../support/admin-fixture';
import type { AdminResponse } from '../support/admin-request';
import { call, expectError, ids, LIST_ENDPOINTS, walkPages } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

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
});
