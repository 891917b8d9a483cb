/** Contract: sites, secrets and API keys. */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { NewApiKey } from '../../src/service/store/records';
import { type Ctx, T0, expectRejects, newSite } from './fixtures';

const HASH = 'a'.repeat(64);

function newKey(siteId: number, overrides: Partial<NewApiKey> = {}): NewApiKey {
  return { siteId, hash: HASH, scopes: ['read.members', 'read.plans'], createdAt: T0, ...overrides };
}

export function siteTests(ctx: Ctx): void {
  test('createSite returns the site with an id, and getSite reads it back equal', async () => {
    const input = newSite('gamma', { name: 'Gamma Club', domain: 'gamma.org', defaultCurrency: 'eur', locale: 'de' });
    const created = await ctx.store.createSite(input);
    expect(created).toEqual({ ...input, id: created.id });
    expect(await ctx.store.getSite(created.id)).toEqual(created);
    expect(ctx.b.adminApiEnabled).toBe(false);
    expect(await ctx.store.getSite(ctx.b.id)).toEqual({ ...newSite('beta', { adminApiEnabled: false }), id: ctx.b.id });
  });

  test('site ids are distinct and ascend in creation order', async () => {
    const c = await ctx.store.createSite(newSite('gamma'));
    expect(ctx.a.id).toBeLessThan(ctx.b.id);
    expect(ctx.b.id).toBeLessThan(c.id);
  });

  test('createSite rejects a subdomain that is taken with ConflictError on subdomain', async () => {
    await expectRejects(ctx.store.createSite(newSite('alpha', { name: 'Other' })), ConflictError, 'subdomain');
    expect(await ctx.store.listSites()).toHaveLength(2);
  });

  test('getSite returns undefined for an unknown id', async () => {
    expect(await ctx.store.getSite(ctx.b.id + 1000)).toBeUndefined();
  });

  test('getSiteBySubdomain finds the site, and undefined for an unknown subdomain', async () => {
    expect(await ctx.store.getSiteBySubdomain('beta')).toEqual(ctx.b);
    expect(await ctx.store.getSiteBySubdomain('alpha')).toEqual(ctx.a);
    expect(await ctx.store.getSiteBySubdomain('delta')).toBeUndefined();
  });

  test('listSites returns every site ascending by id', async () => {
    const c = await ctx.store.createSite(newSite('gamma'));
    expect(await ctx.store.listSites()).toEqual([ctx.a, ctx.b, c]);
  });

  test('updateSite sets adminApiEnabled and returns the updated site', async () => {
    expect(await ctx.store.updateSite(ctx.a.id, { adminApiEnabled: false })).toEqual({ ...ctx.a, adminApiEnabled: false });
    expect(await ctx.store.getSite(ctx.a.id)).toEqual({ ...ctx.a, adminApiEnabled: false });
    expect(await ctx.store.updateSite(ctx.b.id, { adminApiEnabled: true })).toEqual({ ...ctx.b, adminApiEnabled: true });
    expect(await ctx.store.getSite(ctx.a.id)).toEqual({ ...ctx.a, adminApiEnabled: false });
  });

  test('updateSite with an empty patch changes nothing', async () => {
    expect(await ctx.store.updateSite(ctx.a.id, {})).toEqual(ctx.a);
    expect(await ctx.store.getSite(ctx.a.id)).toEqual(ctx.a);
  });

  test('updateSite returns undefined for an unknown site', async () => {
    expect(await ctx.store.updateSite(ctx.b.id + 1000, { adminApiEnabled: true })).toBeUndefined();
  });

  test('siteMetrics are zero for a site without memberships', async () => {
    expect(await ctx.store.siteMetrics(ctx.a.id)).toEqual({
      activeMemberCount: 0,
      freeMemberCount: 0,
      paidMemberCount: 0,
    });
  });

  test('secret creates the value once and returns the same value afterwards', async () => {
    let calls = 0;
    const create = () => `value-${++calls}`;
    expect(await ctx.store.secret('cursor-key', create)).toBe('value-1');
    expect(await ctx.store.secret('cursor-key', create)).toBe('value-1');
    expect(calls).toBe(1);
    expect(await ctx.store.secret('session-key', create)).toBe('value-2');
    expect(await ctx.store.secret('cursor-key', () => 'other')).toBe('value-1');
    expect(await ctx.store.secret('session-key', () => 'other')).toBe('value-2');
  });

  test('createApiKey returns the key with an id, findApiKeyByHash reads it back', async () => {
    const input = newKey(ctx.a.id, { expiresAt: T0 + 86_400_000 });
    const created = await ctx.store.createApiKey(input);
    expect(created).toEqual({ ...input, id: created.id });
    expect(created.revokedAt).toBeUndefined();
    expect(await ctx.store.findApiKeyByHash(HASH)).toEqual(created);
    const other = await ctx.store.createApiKey(newKey(ctx.b.id, { hash: 'b'.repeat(64), scopes: ['read.contentViews'] }));
    expect(other).toEqual({ ...newKey(ctx.b.id, { hash: 'b'.repeat(64), scopes: ['read.contentViews'] }), id: other.id });
    expect(other.expiresAt).toBeUndefined();
    expect(await ctx.store.findApiKeyByHash('b'.repeat(64))).toEqual(other);
  });

  test('findApiKeyByHash returns undefined for an unknown hash', async () => {
    await ctx.store.createApiKey(newKey(ctx.a.id));
    expect(await ctx.store.findApiKeyByHash('c'.repeat(64))).toBeUndefined();
  });

  test('createApiKey rejects a hash that exists with ConflictError on hash', async () => {
    await ctx.store.createApiKey(newKey(ctx.a.id));
    await expectRejects(ctx.store.createApiKey(newKey(ctx.b.id)), ConflictError, 'hash');
    expect((await ctx.store.findApiKeyByHash(HASH))?.siteId).toBe(ctx.a.id);
  });

  test('createApiKey rejects an unknown site with MissingReferenceError on siteId', async () => {
    await expectRejects(ctx.store.createApiKey(newKey(ctx.b.id + 1000)), MissingReferenceError, 'siteId');
    expect(await ctx.store.findApiKeyByHash(HASH)).toBeUndefined();
  });

  test('revokeApiKey revokes once: true, then false; revokedAt is set and expiresAt kept', async () => {
    const created = await ctx.store.createApiKey(newKey(ctx.a.id, { expiresAt: T0 + 5000 }));
    expect(await ctx.store.revokeApiKey(HASH, T0 + 1000)).toBe(true);
    expect(await ctx.store.findApiKeyByHash(HASH)).toEqual({ ...created, revokedAt: T0 + 1000, expiresAt: T0 + 5000 });
    expect(await ctx.store.revokeApiKey(HASH, T0 + 2000)).toBe(false);
    expect((await ctx.store.findApiKeyByHash(HASH))?.revokedAt).toBe(T0 + 1000);
  });

  test('revokeApiKey returns false for an unknown hash and leaves other keys alone', async () => {
    const created = await ctx.store.createApiKey(newKey(ctx.a.id));
    expect(await ctx.store.revokeApiKey('d'.repeat(64), T0)).toBe(false);
    expect(await ctx.store.findApiKeyByHash(HASH)).toEqual(created);
  });
}
