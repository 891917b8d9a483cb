/** GET /sites (spec 2.1): the key's own site, with metrics counted from its memberships. */
import { expect, test } from 'vitest';
import { SCOPES } from '../../src/contract/admin';
import { forEachStore, readSiteData, useAdminFixture } from '../support/admin-fixture';
import {
  call,
  expectJson,
  expectNoNulls,
  expectShape,
  expectedSite,
  sameInstants,
  siteAndKey,
  SITE_SHAPE,
} from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('GET /sites answers a bare array holding the key\'s own site with every field of 2.1', async () => {
    const fx = fixture();
    const res = await call(fx.app, '/sites', { key: fx.keys.demo.all });
    expect(res.status).toBe(200);
    expectJson(res);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(1);
    expectShape(res.body[0], SITE_SHAPE);
    expectNoNulls(res.body);
    const data = await readSiteData(fx.store, fx.demo.id);
    expect(sameInstants(res.body[0])).toStrictEqual(sameInstants(expectedSite(fx.demo, data)));
  });

  test('GET /sites carries X-Total-Count equal to the number of sites it lists', async () => {
    const fx = fixture();
    const res = await call(fx.app, '/sites', { key: fx.keys.demo.all });
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(Number(res.headers.get('x-total-count'))).toBe(res.body.length);
  });

  test('the site uses a lowercase ISO 4217 currency and a two-letter locale', async () => {
    const fx = fixture();
    for (const key of [fx.keys.demo.all, fx.keys.other.all, fx.keys.empty.all]) {
      const [site] = (await call(fx.app, '/sites', { key })).body;
      expect(site.defaultCurrency).toMatch(/^[a-z]{3}$/);
      expect(site.locale).toMatch(/^[a-z]{2}$/);
    }
  });

  test('site metrics equal the active, free and paid members counted from the store', async () => {
    const fx = fixture();
    for (const { site, key } of (['demo', 'other', 'empty'] as const).map((name) => siteAndKey(fx, name))) {
      const data = await readSiteData(fx.store, site.id);
      const [wire] = (await call(fx.app, '/sites', { key })).body;
      expect(wire.id).toBe(site.id);
      expect(wire.metrics).toStrictEqual(expectedSite(site, data).metrics);
    }
  });

  test('the demo site\'s metrics are non-trivial: some members free, some paid, some both', async () => {
    const fx = fixture();
    const [wire] = (await call(fx.app, '/sites', { key: fx.keys.demo.all })).body;
    const { activeMemberCount, freeMemberCount, paidMemberCount } = wire.metrics;
    expect(freeMemberCount).toBeGreaterThan(0);
    expect(paidMemberCount).toBeGreaterThan(0);
    expect(activeMemberCount).toBeLessThanOrEqual(freeMemberCount + paidMemberCount);
    expect(activeMemberCount).toBeGreaterThanOrEqual(Math.max(freeMemberCount, paidMemberCount));
  });

  test('a site without members reports zero in every metric', async () => {
    const fx = fixture();
    const [wire] = (await call(fx.app, '/sites', { key: fx.keys.empty.all })).body;
    expect(wire.metrics).toStrictEqual({ activeMemberCount: 0, freeMemberCount: 0, paidMemberCount: 0 });
  });

  test('GET /sites needs no scope: a key with any single scope, or none, reads its site', async () => {
    const fx = fixture();
    for (const key of [fx.keys.demo.none, ...SCOPES.map((s) => fx.keys.demo.only[s])]) {
      const res = await call(fx.app, '/sites', { key });
      expect(res.status).toBe(200);
      expect(res.body.map((s: { id: number }) => s.id)).toEqual([fx.demo.id]);
    }
  });

  test('GET /sites ignores paging headers and unknown query parameters', async () => {
    const fx = fixture();
    const plain = await call(fx.app, '/sites', { key: fx.keys.demo.all });
    const odd = await call(fx.app, '/sites', { key: fx.keys.demo.all, query: { foo: 'bar', limit: 5 } });
    expect(odd.status).toBe(200);
    expect(odd.body).toStrictEqual(plain.body);
  });
});
