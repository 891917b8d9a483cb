/** The store's whole content as one string, so a test can show that nothing changed it. */
import { hashApiKey } from '../../../src/service/auth/api-keys';
import type { Store } from '../../../src/service/store/store';
import { everyFixtureKey, type FixtureKeys } from './keys';
import { readSiteData } from './site-data';

/** Every site, every row, every fixture key's record, the metrics and the cursor secret. */
export async function storeFingerprint({ store, keys }: { store: Store; keys: FixtureKeys }): Promise<string> {
  const sites = await store.listSites();
  const data = [];
  for (const site of sites) data.push(await readSiteData(store, site.id));
  const keyRecords = [];
  for (const key of everyFixtureKey(keys)) keyRecords.push(await store.findApiKeyByHash(hashApiKey(key)));
  const metrics = [];
  for (const site of sites) metrics.push(await store.siteMetrics(site.id));
  const secret = await store.secret('admin-cursor', () => 'created by the fingerprint');
  return JSON.stringify({ sites, data, keyRecords, metrics, secret });
}
