/** Contract: plans, plan filters and planActiveMemberCounts. */
import { expect, test } from 'vitest';
import type { PlanStatus } from '../../src/contract/admin';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { PlanFilter } from '../../src/service/store/queries';
import type { NewMembership, NewPlan } from '../../src/service/store/records';
import { type Ctx, PLAN_TERMS, T0, addMembers, expectKeysetPaging, expectRejects, newPlan } from './fixtures';

const ALL_STATUSES: PlanStatus[] = ['enabled', 'disabled', 'archived', 'deleted'];
const ALL: PlanFilter = { statuses: ALL_STATUSES };

export function planTests(ctx: Ctx): void {
  for (const [label, terms] of Object.entries(PLAN_TERMS)) {
    test(`a ${label} round-trips through createPlan, getPlan and listPlans`, async () => {
      const input: NewPlan = newPlan(
        ctx.a.id,
        {
          publicId: 'pln_round_trip',
          description: '<p>Sign up <em>now</em></p>',
          contentUrl: 'https://alpha.example.com/members',
          welcomeUrl: 'https://alpha.example.com/welcome',
          highlight: true,
          features: ['Every issue', 'The archive, 2019 on'],
          status: 'disabled',
          isPublic: false,
          createdAt: T0 + 1234,
        },
        terms,
      );
      expect(Object.keys(input).includes('expiration')).toBe(terms.type !== 'subscription');
      const created = await ctx.store.createPlan(input);
      // A plan made without a key is keyed by its public id.
      const expected = { ...input, id: created.id, key: 'pln_round_trip' };
      expect(created).toStrictEqual(expected);
      expect(await ctx.store.getPlan(ctx.a.id, created.id)).toStrictEqual(expected);
      expect((await ctx.store.listPlans(ctx.a.id, ALL, { limit: 10 })).items).toStrictEqual([expected]);
    });
  }

  test('a plan without the optional fields comes back without them', async () => {
    const input = newPlan(ctx.a.id);
    const created = await ctx.store.createPlan(input);
    expect(created).toStrictEqual({ ...input, id: created.id, key: input.publicId });
    const read = await ctx.store.getPlan(ctx.a.id, created.id);
    expect(read).toStrictEqual({ ...input, id: created.id, key: input.publicId });
    for (const key of ['description', 'contentUrl', 'welcomeUrl', 'billing', 'highlight', 'features']) expect(read).not.toHaveProperty(key);
  });

  test('createPlan rejects a public id taken in any site with ConflictError on publicId', async () => {
    await ctx.store.createPlan(newPlan(ctx.a.id, { publicId: 'pln_same' }));
    await expectRejects(ctx.store.createPlan(newPlan(ctx.a.id, { publicId: 'pln_same' })), ConflictError, 'publicId');
    await expectRejects(ctx.store.createPlan(newPlan(ctx.b.id, { publicId: 'pln_same' })), ConflictError, 'publicId');
    expect(await ctx.store.countPlans(ctx.a.id, ALL)).toBe(1);
    expect(await ctx.store.countPlans(ctx.b.id, ALL)).toBe(0);
  });

  test('createPlan rejects an unknown site with MissingReferenceError on siteId', async () => {
    await expectRejects(ctx.store.createPlan(newPlan(ctx.b.id + 1000)), MissingReferenceError, 'siteId');
  });

  test("getPlan returns undefined for another site's plan and for an unknown id", async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id));
    expect(await ctx.store.getPlan(ctx.b.id, plan.id)).toBeUndefined();
    expect(await ctx.store.getPlan(ctx.a.id, plan.id + 1000)).toBeUndefined();
  });

  test('listPlans and countPlans filter by type and statuses', async () => {
    const make = async (terms: string, status: PlanStatus) =>
      (await ctx.store.createPlan(newPlan(ctx.a.id, { status }, PLAN_TERMS[terms]))).id;
    const freeEnabled = await make('free plan that never expires', 'enabled');
    const subArchived = await make('subscription plan with a billing date and a signup fee', 'archived');
    const freeDeleted = await make('free plan expiring after an interval', 'deleted');
    const oneTimeDisabled = await make('one-time payment plan with tax', 'disabled');
    const subEnabled = await make('subscription plan with a billing date and a signup fee', 'enabled');
    await ctx.store.createPlan(newPlan(ctx.b.id, { status: 'enabled' }));

    const check = async (filter: PlanFilter, expected: number[]) => {
      const page = await ctx.store.listPlans(ctx.a.id, filter, { limit: 100 });
      expect(page.items.map((p) => p.id)).toEqual(expected);
      expect(page.hasMore).toBe(false);
      expect(await ctx.store.countPlans(ctx.a.id, filter)).toBe(expected.length);
    };
    await check(ALL, [freeEnabled, subArchived, freeDeleted, oneTimeDisabled, subEnabled]);
    await check({ statuses: ['enabled'] }, [freeEnabled, subEnabled]);
    await check({ statuses: ['enabled', 'disabled', 'deleted'] }, [freeEnabled, freeDeleted, oneTimeDisabled, subEnabled]);
    await check({ type: 'free', statuses: ALL_STATUSES }, [freeEnabled, freeDeleted]);
    await check({ type: 'subscription', statuses: ['enabled', 'disabled'] }, [subEnabled]);
    await check({ type: 'multiPayment', statuses: ALL_STATUSES }, []);
    await check({ type: 'free', statuses: ['archived'] }, []);
  });

  test('listPlans pages by id and never shows another site’s plans', async () => {
    const ids: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await ctx.store.createPlan(newPlan(ctx.a.id))).id);
      others.push((await ctx.store.createPlan(newPlan(ctx.b.id))).id);
    }
    await expectKeysetPaging((page) => ctx.store.listPlans(ctx.a.id, ALL, page), ids, others[1]);
    expect(await ctx.store.countPlans(ctx.a.id, ALL)).toBe(5);
    const other = await ctx.store.listPlans(ctx.b.id, ALL, { limit: 100 });
    expect(other.items.every((p) => p.siteId === ctx.b.id)).toBe(true);
    expect(other.items).toHaveLength(5);
  });

  test('planActiveMemberCounts counts distinct members with an active membership per plan', async () => {
    const free = (await ctx.store.createPlan(newPlan(ctx.a.id))).id;
    const paid = (await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['one-time payment plan with tax']))).id;
    const unused = (await ctx.store.createPlan(newPlan(ctx.a.id))).id;
    const otherSite = (await ctx.store.createPlan(newPlan(ctx.b.id))).id;
    const [m1, m2, m3] = await addMembers(ctx.store, ctx.a.id, 3);
    const [b1] = await addMembers(ctx.store, ctx.b.id, 1);
    const ms = (memberId: number, planId: number, status: NewMembership['status'], siteId = ctx.a.id): NewMembership =>
      ({ siteId, memberId, planId, status, createdAt: T0, paymentFailure: false });
    await ctx.store.createMemberships([
      ms(m1!, free, 'active'),
      ms(m1!, free, 'active'), // the same member twice on a plan counts once
      ms(m2!, free, 'active'),
      ms(m3!, free, 'cancelled'),
      ms(m3!, paid, 'expired'),
      ms(m1!, paid, 'active'),
      ms(b1!, otherSite, 'active', ctx.b.id),
    ]);
    const counts = await ctx.store.planActiveMemberCounts(ctx.a.id, [free, paid, unused]);
    expect(counts).toEqual(new Map([[free, 2], [paid, 1], [unused, 0]]));
    expect(await ctx.store.planActiveMemberCounts(ctx.a.id, [paid])).toEqual(new Map([[paid, 1]]));
    expect(await ctx.store.planActiveMemberCounts(ctx.a.id, [otherSite])).toEqual(new Map([[otherSite, 0]]));
    expect(await ctx.store.planActiveMemberCounts(ctx.b.id, [otherSite])).toEqual(new Map([[otherSite, 1]]));
    expect(await ctx.store.planActiveMemberCounts(ctx.a.id, [])).toEqual(new Map());
  });
}
