/** The fixture's sites as the suites read them: through their every-scope keys, and from the store. */
import type { SiteRecord } from '../../../src/service/store/records';
import { readSiteData, type AdminFixture, type SiteData } from '../../support/admin-fixture';

/** The open sites of the fixture; `empty` has no rows at all. */
export type SiteName = 'demo' | 'other' | 'empty';

export interface SiteAndKey {
  name: SiteName;
  site: SiteRecord;
  /** A key with every scope. */
  key: string;
}

export function siteAndKey(fx: AdminFixture, name: SiteName): SiteAndKey {
  return { name, site: fx[name], key: fx.keys[name].all };
}

/** Demo and other: the two sites with data of their own. */
export function sitesWithData(fx: AdminFixture): SiteAndKey[] {
  return [siteAndKey(fx, 'demo'), siteAndKey(fx, 'other')];
}

export function demoData(fx: AdminFixture): Promise<SiteData> {
  return readSiteData(fx.store, fx.demo.id);
}

/** Spelled like a key, issued to no site. */
export const UNKNOWN_KEY = `svc_admin_${'A'.repeat(43)}`;
