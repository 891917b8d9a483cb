/**
 * Query parameters every list endpoint shares: unknown ones are ignored, date-times are read as
 * RFC 3339 allows, and a 400 names each bad parameter by its own name.
 */
import { expect, test } from 'vitest';
import { forEachStore, readSiteData, useAdminFixture } from '../support/admin-fixture';
import { call, expectInvalidParameters, ids, LIST_ENDPOINTS, walkPages } from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

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
});
