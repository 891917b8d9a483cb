/**
 * Contract: what paid sign-ups keep in the store — the member's processor customer, membership
 * updates (updateMembership, paymentsMade), the saved card and the invoice ledger.
 */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { NewInvoice, NewMembership, NewPaymentMethod, PlanRecord } from '../../src/service/store/records';
import { type Ctx, PLAN_TERMS, T0, expectRejects, newMember, newPlan } from './fixtures';

export function paymentTests(ctx: Ctx): void {
  let sub: PlanRecord;
  let multi: PlanRecord;
  let foreignPlan: PlanRecord;
  let ann: number;
  let bob: number;
  let foreignMember: number;

  async function setUp(): Promise<void> {
    sub = await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['subscription plan with a billing date and a signup fee']));
    multi = await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['multi-payment plan with a trial']));
    foreignPlan = await ctx.store.createPlan(newPlan(ctx.b.id, {}, PLAN_TERMS['one-time payment plan with tax']));
    [ann, bob] = (await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com'),
      newMember(ctx.a.id, 'bob@example.com'),
    ])) as [number, number];
    [foreignMember] = (await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com')])) as [number];
  }
  const ms = (memberId: number, planId: number, extra: Partial<NewMembership> = {}): NewMembership => ({
    siteId: ctx.a.id, memberId, planId, status: 'active', createdAt: T0, paymentFailure: false, ...extra,
  });
  const card = (memberId: number, extra: Partial<NewPaymentMethod> = {}): NewPaymentMethod => ({
    siteId: ctx.a.id, memberId, processorId: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030,
    createdAt: T0, ...extra,
  });
  let invoiceSerial = 0;
  const invoice = (memberId: number, planId: number, extra: Partial<NewInvoice> = {}): NewInvoice => ({
    siteId: ctx.a.id, memberId, planId, processorInvoiceId: `in_${++invoiceSerial}`, processorChargeId: `ch_${invoiceSerial}`,
    subTotalCents: 14550, taxCents: 2910, totalCents: 17460, currency: 'gbp', status: 'paid', description: 'Gold',
    createdAt: T0, ...extra,
  });
  const invoiceIds = async (memberId: number, siteId = ctx.a.id) =>
    (await ctx.store.listInvoicesOfMember(siteId, memberId)).map((i) => i.id);

  // The member's customer at the processor.

  test('processorCustomerId round-trips through createMembers, getMember and listMembers, and is absent when not given', async () => {
    const input = [newMember(ctx.a.id, 'ann@example.com', { processorCustomerId: 'cus_1' }), newMember(ctx.a.id, 'bob@example.com')];
    const [id, other] = await ctx.store.createMembers(input);
    expect(await ctx.store.getMember(ctx.a.id, id!)).toStrictEqual({ ...input[0], id });
    expect((await ctx.store.listMembers(ctx.a.id, {}, { limit: 10 })).items).toStrictEqual([
      { ...input[0], id },
      { ...input[1], id: other },
    ]);
    expect(await ctx.store.getMember(ctx.a.id, other!)).not.toHaveProperty('processorCustomerId');
  });

  test('updateMember sets processorCustomerId and leaves the rest of the member as it was', async () => {
    const [id] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com', { firstName: 'Ann', passwordHash: 'h' })]);
    const before = (await ctx.store.getMember(ctx.a.id, id!))!;
    const after = await ctx.store.updateMember(ctx.a.id, id!, { processorCustomerId: 'cus_9' });
    expect(after).toStrictEqual({ ...before, processorCustomerId: 'cus_9' });
    expect(await ctx.store.getMember(ctx.a.id, id!)).toStrictEqual(after);
    expect(await ctx.store.updateMember(ctx.a.id, id!, { firstName: 'Annie' })).toStrictEqual({ ...after, firstName: 'Annie' });
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toStrictEqual({ memberId: id, status: 'approved', passwordHash: 'h' });
    expect(await ctx.store.updateMember(ctx.b.id, id!, { processorCustomerId: 'cus_x' })).toBeUndefined();
    expect((await ctx.store.getMember(ctx.a.id, id!))?.processorCustomerId).toBe('cus_9');
  });

  // Memberships: paymentsMade and updateMembership.

  test('paymentsMade round-trips through createMemberships and is absent when not given', async () => {
    await setUp();
    const input = [ms(ann, multi.id, { paymentsMade: 0, billingPeriodEnd: T0 + 14 }), ms(ann, sub.id)];
    const ids = await ctx.store.createMemberships(input);
    const expected = [
      { ...input[0], id: ids[0], type: 'multiPayment', planPublicId: multi.publicId },
      { ...input[1], id: ids[1], type: 'subscription', planPublicId: sub.publicId },
    ];
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, ann)).toStrictEqual(expected);
    expect((await ctx.store.listMemberships(ctx.a.id, {}, { limit: 10 })).items).toStrictEqual(expected);
    expect(expected[1]).not.toHaveProperty('paymentsMade');
  });

  test('updateMembership changes only what the patch names and answers the membership after it', async () => {
    await setUp();
    const [id, other] = await ctx.store.createMemberships([
      ms(ann, multi.id, { paymentsMade: 1, billingPeriodEnd: T0 + 100, expiresAt: T0 + 900 }),
      ms(bob, multi.id, { paymentsMade: 1 }),
    ]);
    const [before, untouched] = (await ctx.store.listMemberships(ctx.a.id, {}, { limit: 10 })).items;
    const after = await ctx.store.updateMembership(ctx.a.id, id!, { paymentsMade: 2, billingPeriodEnd: T0 + 200, paymentFailure: true });
    expect(after).toStrictEqual({ ...before, paymentsMade: 2, billingPeriodEnd: T0 + 200, paymentFailure: true });
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, ann)).toStrictEqual([after]);
    expect(await ctx.store.updateMembership(ctx.a.id, id!, {})).toStrictEqual(after);
    const cancelled = await ctx.store.updateMembership(ctx.a.id, id!, { status: 'cancelled', cancelsAt: T0 + 300, paymentFailure: false });
    expect(cancelled).toStrictEqual({ ...after, status: 'cancelled', cancelsAt: T0 + 300, paymentFailure: false });
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, bob)).toStrictEqual([untouched]);
    expect(untouched?.id).toBe(other);
  });

  test('updateMembership moves a membership to another plan, sets or clears the billing it pays and a downgrade waiting for its period’s end', async () => {
    await setUp();
    const other = await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['subscription plan with a billing date and a signup fee']));
    const [id] = await ctx.store.createMemberships([ms(ann, sub.id, { billingPeriodEnd: T0 + 2 })]);
    const billing = { price: 9, currency: 'gbp', interval: { count: 1, unit: 'month' } } as const;
    const waiting = (await ctx.store.updateMembership(ctx.a.id, id!, { nextPlanId: other.id, billing }))!;
    expect(waiting).toMatchObject({ planId: sub.id, planPublicId: sub.publicId, nextPlanId: other.id, billing });
    const moved = (await ctx.store.updateMembership(ctx.a.id, id!, { planId: other.id, nextPlanId: null, billing: null }))!;
    expect(moved).toMatchObject({ planId: other.id, planPublicId: other.publicId, type: 'subscription', billingPeriodEnd: T0 + 2 });
    expect(moved).not.toHaveProperty('nextPlanId');
    expect(moved).not.toHaveProperty('billing');
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, ann)).toStrictEqual([moved]);
    expect((await ctx.store.listMemberships(ctx.a.id, { planId: other.id }, { limit: 10 })).items.map((m) => m.id)).toEqual([id]);
  });

  test('updateMembership with null clears a date: the field is absent afterwards', async () => {
    await setUp();
    const [id] = await ctx.store.createMemberships([
      ms(ann, sub.id, { cancelsAt: T0 + 1, billingPeriodEnd: T0 + 2, expiresAt: T0 + 3, paymentsMade: 4 }),
    ]);
    const after = (await ctx.store.updateMembership(ctx.a.id, id!, { cancelsAt: null, billingPeriodEnd: null }))!;
    expect(after).not.toHaveProperty('cancelsAt');
    expect(after).not.toHaveProperty('billingPeriodEnd');
    expect(after).toMatchObject({ expiresAt: T0 + 3, paymentsMade: 4 });
    const cleared = await ctx.store.updateMembership(ctx.a.id, id!, { expiresAt: null, cancelsAt: null });
    expect(cleared).not.toHaveProperty('expiresAt');
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, ann)).toStrictEqual([cleared]);
    // And the cleared dates no longer match a range filter.
    expect((await ctx.store.listMemberships(ctx.a.id, { billingPeriodEnd: { from: T0 } }, { limit: 10 })).items).toEqual([]);
  });

  test('updateMembership of an unknown membership, or of another site’s, answers undefined and changes nothing', async () => {
    await setUp();
    const [id] = await ctx.store.createMemberships([ms(ann, sub.id)]);
    const before = await ctx.store.listMembershipsOfMember(ctx.a.id, ann);
    expect(await ctx.store.updateMembership(ctx.b.id, id!, { status: 'cancelled' })).toBeUndefined();
    expect(await ctx.store.updateMembership(ctx.a.id, id! + 1000, { status: 'cancelled' })).toBeUndefined();
    expect(await ctx.store.updateMembership(ctx.a.id, id! + 1000, {})).toBeUndefined();
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, ann)).toStrictEqual(before);
  });

  test('a status change moves siteMetrics and planActiveMemberCounts at once, both ways', async () => {
    await setUp();
    const [annSub, bobSub] = await ctx.store.createMemberships([ms(ann, sub.id), ms(bob, sub.id)]);
    const counts = async () => ({
      metrics: await ctx.store.siteMetrics(ctx.a.id),
      plans: Object.fromEntries(await ctx.store.planActiveMemberCounts(ctx.a.id, [sub.id, multi.id])),
    });
    expect(await counts()).toEqual({
      metrics: { activeMemberCount: 2, freeMemberCount: 0, paidMemberCount: 2 },
      plans: { [sub.id]: 2, [multi.id]: 0 },
    });
    await ctx.store.updateMembership(ctx.a.id, annSub!, { status: 'cancelled' });
    expect(await counts()).toEqual({
      metrics: { activeMemberCount: 1, freeMemberCount: 0, paidMemberCount: 1 },
      plans: { [sub.id]: 1, [multi.id]: 0 },
    });
    await ctx.store.updateMembership(ctx.a.id, bobSub!, { status: 'expired' });
    expect(await counts()).toEqual({
      metrics: { activeMemberCount: 0, freeMemberCount: 0, paidMemberCount: 0 },
      plans: { [sub.id]: 0, [multi.id]: 0 },
    });
    await ctx.store.updateMembership(ctx.a.id, annSub!, { status: 'active' });
    expect(await counts()).toEqual({
      metrics: { activeMemberCount: 1, freeMemberCount: 0, paidMemberCount: 1 },
      plans: { [sub.id]: 1, [multi.id]: 0 },
    });
  });

  // The saved card.

  test('savePaymentMethod answers the saved card, and getPaymentMethod reads it back', async () => {
    await setUp();
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toBeUndefined();
    const input = card(ann, { brand: 'amex', last4: '0005', expMonth: 1, expYear: 2031 });
    const saved = await ctx.store.savePaymentMethod(input);
    expect(saved).toStrictEqual({ ...input, id: saved.id });
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toStrictEqual(saved);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, bob)).toBeUndefined();
    expect(await ctx.store.getPaymentMethod(ctx.b.id, ann)).toBeUndefined();
  });

  test('saving a card replaces the member’s previous one, with a new id, and no other member’s', async () => {
    await setUp();
    const first = await ctx.store.savePaymentMethod(card(ann));
    const bobs = await ctx.store.savePaymentMethod(card(bob, { processorId: 'pm_bob' }));
    const second = await ctx.store.savePaymentMethod(card(ann, { processorId: 'pm_2', brand: 'mastercard', last4: '4444', createdAt: T0 + 1 }));
    expect(second.id).not.toBe(first.id);
    expect(second.id).not.toBe(bobs.id);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toStrictEqual(second);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, bob)).toStrictEqual(bobs);
    // Saving the same card again is a replacement too.
    const again = await ctx.store.savePaymentMethod(card(ann, { processorId: 'pm_2', brand: 'mastercard', last4: '4444', createdAt: T0 + 2 }));
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toStrictEqual(again);
    expect([first.id, second.id]).not.toContain(again.id);
  });

  test('savePaymentMethod rejects an unknown site (siteId) or a member not in the site (memberId), and the saved card stays', async () => {
    await setUp();
    const saved = await ctx.store.savePaymentMethod(card(ann));
    await expectRejects(ctx.store.savePaymentMethod(card(ann, { siteId: ctx.b.id + 1000 })), MissingReferenceError, 'siteId');
    await expectRejects(ctx.store.savePaymentMethod(card(ann, { siteId: ctx.b.id })), MissingReferenceError, 'memberId');
    await expectRejects(ctx.store.savePaymentMethod(card(foreignMember)), MissingReferenceError, 'memberId');
    await expectRejects(ctx.store.savePaymentMethod(card(foreignMember + 1000)), MissingReferenceError, 'memberId');
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toStrictEqual(saved);
    expect(await ctx.store.getPaymentMethod(ctx.b.id, foreignMember)).toBeUndefined();
  });

  test('a caller changing a returned card or invoice does not change what the store holds', async () => {
    await setUp();
    const saved = await ctx.store.savePaymentMethod(card(ann));
    saved.last4 = '0000';
    (await ctx.store.getPaymentMethod(ctx.a.id, ann))!.last4 = '1111';
    expect((await ctx.store.getPaymentMethod(ctx.a.id, ann))?.last4).toBe('4242');
    const created = await ctx.store.createInvoice(invoice(ann, sub.id));
    created.totalCents = 1;
    (await ctx.store.listInvoicesOfMember(ctx.a.id, ann))[0]!.status = 'failed';
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, ann)).toStrictEqual([{ ...created, totalCents: 17460 }]);
  });

  // The invoice ledger.

  test('createInvoice answers the invoice; a failed first charge has no membershipId', async () => {
    await setUp();
    const failedInput = invoice(ann, sub.id, { status: 'failed', createdAt: T0 });
    const failed = await ctx.store.createInvoice(failedInput);
    expect(failed).toStrictEqual({ ...failedInput, id: failed.id });
    expect(failed).not.toHaveProperty('membershipId');
    const [membershipId] = await ctx.store.createMemberships([ms(ann, sub.id)]);
    const paidInput = invoice(ann, sub.id, { membershipId: membershipId!, createdAt: T0 + 1 });
    const paid = await ctx.store.createInvoice(paidInput);
    expect(paid).toStrictEqual({ ...paidInput, id: paid.id });
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, ann)).toStrictEqual([paid, failed]);
  });

  test('listInvoicesOfMember is newest first, then by id descending, and holds only that member’s invoices of that site', async () => {
    await setUp();
    const [annSub, bobSub] = await ctx.store.createMemberships([ms(ann, sub.id), ms(bob, sub.id)]);
    const at = async (createdAt: number, memberId = ann, membershipId = annSub!) =>
      (await ctx.store.createInvoice(invoice(memberId, sub.id, { membershipId, createdAt }))).id;
    const middle = await at(T0 + 1000);
    const newest = await at(T0 + 2000);
    const oldest = await at(T0);
    const tieFirst = await at(T0 + 1000);
    await at(T0 + 5000, bob, bobSub!);
    const [foreignSub] = await ctx.store.createMemberships([{ ...ms(foreignMember, foreignPlan.id), siteId: ctx.b.id }]);
    await ctx.store.createInvoice(invoice(foreignMember, foreignPlan.id, { siteId: ctx.b.id, membershipId: foreignSub!, createdAt: T0 + 9000 }));
    expect(await invoiceIds(ann)).toEqual([newest, tieFirst, middle, oldest]);
    expect(await invoiceIds(ann, ctx.b.id)).toEqual([]);
    expect(await invoiceIds(foreignMember)).toEqual([]);
    expect(await invoiceIds(ann + 1000)).toEqual([]);
  });

  test('a processor invoice id taken in the site is a ConflictError on processorInvoiceId; another site may have it', async () => {
    await setUp();
    await ctx.store.createInvoice(invoice(ann, sub.id, { processorInvoiceId: 'in_dup' }));
    const before = await ctx.store.listInvoicesOfMember(ctx.a.id, ann);
    await expectRejects(ctx.store.createInvoice(invoice(bob, sub.id, { processorInvoiceId: 'in_dup' })), ConflictError, 'processorInvoiceId');
    // A duplicate is reported before a bad reference.
    await expectRejects(
      ctx.store.createInvoice(invoice(foreignMember, sub.id, { processorInvoiceId: 'in_dup' })),
      ConflictError,
      'processorInvoiceId',
    );
    expect(await ctx.store.listInvoicesOfMember(ctx.a.id, ann)).toStrictEqual(before);
    expect(await invoiceIds(bob)).toEqual([]);
    const foreign = await ctx.store.createInvoice(invoice(foreignMember, foreignPlan.id, { siteId: ctx.b.id, processorInvoiceId: 'in_dup' }));
    expect(await ctx.store.listInvoicesOfMember(ctx.b.id, foreignMember)).toStrictEqual([foreign]);
  });

  test('createInvoice rejects a site, member, plan or membership that is not the site’s with MissingReferenceError, and adds nothing', async () => {
    await setUp();
    const [annSub, bobSub] = await ctx.store.createMemberships([ms(ann, sub.id), ms(bob, sub.id)]);
    const [foreignSub] = await ctx.store.createMemberships([{ ...ms(foreignMember, foreignPlan.id), siteId: ctx.b.id }]);
    const cases: [Partial<NewInvoice>, string][] = [
      [{ siteId: ctx.b.id + 1000 }, 'siteId'],
      [{ memberId: ann + 1000 }, 'memberId'],
      [{ memberId: foreignMember }, 'memberId'],
      [{ planId: sub.id + 1000 }, 'planId'],
      [{ planId: foreignPlan.id }, 'planId'],
      [{ membershipId: annSub! + 1000 }, 'membershipId'],
      [{ membershipId: foreignSub! }, 'membershipId'],
      // Another member's membership is not this invoice's.
      [{ membershipId: bobSub! }, 'membershipId'],
    ];
    for (const [extra, field] of cases) {
      await expectRejects(ctx.store.createInvoice(invoice(ann, sub.id, { membershipId: annSub!, ...extra })), MissingReferenceError, field);
    }
    expect(await invoiceIds(ann)).toEqual([]);
    expect(await invoiceIds(bob)).toEqual([]);
    expect(await invoiceIds(foreignMember, ctx.b.id)).toEqual([]);
    // The processor ids of the rejected invoices are still free.
    const ok = invoice(ann, sub.id, { membershipId: annSub!, processorInvoiceId: `in_${invoiceSerial}` });
    expect(await ctx.store.createInvoice(ok)).toStrictEqual({ ...ok, id: expect.any(Number) });
  });

  test('listMemberships with billable keeps only memberships of members with a processor customer', async () => {
    await setUp();
    const [annSub, bobSub] = await ctx.store.createMemberships([ms(ann, sub.id, { billingPeriodEnd: T0 }), ms(bob, sub.id, { billingPeriodEnd: T0 })]);
    const ids = async (filter: { billable?: boolean }) =>
      (await ctx.store.listMemberships(ctx.a.id, { status: 'active', ...filter }, { limit: 10 })).items.map((m) => m.id);
    expect(await ids({ billable: true })).toEqual([]);
    await ctx.store.updateMember(ctx.a.id, bob, { processorCustomerId: 'cus_1' });
    expect(await ids({ billable: true })).toEqual([bobSub]);
    expect(await ids({})).toEqual([annSub, bobSub]);
    // Another site's member with a customer does not count here.
    await ctx.store.updateMember(ctx.b.id, foreignMember, { processorCustomerId: 'cus_2' });
    expect(await ids({ billable: true })).toEqual([bobSub]);
  });


  test('listMemberships filters by cancels (when a cancelled-at-period-end subscription ends), from inclusive, to exclusive', async () => {
    await setUp();
    const [early, late, running] = await ctx.store.createMemberships([
      ms(ann, sub.id, { cancelsAt: T0 + 10 }),
      ms(bob, sub.id, { cancelsAt: T0 + 20 }),
      ms(ann, multi.id),
    ]);
    const ids = async (from?: number, to?: number) =>
      (await ctx.store.listMemberships(ctx.a.id, { cancels: { from, to } }, { limit: 10 })).items.map((m) => m.id);
    expect(await ids(undefined, T0 + 20)).toEqual([early]);
    expect(await ids(T0 + 10, T0 + 21)).toEqual([early, late]);
    expect(await ids()).toEqual([early, late, running]);
  });

}
