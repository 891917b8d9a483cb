/**
 * Contract: the billing batches, createInvoices and savePaymentMethods (the demo seed writes
 * hundreds of thousands of rows with them). A batch is one transaction, all rows or none, and
 * leaves what createInvoice and savePaymentMethod called one row at a time would have left.
 */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { InvoiceRecord, NewInvoice, NewPaymentMethod, PlanRecord } from '../../src/service/store/records';
import { type Ctx, PLAN_TERMS, T0, addMembers, expectRejects, newPlan } from './fixtures';

/** More than a statement's worth of rows on SQLite (100), with a part statement after them. */
const MANY = 250;

export function paymentBatchTests(ctx: Ctx): void {
  let sub: PlanRecord;
  let foreignPlan: PlanRecord;
  /** MANY members of site a. */
  let members: number[];
  let ann: number;
  let bob: number;
  let foreignMember: number;
  /** ann's and bob's memberships of `sub`, and one in site b. */
  let annSub: number;
  let bobSub: number;
  let foreignSub: number;

  async function setUp(): Promise<void> {
    sub = await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['subscription plan with a billing date and a signup fee']));
    foreignPlan = await ctx.store.createPlan(newPlan(ctx.b.id, {}, PLAN_TERMS['one-time payment plan with tax']));
    members = await addMembers(ctx.store, ctx.a.id, MANY);
    [ann, bob] = members as [number, number];
    [foreignMember] = (await addMembers(ctx.store, ctx.b.id, 1)) as [number];
    [annSub, bobSub] = (await ctx.store.createMemberships([
      { siteId: ctx.a.id, memberId: ann, planId: sub.id, status: 'active', createdAt: T0, paymentFailure: false },
      { siteId: ctx.a.id, memberId: bob, planId: sub.id, status: 'active', createdAt: T0, paymentFailure: false },
    ])) as [number, number];
    [foreignSub] = (await ctx.store.createMemberships([
      { siteId: ctx.b.id, memberId: foreignMember, planId: foreignPlan.id, status: 'active', createdAt: T0, paymentFailure: false },
    ])) as [number];
  }
  let serial = 0;
  const invoice = (memberId: number, extra: Partial<NewInvoice> = {}): NewInvoice => ({
    siteId: ctx.a.id, memberId, planId: sub.id, processorInvoiceId: `in_b${++serial}`, processorChargeId: `ch_b${serial}`,
    subTotalCents: 14550, taxCents: 2910, totalCents: 17460, currency: 'gbp', status: 'paid', description: 'Gold',
    createdAt: T0 + serial, ...extra,
  });
  const card = (memberId: number, extra: Partial<NewPaymentMethod> = {}): NewPaymentMethod => ({
    siteId: ctx.a.id, memberId, processorId: `pm_${memberId}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030,
    createdAt: T0, ...extra,
  });
  /** Every invoice of site a's members (oldest id first). */
  const allInvoices = async (): Promise<InvoiceRecord[]> => {
    const found: InvoiceRecord[] = [];
    for (const memberId of members) found.push(...(await ctx.store.listInvoicesOfMember(ctx.a.id, memberId)));
    return found.sort((x, y) => x.id - y.id);
  };

  // createInvoices.

  test('createInvoices writes every invoice, read back as given with ids in input order, after the ones before', async () => {
    await setUp();
    const before = await ctx.store.createInvoice(invoice(ann, { membershipId: annSub }));
    // Several statements' worth, a failed first charge without a membership among them.
    const batch = [
      invoice(ann, { membershipId: annSub }),
      invoice(bob, { status: 'failed' }),
      ...members.map((memberId, i) => invoice(memberId, { status: i % 3 === 0 ? 'failed' : 'paid', ...(memberId === bob && { membershipId: bobSub }) })),
    ];
    await ctx.store.createInvoices(batch);
    const written = (await allInvoices()).filter((i) => i.id !== before.id);
    expect(written).toHaveLength(batch.length);
    expect(written[0]!.id).toBeGreaterThan(before.id);
    expect(written).toStrictEqual(batch.map((input, k) => ({ ...input, id: written[k]!.id })));
    expect(written.find((i) => i.memberId === bob && i.status === 'failed')).not.toHaveProperty('membershipId');
    // The member's list, newest first, holds them with the one-row invoice.
    expect((await ctx.store.listInvoicesOfMember(ctx.a.id, ann)).map((i) => i.processorInvoiceId)).toEqual(
      [batch[2]!, batch[0]!, before].map((i) => i.processorInvoiceId),
    );
    // The processor ids are taken now, and the next invoice comes after them.
    await expectRejects(ctx.store.createInvoice(invoice(ann, { processorInvoiceId: batch.at(-1)!.processorInvoiceId })), ConflictError, 'processorInvoiceId');
    expect((await ctx.store.createInvoice(invoice(ann))).id).toBeGreaterThan(written.at(-1)!.id);
  });

  test('createInvoices of no invoices writes nothing', async () => {
    await setUp();
    await ctx.store.createInvoices([]);
    expect(await allInvoices()).toEqual([]);
    const first = await ctx.store.createInvoice(invoice(ann));
    await ctx.store.createInvoices([]);
    expect(await allInvoices()).toStrictEqual([first]);
  });

  test('a batch of invoices with one bad row writes none of them, and throws what createInvoice throws for that row', async () => {
    await setUp();
    const kept = await ctx.store.createInvoice(invoice(ann, { processorInvoiceId: 'in_kept' }));
    const cases: [Partial<NewInvoice>, typeof ConflictError | typeof MissingReferenceError, string][] = [
      [{ siteId: ctx.b.id + 1000 }, MissingReferenceError, 'siteId'],
      [{ memberId: members.at(-1)! + 1000 }, MissingReferenceError, 'memberId'],
      [{ memberId: foreignMember }, MissingReferenceError, 'memberId'],
      [{ planId: sub.id + 1000 }, MissingReferenceError, 'planId'],
      [{ planId: foreignPlan.id }, MissingReferenceError, 'planId'],
      [{ membershipId: foreignSub }, MissingReferenceError, 'membershipId'],
      // Another member's membership is not this invoice's.
      [{ membershipId: bobSub }, MissingReferenceError, 'membershipId'],
      [{ processorInvoiceId: 'in_kept' }, ConflictError, 'processorInvoiceId'],
    ];
    for (const [extra, type, field] of cases) {
      // The bad row first, in the middle, and last of more than a statement's worth of rows.
      for (const at of [0, 120, MANY]) {
        const batch = members.map((memberId) => invoice(memberId));
        batch.splice(at, 0, invoice(ann, { membershipId: annSub, ...extra }));
        await expectRejects(ctx.store.createInvoices(batch), type, field);
      }
    }
    expect(await allInvoices()).toStrictEqual([kept]);
    expect(await ctx.store.listInvoicesOfMember(ctx.b.id, foreignMember)).toEqual([]);
  });

  test('a processor invoice id twice in one batch is a ConflictError, and neither is written', async () => {
    await setUp();
    const batch = members.map((memberId) => invoice(memberId));
    batch.push(invoice(bob, { processorInvoiceId: batch[150]!.processorInvoiceId }));
    await expectRejects(ctx.store.createInvoices(batch), ConflictError, 'processorInvoiceId');
    expect(await allInvoices()).toEqual([]);
    // Another site may have it, in the same batch.
    const shared = invoice(ann);
    await ctx.store.createInvoices([shared, { ...shared, siteId: ctx.b.id, memberId: foreignMember, planId: foreignPlan.id }]);
    expect((await ctx.store.listInvoicesOfMember(ctx.b.id, foreignMember)).map((i) => i.processorInvoiceId)).toEqual([shared.processorInvoiceId]);
  });

  test('of several bad rows, the first is the one reported: a duplicate before a bad reference in one row, as createInvoice', async () => {
    await setUp();
    const ok = invoice(ann);
    // A bad member in row 2, a duplicate in row 3: the member.
    await expectRejects(
      ctx.store.createInvoices([ok, invoice(ann, { memberId: foreignMember }), invoice(bob, { processorInvoiceId: ok.processorInvoiceId })]),
      MissingReferenceError,
      'memberId',
    );
    // Row 2 both a duplicate and of a member not in the site: the duplicate.
    await expectRejects(
      ctx.store.createInvoices([ok, invoice(ann, { memberId: foreignMember, processorInvoiceId: ok.processorInvoiceId })]),
      ConflictError,
      'processorInvoiceId',
    );
    expect(await allInvoices()).toEqual([]);
  });

  // savePaymentMethods.

  test('savePaymentMethods saves every card, read back as given, with ids after the cards saved before', async () => {
    await setUp();
    const before = await ctx.store.savePaymentMethod(card(ann));
    const batch = members.slice(1).map((memberId, i) => card(memberId, { brand: i % 2 ? 'mastercard' : 'visa', last4: String(1000 + i), createdAt: T0 + i }));
    await ctx.store.savePaymentMethods(batch);
    const saved = await Promise.all(members.slice(1).map((memberId) => ctx.store.getPaymentMethod(ctx.a.id, memberId)));
    expect(saved).toStrictEqual(batch.map((input, k) => ({ ...input, id: saved[k]!.id })));
    const ids = saved.map((s) => s!.id);
    expect(ids[0]).toBeGreaterThan(before.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toStrictEqual(before);
    expect(await ctx.store.getPaymentMethod(ctx.b.id, foreignMember)).toBeUndefined();
  });

  test('a card in a batch replaces the member’s saved card, and a later row for the same member the earlier, with new ids', async () => {
    await setUp();
    const first = await ctx.store.savePaymentMethod(card(ann));
    const bobs = await ctx.store.savePaymentMethod(card(bob));
    const annNew = card(ann, { processorId: 'pm_ann_2', createdAt: T0 + 1 });
    const annLast = card(ann, { processorId: 'pm_ann_3', createdAt: T0 + 2 });
    const third = members[2]!;
    await ctx.store.savePaymentMethods([annNew, card(third), annLast]);
    const ann3 = (await ctx.store.getPaymentMethod(ctx.a.id, ann))!;
    const thirds = (await ctx.store.getPaymentMethod(ctx.a.id, third))!;
    expect(ann3).toStrictEqual({ ...annLast, id: ann3.id });
    expect(thirds).toStrictEqual({ ...card(third), id: thirds.id });
    // As three savePaymentMethod calls: each takes the next id, none reused.
    expect(thirds.id).toBeGreaterThan(bobs.id);
    expect(ann3.id).toBeGreaterThan(thirds.id);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, bob)).toStrictEqual(bobs);
    expect((await ctx.store.savePaymentMethod(card(bob))).id).toBeGreaterThan(ann3.id);
    expect(first.id).toBeLessThan(bobs.id);
  });

  test('savePaymentMethods of no cards changes nothing', async () => {
    await setUp();
    await ctx.store.savePaymentMethods([]);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toBeUndefined();
    const saved = await ctx.store.savePaymentMethod(card(ann));
    await ctx.store.savePaymentMethods([]);
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toStrictEqual(saved);
  });

  test('a batch of cards with one bad row saves none of them, and the saved cards stay', async () => {
    await setUp();
    const saved = await ctx.store.savePaymentMethod(card(ann));
    const cases: [Partial<NewPaymentMethod>, string][] = [
      [{ siteId: ctx.b.id + 1000 }, 'siteId'],
      [{ siteId: ctx.b.id }, 'memberId'],
      [{ memberId: foreignMember }, 'memberId'],
      [{ memberId: members.at(-1)! + 1000 }, 'memberId'],
    ];
    for (const [extra, field] of cases) {
      for (const at of [0, 120, MANY]) {
        // ann's card would be replaced by the batch's first row.
        const batch = members.map((memberId) => card(memberId, { processorId: `pm_new_${memberId}` }));
        batch.splice(at, 0, card(bob, extra));
        await expectRejects(ctx.store.savePaymentMethods(batch), MissingReferenceError, field);
      }
    }
    expect(await ctx.store.getPaymentMethod(ctx.a.id, ann)).toStrictEqual(saved);
    for (const memberId of members.slice(1)) expect(await ctx.store.getPaymentMethod(ctx.a.id, memberId)).toBeUndefined();
    expect(await ctx.store.getPaymentMethod(ctx.b.id, foreignMember)).toBeUndefined();
    expect((await ctx.store.savePaymentMethod(card(bob))).id).toBeGreaterThan(saved.id);
  });
}
