/**
 * Property-based check of the list filters: random valid filter combinations, at random page
 * sizes, as demo or as other, answer exactly what filter-cases.ts computes from the store's rows.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { forEachStore, readSiteData, useAdminFixture, type SiteData } from '../../support/admin-fixture';
import { ids, iso, walkPages } from '../helpers';
import { filterCases } from './filter-cases';
import { expectUnchanged, RUNS } from './harness';

/** Date-time parameters are drawn as epoch milliseconds and sent as RFC 3339. */
const DATE_PARAM = /(After|Before)$/;

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('random valid filter combinations answer exactly the rows an independent computation selects', async () => {
    const fx = fixture();
    const sites: Array<[string, SiteData]> = [
      [fx.keys.demo.all, await readSiteData(fx.store, fx.demo.id)],
      [fx.keys.other.all, await readSiteData(fx.store, fx.other.id)],
    ];
    const cases = filterCases(sites.map(([, d]) => d));
    let nonEmpty = 0;
    await expectUnchanged(fx, () =>
      fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: cases.length - 1 }).chain((i) => fc.tuple(fc.constant(i), cases[i]!.filters)),
          fc.constantFrom(0, 1),
          fc.integer({ min: 15, max: 100 }),
          async ([i, filters], site, pageSize) => {
            const c = cases[i]!;
            const [key, data] = sites[site]!;
            const query = Object.fromEntries(
              Object.entries(filters)
                .filter(([, v]) => v !== null)
                .map(([k, v]) => [k, DATE_PARAM.test(k) ? iso(v as number) : String(v)]),
            );
            const walk = await walkPages(fx.app, c.path, { key, query, pageSize });
            expect(ids(walk.items)).toEqual(ids(c.select(data, filters)));
            if (walk.items.length > 0) nonEmpty++;
          },
        ),
        { numRuns: RUNS },
      ),
    );
    // Not a property of empty answers only: a good share of the runs selected something.
    expect(nonEmpty).toBeGreaterThan(RUNS / 5);
  });
});
