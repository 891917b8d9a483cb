/**
 * Issue 26: a "path on the site" (a plan's welcomeUrl and contentUrl, afterRegistration, a
 * library item's url) is resolved first, dot segments, backslashes and their percent-encoded
 * forms included, and only then checked: the result must stay on the site and start with a
 * single '/'. `/..//evil.example/x` resolved to `//evil.example/x`, another host, and was stored.
 * A path that passes is stored as resolved (`/a/../b` is `/b`), as the browser would read it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { defineContentSpace, ContentInputError } from '../../src/service/domain/content';
import { siteAddress } from '../../src/service/domain/validation';
import { readSiteFile, SiteFileError, type SiteFileProblem } from '../../src/service/site-file/read';
import type { Store } from '../../src/service/store/store';
import { forEachStore, type StoreFactory } from '../support/admin-fixture';

/** Each resolves (as a browser resolves it against the page) to another host, or is one already. */
const OFF_SITE = [
  '/..//evil.example/x',
  '/../..//evil.example/x',
  '/.//evil.example',
  '/x/..//..//evil.example/',
  '/%2e%2e//evil.example/x',
  '/%2E%2E//evil.example/x',
  '/.%2e//evil.example/x',
  '/%2e//evil.example/x',
  '/..\\/evil.example/x',
  '/..\\\\evil.example/x',
  '/.\\\\evil.example',
  '//evil.example/x',
  '/\\evil.example/x',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/..\t//evil.example',
];

/** Paths on the site, and what is stored for each: the path as resolved. */
const ON_SITE: Array<[given: string, stored: string]> = [
  ['/welcome', '/welcome'],
  ['/a/../b', '/b'],
  ['/a/./b?x=1#top', '/a/b?x=1#top'],
  ['/..', '/'],
  ['/../welcome', '/welcome'],
  ['/files/report%20final.pdf', '/files/report%20final.pdf'],
  // Encoded slashes are no separators: still a path on this host.
  ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ['/..%2f/evil.example', '/..%2f/evil.example'],
];

describe('siteAddress, the one check for addresses a member is sent to', () => {
  test.each(OFF_SITE)('%j is refused: it resolves off the site', (path) => {
    expect(siteAddress(path)).toBeUndefined();
  });

  test.each(ON_SITE)('%j passes, stored as %j', (given, stored) => {
    expect(siteAddress(given)).toBe(stored);
  });

  test('http(s) addresses still pass, normalized; a control character in one does not', () => {
    expect(siteAddress('https://Example.com/a/../b')).toBe('https://example.com/b');
    expect(siteAddress('http://example.com')).toBe('http://example.com/');
    for (const bad of ['https://exa\tmple.com/', 'https://example.com/\u0000', 'https://example.com/\n', 'javascript:alert(1)', 'data:text/html,x', 'relative/path']) {
      expect(siteAddress(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

const SITE = { subdomain: 'paths', name: 'Paths' };

function problemsOf(file: Record<string, unknown>): SiteFileProblem[] {
  try {
    readSiteFile(JSON.stringify(file), 'json', 'paths.json');
    return [];
  } catch (error) {
    if (!(error instanceof SiteFileError)) throw error;
    return error.problems;
  }
}

describe('the site file', () => {
  test.each(OFF_SITE)('%j is refused as welcomeUrl, contentUrl, afterRegistration and a library url, naming each', (path) => {
    const problems = problemsOf({
      site: { ...SITE, afterRegistration: path },
      plans: [{ key: 'free', name: 'Free', type: 'free', welcomeUrl: path, contentUrl: path }],
      library: [{ space: 'Files', plans: ['free'], items: [{ key: 'f', name: 'F', type: 'file', url: path }] }],
    });
    expect([...new Set(problems.map((p) => p.path))].sort()).toEqual(
      ['library[0].items[0].url', 'plans[0].contentUrl', 'plans[0].welcomeUrl', 'site.afterRegistration'].sort(),
    );
  });

  test.each(ON_SITE)('%j passes and is read as %j', (given, stored) => {
    const { file } = readSiteFile(
      JSON.stringify({
        site: { ...SITE, afterRegistration: given },
        plans: [{ key: 'free', name: 'Free', type: 'free', welcomeUrl: given, contentUrl: given }],
        library: [{ space: 'Files', plans: ['free'], items: [{ key: 'f', name: 'F', type: 'file', url: given }] }],
      }),
      'json',
      'paths.json',
    );
    expect(file.site.afterRegistration).toBe(stored);
    expect(file.plans[0]).toMatchObject({ welcomeUrl: stored, contentUrl: stored });
    expect(file.library[0]!.items[0]).toMatchObject({ url: stored });
  });
});

forEachStore((_name: string, newStore: StoreFactory) => {
  const open: Store[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  test('defineContentSpace refuses a url that resolves off the site and stores nothing; stores an ordinary path resolved', async () => {
    const store = await newStore();
    open.push(store);
    const site = await store.createSite({ name: 'Paths', subdomain: 'paths', domain: 'paths.example', defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true, createdAt: 0 });
    for (const url of OFF_SITE) {
      await expect(defineContentSpace(store, site.id, { name: 'Files', planIds: [], items: [{ name: 'F', type: 'file', url }] })).rejects.toBeInstanceOf(ContentInputError);
    }
    expect(await store.listContentNodes(site.id)).toEqual([]);
    const [id] = await defineContentSpace(store, site.id, { name: 'Files', planIds: [], items: [{ name: 'F', type: 'file', url: '/docs/../files/a.pdf' }] });
    expect((await store.listContentNodes(site.id)).map((n) => [n.id, n.url])).toEqual([[id, '/files/a.pdf']]);
  });
});
