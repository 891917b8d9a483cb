/**
 * Contract: bulkLoad (what `svc seed` writes a new installation's members with). Whatever a store
 * does to write faster inside it, the store it hands the work reads and writes as the store does,
 * its writes at once included, and everything is there once the load ends.
 */
import { expect, test } from 'vitest';
import { ConflictError } from '../../src/service/store/errors';
import type { Store } from '../../src/service/store/store';
import { type Ctx, T0, expectRejects, newMember, newPlan } from './fixtures';

export function bulkLoadTests(ctx: Ctx): void {
  /** Members with a membership, events, an invoice and a card each, written the way the seed writes a batch: several kinds at once. */
  async function loadMembers(store: Store, count: number, tag: string, planId: number) {
    const memberIds = await store.createMembers(
      Array.from({ length: count }, (_, i) => newMember(ctx.a.id, `${tag}${i}@example.com`, { processorCustomerId: `cus_${tag}${i}` })),
    );
    const membershipIds = await store.createMemberships(
      memberIds.map((memberId) => ({ siteId: ctx.a.id, memberId, planId, status: 'active' as const, createdAt: T0, paymentFailure: false })),
    );
    await Promise.all([
      store.createMemberEvents(memberIds.map((memberId) => ({ siteId: ctx.a.id, memberId, eventType: 'signup' as const, details: {}, createdAt: T0 }))),
      store.createInvoices(memberIds.map((memberId, i) => ({
        siteId: ctx.a.id, memberId, planId, membershipId: membershipIds[i]!, processorInvoiceId: `in_${tag}${i}`, processorChargeId: `ch_${tag}${i}`,
        subTotalCents: 1000, taxCents: 0, totalCents: 1000, currency: 'usd', status: 'paid' as const, description: 'Gold', createdAt: T0,
      }))),
      store.savePaymentMethods(memberIds.map((memberId) => ({
        siteId: ctx.a.id, memberId, processorId: `pm_${memberId}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, createdAt: T0,
      }))),
    ]);
    return memberIds;
  }

  test('bulkLoad answers what its work answers, and every row the work wrote, at once or not, is there afterwards', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id));
    const [ids, moreIds] = await ctx.store.bulkLoad(async (load) => {
      // Reads inside see the load's own writes.
      const first = await loadMembers(load, 30, 'a', plan.id);
      expect((await load.getMember(ctx.a.id, first[0]!))?.email).toBe('a0@example.com');
      return [first, await loadMembers(load, 20, 'b', plan.id)];
    });
    expect(ids).toHaveLength(30);
    expect(moreIds).toHaveLength(20);
    const members = await ctx.store.listMembers(ctx.a.id, {}, { limit: 100 });
    expect(members.items.map((m) => m.id)).toEqual([...ids, ...moreIds]);
    const last = moreIds.at(-1)!;
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, last)).toMatchObject([{ planId: plan.id, status: 'active' }]);
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, last)).toMatchObject([{ processorInvoiceId: 'in_b19', totalCents: 1000 }]);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, last)).toMatchObject({ processorId: `pm_${last}` });
    expect((await ctx.store.listMemberEvents(ctx.a.id, { memberId: last }, { limit: 10 })).items).toMatchObject([{ eventType: 'signup' }]);
  });

  test('a write refused inside a load throws its store error and writes nothing; the load goes on and keeps the rest', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id));
    await ctx.store.bulkLoad(async (load) => {
      await loadMembers(load, 5, 'a', plan.id);
      // The second batch repeats an e-mail: none of its rows is written.
      await expectRejects(load.createMembers([newMember(ctx.a.id, 'new@example.com'), newMember(ctx.a.id, 'a3@example.com')]), ConflictError, 'email');
      await loadMembers(load, 5, 'c', plan.id);
    });
    const emails = (await ctx.store.listMembers(ctx.a.id, {}, { limit: 100 })).items.map((m) => m.email);
    expect(emails).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'c0', 'c1', 'c2', 'c3', 'c4'].map((local) => `${local}@example.com`));
  });
}
