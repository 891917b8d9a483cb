import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { hashApiKey } from '../../src/service/auth/api-keys';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { useTempDatabase } from './harness';

const { db, svc } = useTempDatabase('svc-cli-');

async function inStore<T>(read: (store: ReturnType<typeof openSqliteStore>) => Promise<T>): Promise<T> {
  const store = openSqliteStore(db());
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

test('sites create prints the new id and stores the site with its defaults', async () => {
  const result = await svc('sites', 'create', '--subdomain', 'acme', '--name', 'Acme', '--currency', 'EUR', '--locale', 'de');
  expect(result).toMatchObject({ code: 0, out: ['1'] });
  const site = await inStore((s) => s.getSite(1));
  expect(site).toMatchObject({ subdomain: 'acme', name: 'Acme', domain: 'acme.localhost', defaultCurrency: 'eur', locale: 'de', adminApiEnabled: true });
});

test('a taken subdomain exits 1 and changes nothing', async () => {
  await svc('sites', 'create', '--subdomain', 'acme');
  const again = await svc('sites', 'create', '--subdomain', 'acme', '--name', 'Other');
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/taken/);
  expect(await inStore((s) => s.listSites())).toHaveLength(1);
});

test('bad arguments exit 2 with the usage lines and write nothing', async () => {
  for (const argv of [
    [],
    ['frobnicate'],
    ['sites', 'create'],
    ['sites', 'create', '--subdomain', 'Not Valid'],
    ['sites', 'create', '--subdomain', 'ok', '--currency', 'euro'],
    ['sites', 'create', '--subdomain', 'ok', '--bogus', 'x'],
    ['sites', 'update', 'demo', '--admin-api', 'maybe'],
    ['sites', 'update', 'demo'],
    ['sites', 'update', 'demo', '--member-menu', 'yes'],
    ['sites', 'update', 'demo', '--after-registration', 'somewhere'],
    ['sites', 'update', 'demo', '--after-registration', 'javascript:alert(1)'],
    ['keys', 'create', '--site', 'x'],
    ['keys', 'create', '--site', 'x', '--scopes', 'read.everything'],
    ['keys', 'create', '--site', 'x', '--scopes', 'read.members', '--expires-in', '5y'],
    ['keys', 'revoke'],
    ['seed', '--members', 'many'],
    ['billing'],
    ['billing', 'charge'],
    ['billing', 'run', '--at', 'tomorrow'],
    ['billing', 'run', '--at', '2001-01-01T00:00:00Z'],
  ]) {
    const result = await svc(...argv);
    expect(result.code, argv.join(' ')).toBe(2);
    expect(result.err).toContain('usage:');
    expect(result.out).toEqual([]);
  }
  expect(await inStore((s) => s.listSites())).toEqual([]);
});

test('keys create prints a key once and stores only its hash, with scopes and expiry', async () => {
  await svc('sites', 'create', '--subdomain', 'acme');
  const before = Date.now();
  const result = await svc('keys', 'create', '--site', 'acme', '--scopes', 'read.members,read.plans', '--expires-in', '2h');
  expect(result.code).toBe(0);
  const [key] = result.out;
  expect(key).toMatch(/^svc_admin_[A-Za-z0-9_-]{43}$/);
  const record = await inStore((s) => s.findApiKeyByHash(hashApiKey(key!)));
  expect(record).toMatchObject({ siteId: 1, scopes: ['read.members', 'read.plans'] });
  expect(record!.expiresAt! - before).toBeGreaterThanOrEqual(2 * 3600_000);
  expect(record!.expiresAt! - before).toBeLessThan(2 * 3600_000 + 60_000);
  expect(JSON.stringify(record)).not.toContain(key);
});

test('keys create for an unknown site exits 1', async () => {
  expect((await svc('keys', 'create', '--site', 'nope', '--scopes', 'read.members')).code).toBe(1);
});

test('keys revoke revokes once, then reports there is nothing to revoke', async () => {
  await svc('sites', 'create', '--subdomain', 'acme');
  const [key] = (await svc('keys', 'create', '--site', '1', '--scopes', 'read.members')).out;
  expect((await svc('keys', 'revoke', key!)).code).toBe(0);
  expect((await inStore((s) => s.findApiKeyByHash(hashApiKey(key!))))?.revokedAt).toBeTypeOf('number');
  expect((await svc('keys', 'revoke', key!)).code).toBe(1);
});

test('sites update switches the Admin API off and on by subdomain or id', async () => {
  await svc('sites', 'create', '--subdomain', 'acme');
  expect((await svc('sites', 'update', 'acme', '--admin-api', 'off')).code).toBe(0);
  expect((await inStore((s) => s.getSite(1)))?.adminApiEnabled).toBe(false);
  expect((await svc('sites', 'update', '1', '--admin-api', 'on')).code).toBe(0);
  expect((await inStore((s) => s.getSite(1)))?.adminApiEnabled).toBe(true);
  expect((await svc('sites', 'update', 'nope', '--admin-api', 'on')).code).toBe(1);
});

test('sites update sets the member menu and the after-registration action; a bad value changes nothing', async () => {
  await svc('sites', 'create', '--subdomain', 'acme');
  const on = await svc('sites', 'update', 'acme', '--member-menu', 'on', '--after-registration', 'plans');
  expect(on.code).toBe(0);
  expect(on.err).toContain('member menu on, after registration plans');
  expect(await inStore((s) => s.getSite(1))).toMatchObject({ memberMenu: true, afterRegistration: { action: 'plans' }, adminApiEnabled: true });
  expect((await svc('sites', 'update', 'acme', '--after-registration', 'https://acme.localhost/welcome')).code).toBe(0);
  expect((await inStore((s) => s.getSite(1)))?.afterRegistration).toEqual({ action: 'redirect', url: 'https://acme.localhost/welcome' });
  expect((await svc('sites', 'update', 'acme', '--member-menu', 'off', '--after-registration', 'ftp://x')).code).toBe(2);
  expect(await inStore((s) => s.getSite(1))).toMatchObject({ memberMenu: true });
  expect((await svc('sites', 'update', 'acme', '--member-menu', 'off', '--after-registration', 'stay')).code).toBe(0);
  const site = await inStore((s) => s.getSite(1));
  expect(site?.memberMenu).toBeUndefined();
  expect(site?.afterRegistration).toEqual({ action: 'stay' });
});

test('billing run takes what is due once and prints what happened as one JSON line', async () => {
  expect(await svc('seed', '--members', '20', '--seed', '3')).toMatchObject({ code: 0 });
  const result = await svc('billing', 'run', '--at', '2099-01-01T00:00:00Z');
  expect(result.code).toBe(0);
  const report = JSON.parse(result.out[0]!);
  expect(report).toMatchObject({ errors: 0, sessionsDeleted: 0 });
  // The seeded members paid through the service and have cards saved: their due renewals and
  // instalments are charged, once each; memberships past their expiry date are stored expired.
  expect(report.charged).toBeGreaterThan(0);
  expect(report.expired).toBeGreaterThan(0);
});

test('seed creates the demo site, then grows it, printing counts as one JSON line', async () => {
  const first = await svc('seed', '--members', '50', '--seed', '7');
  expect(first.code).toBe(0);
  const counts = JSON.parse(first.out[0]!);
  expect(counts).toMatchObject({ siteId: 1, members: 50 });
  expect(counts.memberships).toBeGreaterThan(40);
  expect(counts.memberEvents).toBeGreaterThan(150);
  expect(counts.contentViews).toBeGreaterThan(50);
  expect(first.err).toMatch(/50 \/ 50 members/);
  const second = await svc('seed', '--members', '30', '--seed', '8');
  expect(JSON.parse(second.out[0]!)).toMatchObject({ siteId: 1, members: 30 });
  const page = await inStore((s) => s.listMembers(1, {}, { limit: 100 }));
  expect(page.items).toHaveLength(80);
});

test('a site name with a control character or a lone surrogate exits 2, says why, and creates no site', async () => {
  for (const bad of ['\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f', '\ud800']) {
    const result = await svc('sites', 'create', '--subdomain', 'acme', '--name', `Ac${bad}me`);
    expect(result.code, JSON.stringify(bad)).toBe(2);
    expect(result.err).toMatch(/name: must not contain control characters|name: must be valid Unicode/);
    expect(result.out).toEqual([]);
  }
  expect(await inStore(async (store) => (await store.listSites()).length)).toBe(0);
  // Letters of any script, and a surrogate pair, are a name.
  expect(await svc('sites', 'create', '--subdomain', 'acme', '--name', 'Ācme 大塚 😀')).toMatchObject({ code: 0, out: ['1'] });
});

test('--version prints the installation’s version (package.json’s), on stdout, exit 0', async () => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-v', 'version']) {
    const result = await svc(flag);
    expect(result.code, flag).toBe(0);
    expect(result.out, flag).toEqual([`svc ${version}`]);
  }
});
