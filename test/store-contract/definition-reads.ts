/**
 * Contract: what a request reads of a site's definition (the site by id and by subdomain, an API
 * key by hash, a plan, the sign-up fields) follows every write at once, asked before and after
 * it through the same store. The SQL stores keep these reads between requests
 * (src/service/store/definition-cache.ts); these tests read each one first so that a kept answer
 * would be the one asked for again, then change it by every way the store has.
 */
import { expect, test } from 'vitest';
import { newField } from './accounts';
import { type Ctx, T0, newPlan } from './fixtures';

const HASH = 'a'.repeat(64);

export function definitionReadTests(ctx: Ctx): void {
  /** Reads everything a request reads (twice: the second may be a kept answer). */
  async function readAll(planId: number) {
    let last;
    for (let i = 0; i < 2; i++) {
      last = {
        site: await ctx.store.getSite(ctx.a.id),
        bySubdomain: await ctx.store.getSiteBySubdomain(ctx.a.subdomain),
        key: await ctx.store.findApiKeyByHash(HASH),
        plan: await ctx.store.getPlan(ctx.a.id, planId),
        fields: await ctx.store.listSignupFields(ctx.a.id),
      };
    }
    return last!;
  }

  test('the definition a request reads follows updateSite, createPlan, createSignupFields, createApiKey and revokeApiKey at once', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id, { name: 'Gold' }));
    let seen = await readAll(plan.id);
    expect(seen.key).toBeUndefined();
    expect(seen.fields).toEqual([]);

    await ctx.store.updateSite(ctx.a.id, { name: 'Renamed', memberMenu: true });
    seen = await readAll(plan.id);
    expect(seen.site).toMatchObject({ name: 'Renamed', memberMenu: true });
    expect(seen.bySubdomain).toMatchObject({ name: 'Renamed', memberMenu: true });

    await ctx.store.createSignupFields([newField(ctx.a.id, { label: 'Company' })]);
    seen = await readAll(plan.id);
    expect(seen.fields.map((f) => f.label)).toEqual(['Company']);

    await ctx.store.createApiKey({ siteId: ctx.a.id, hash: HASH, scopes: ['read.members'], createdAt: T0 });
    seen = await readAll(plan.id);
    expect(seen.key).toMatchObject({ siteId: ctx.a.id, scopes: ['read.members'] });
    expect(seen.key!.revokedAt).toBeUndefined();

    expect(await ctx.store.revokeApiKey(HASH, T0 + 1)).toBe(true);
    seen = await readAll(plan.id);
    expect(seen.key!.revokedAt).toBe(T0 + 1);

    const other = await ctx.store.createPlan(newPlan(ctx.a.id, { name: 'Silver' }));
    expect((await ctx.store.getPlan(ctx.a.id, other.id))?.name).toBe('Silver');
  });

  test('the definition a request reads follows applySiteChanges at once (plans, fields, settings)', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id, { name: 'Gold', key: 'gold' }));
    const [fieldId] = await ctx.store.createSignupFields([newField(ctx.a.id, { label: 'Company' })]);
    const before = await readAll(plan.id);
    const definition = (await ctx.store.getSiteDefinition(ctx.a.id))!;
    const field = before.fields.find((f) => f.id === fieldId)!;
    const { siteId: _s, key: _k, publicId: _p, colorCode: _c, createdAt: _t, ...planRest } = before.plan!;
    await ctx.store.applySiteChanges({
      at: T0 + 10,
      site: { id: ctx.a.id, revision: definition.revision, patch: { name: 'Applied' } },
      createPlans: [],
      updatePlans: [{ ...planRest, name: 'Gold+' } as never],
      createSignupFields: [],
      updateSignupFields: [{ id: field.id, label: 'Firm', required: field.required, position: field.position, archived: false }],
      createSpaces: [],
      updateSpaces: [],
      createItems: [],
      updateItems: [],
    });
    const after = await readAll(plan.id);
    expect(after.site?.name).toBe('Applied');
    expect(after.bySubdomain?.name).toBe('Applied');
    expect(after.plan?.name).toBe('Gold+');
    expect(after.fields.map((f) => f.label)).toEqual(['Firm']);
  });
}
