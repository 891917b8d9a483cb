/** The check each list endpoint's first test makes: the list is the store's rows, as the spec shapes them. */
import { expect } from 'vitest';
import { readSiteData, type AdminFixture, type SiteData } from '../../support/admin-fixture';
import { expectNoNulls } from './assertions';
import { sameInstants } from './date-times';
import { walkPages } from './requests';
import { expectShape, type FieldType } from './shapes';
import { siteAndKey, type SiteName } from './sites';

export interface StoredRowsListing {
  /** The sites to walk the list as, each with its every-scope key. */
  sites: SiteName[];
  shape: Record<string, FieldType>;
  /** Names an item in failure messages: "view", "member". */
  label: string;
  /** The bodies the site's rows should answer, in id order. */
  expected: (data: SiteData) => unknown[];
  /** Further checks of one item, after its shape. */
  check?: (item: any) => void;
}

/**
 * Walks `path` as each site and expects every item to have the shape (no nulls anywhere) and
 * the whole list to be exactly the expected bodies of the site's rows, date-times as instants.
 */
export async function expectListsStoredRows(fx: AdminFixture, path: string, listing: StoredRowsListing): Promise<void> {
  for (const { site, key } of listing.sites.map((name) => siteAndKey(fx, name))) {
    const data = await readSiteData(fx.store, site.id);
    const walk = await walkPages<any>(fx.app, path, { key, pageSize: 100 });
    for (const item of walk.items) {
      expectShape(item, listing.shape, `${listing.label} ${item.id}`);
      listing.check?.(item);
    }
    expectNoNulls(walk.items);
    expect(sameInstants(walk.items)).toStrictEqual(sameInstants(listing.expected(data)));
  }
}
