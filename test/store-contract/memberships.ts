/** Contract: memberships and siteMetrics. */
import { expect, test } from 'vitest';
import { MissingReferenceError } from '../../src/service/store/errors';
import type { MembershipFilter } from '../../src/service/store/queries';
import type { NewMembership, PlanRecord } from '../../src/service/store/records';
import { type Ctx, PLAN_TERMS, T0, addMembers, expectKeysetPaging, expectRangeFilter, expectRejects, newPlan } from './fixtures';

export function membershipTests(ctx: Ctx): void {
  let free: PlanRecord;
  let sub: PlanRecord;
  let multi: PlanRecord;
  let foreignPlan: PlanRecord;
  let members: number[];
  let foreignMember: number;

  async function setUp(): Promise<void> {
    free = await ctx.store.createPlan(newPlan(ctx.a.id, { publicId: 'pln_free' }));
    sub = await ctx.store.createPlan(
      newPlan(ctx.a.id, { publicId: 'pln_sub' }, PLAN_TERMS['subscription plan with a billing date and a signup fee']),
    );
    multi = await ctx.store.createPlan(
      newPlan(ctx.a.id, { publicId: 'pln_multi' }, PLAN_TERMS['multi-payment plan with a trial']),
    );
    foreignPlan = await ctx.store.createPlan(newPlan(ctx.b.id, { publicId: 'pln_b' }));
    members = await addMembers(ctx.store, ctx.a.id, 4);
    [foreignMember] = (await addMembers(ctx.store, ctx.b.id, 1)) as [number];
  }
  const ms = (memberId: number, planId: number, extra: Partial<NewMembership> = {}): NewMembership => ({
    siteId: ctx.a.id,
    memberId,
    planId,
    status: 'active',
    createdAt: T0,
    paymentFailure: false,
    ...extra,
  });
  const list = async (filter: MembershipFilter, siteId = ctx.a.id) =>
    (await ctx.store.listMemberships(siteId, filter, { limit: 1000 })).items.map((m) => m.id);

  test('createMemberships returns ids in input order; list items add the plan type and public id', async () => {
    await setUp();
    const input = [
      ms(members[0]!, free.id, { expiresAt: T0 + 9000 }),
      ms(members[1]!, sub.id, { status: 'cancelled', cancelsAt: T0 + 50, billingPeriodEnd: T0 + 60, paymentFailure: true }),
      ms(members[0]!, multi.id, { status: 'expired', createdAt: T0 - 10, billingPeriodEnd: T0 + 70, expiresAt: T0 + 80 }),
    ];
    const ids = await ctx.store.createMemberships(input);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    const page = await ctx.store.listMemberships(ctx.a.id, {}, { limit: 10 });
    expect(page.hasMore).toBe(false);
    expect(page.items).toEqual([
      { ...input[0], id: ids[0], type: 'free', planPublicId: 'pln_free' },
      { ...input[1], id: ids[1], type: 'subscription', planPublicId: 'pln_sub' },
      { ...input[2], id: ids[2], type: 'multiPayment', planPublicId: 'pln_multi' },
    ]);
    for (const key of ['cancelsAt', 'billingPeriodEnd']) expect(page.items[0]).not.toHaveProperty(key);
    expect(page.items[1]).not.toHaveProperty('expiresAt');
  });

  test('createMemberships rejects an unknown member or another site’s member with MissingReferenceError on memberId', async () => {
    await setUp();
    await expectRejects(
      ctx.store.createMemberships([ms(members[0]!, free.id), ms(foreignMember + 1000, free.id)]),
      MissingReferenceError,
      'memberId',
    );
    await expectRejects(
      ctx.store.createMemberships([ms(members[0]!, free.id), ms(foreignMember, free.id)]),
      MissingReferenceError,
      'memberId',
    );
    expect(await list({})).toEqual([]);
  });

  test('createMemberships rejects an unknown plan or another site’s plan with MissingReferenceError on planId', async () => {
    await setUp();
    await expectRejects(
      ctx.store.createMemberships([ms(members[0]!, free.id), ms(members[1]!, foreignPlan.id + 1000)]),
      MissingReferenceError,
      'planId',
    );
    await expectRejects(
      ctx.store.createMemberships([ms(members[0]!, free.id), ms(members[1]!, foreignPlan.id)]),
      MissingReferenceError,
      'planId',
    );
    expect(await list({})).toEqual([]);
    expect(await list({}, ctx.b.id)).toEqual([]);
  });

  test('listMemberships filters by planId, memberId and status, combined with AND', async () => {
    await setUp();
    const [m0, m1, m2] = members as [number, number, number];
    const ids = await ctx.store.createMemberships([
      ms(m0, free.id),
      ms(m0, sub.id, { status: 'cancelled' }),
      ms(m1, free.id, { status: 'expired' }),
      ms(m2, sub.id),
      ms(m1, sub.id),
    ]);
    await ctx.store.createMemberships([{ ...ms(foreignMember, foreignPlan.id), siteId: ctx.b.id }]);
    expect(await list({ planId: free.id })).toEqual([ids[0], ids[2]]);
    expect(await list({ planId: foreignPlan.id })).toEqual([]);
    expect(await list({ memberId: m1 })).toEqual([ids[2], ids[4]]);
    expect(await list({ memberId: foreignMember })).toEqual([]);
    expect(await list({ status: 'active' })).toEqual([ids[0], ids[3], ids[4]]);
    expect(await list({ status: 'cancelled' })).toEqual([ids[1]]);
    expect(await list({ planId: sub.id, status: 'active' })).toEqual([ids[3], ids[4]]);
    expect(await list({ planId: sub.id, memberId: m1 })).toEqual([ids[4]]);
    expect(await list({ planId: free.id, memberId: m1, status: 'active' })).toEqual([]);
  });

  test('listMemberships filters by created: from inclusive, to exclusive', async () => {
    await setUp();
    const ids = await ctx.store.createMemberships([0, 1000, 2000].map((d) => ms(members[0]!, free.id, { createdAt: T0 + d })));
    await expectRangeFilter(
      (created) => ctx.store.listMemberships(ctx.a.id, { created }, { limit: 100 }),
      ids as [number, number, number],
    );
  });

  test('listMemberships filters by billingPeriodEnd: from inclusive, to exclusive, none without one', async () => {
    await setUp();
    const ids = await ctx.store.createMemberships([
      ms(members[0]!, sub.id, { billingPeriodEnd: T0 }),
      ms(members[1]!, free.id),
      ms(members[1]!, sub.id, { billingPeriodEnd: T0 + 1000 }),
      ms(members[2]!, sub.id, { billingPeriodEnd: T0 + 2000 }),
    ]);
    await expectRangeFilter(
      (billingPeriodEnd) => ctx.store.listMemberships(ctx.a.id, { billingPeriodEnd }, { limit: 100 }),
      [ids[0]!, ids[2]!, ids[3]!],
      [ids[1]!],
    );
  });

  test('listMemberships filters by expires (expiresAt): from inclusive, to exclusive, none without one', async () => {
    await setUp();
    const ids = await ctx.store.createMemberships([
      ms(members[0]!, free.id),
      ms(members[0]!, free.id, { expiresAt: T0 }),
      ms(members[1]!, free.id, { expiresAt: T0 + 1000 }),
      ms(members[2]!, free.id, { expiresAt: T0 + 2000 }),
    ]);
    await expectRangeFilter(
      (expires) => ctx.store.listMemberships(ctx.a.id, { expires }, { limit: 100 }),
      [ids[1]!, ids[2]!, ids[3]!],
      [ids[0]!],
    );
  });

  test('a Range with neither bound filters nothing, not even rows without the field', async () => {
    await setUp();
    const ids = await ctx.store.createMemberships([
      ms(members[0]!, free.id),
      ms(members[1]!, sub.id, { billingPeriodEnd: T0, expiresAt: T0 }),
    ]);
    expect(await list({ expires: {}, billingPeriodEnd: {}, created: {} })).toEqual(ids);
    expect(await list({ expires: { from: undefined, to: undefined } })).toEqual(ids);
  });

  test('listMemberships pages by id and never shows another site’s memberships', async () => {
    await setUp();
    const mine: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < 6; i++) {
      mine.push(...(await ctx.store.createMemberships([ms(members[i % 4]!, i % 2 ? free.id : sub.id)])));
      others.push(...(await ctx.store.createMemberships([{ ...ms(foreignMember, foreignPlan.id), siteId: ctx.b.id }])));
    }
    await expectKeysetPaging((page) => ctx.store.listMemberships(ctx.a.id, {}, page), mine, others[1]);
    await expectKeysetPaging((page) => ctx.store.listMemberships(ctx.b.id, {}, page), others, mine[4]);
    const byPlan = mine.filter((_, i) => i % 2 === 1);
    await expectKeysetPaging((page) => ctx.store.listMemberships(ctx.a.id, { planId: free.id }, page), byPlan, mine[2]);
  });

  test('siteMetrics counts distinct members with an active membership: any, free, paid', async () => {
    await setUp();
    const [m0, m1, m2, m3] = members as [number, number, number, number];
    await ctx.store.createMemberships([
      ms(m0, free.id),
      ms(m0, free.id), // twice on the same plan: one member
      ms(m1, free.id),
      ms(m1, sub.id), // free and paid: counted in both
      ms(m2, multi.id),
      ms(m2, sub.id), // two paid plans: one paid member
      ms(m3, free.id, { status: 'cancelled' }),
      ms(m3, sub.id, { status: 'expired' }), // nothing active: not counted
    ]);
    const b = await addMembers(ctx.store, ctx.b.id, 3, 'extra');
    await ctx.store.createMemberships(b.map((memberId) => ({ ...ms(memberId, foreignPlan.id), siteId: ctx.b.id })));
    expect(await ctx.store.siteMetrics(ctx.a.id)).toEqual({
      activeMemberCount: 3,
      freeMemberCount: 2,
      paidMemberCount: 2,
    });
    expect(await ctx.store.siteMetrics(ctx.b.id)).toEqual({
      activeMemberCount: 3,
      freeMemberCount: 3,
      paidMemberCount: 0,
    });
  });
}
