/**
 * Contract: what the owner's actions read and write (issue 32). A membership and an invoice by
 * id, the ledger's page and filters, a comp membership and a member's status as written, the test
 * processor forgetting a customer and taking a history's charges, and erasing a member: their
 * personal data, sessions, tokens, card, views and mail gone in one write, the row and the ledger
 * kept, every other member untouched.
 */
import { expect, test } from 'vitest';
import type { NewInvoice, NewMail } from '../../src/service/store/records';
import { type Ctx, PLAN_TERMS, T0, newMember, newPlan } from './fixtures';

export function ownerTests(ctx: Ctx): void {
  const DAY = 86_400_000;
  let serial = 0;
  async function memberWithPlan(siteId: number, email: string) {
    const plan = await ctx.store.createPlan(newPlan(siteId, {}, PLAN_TERMS['one-time payment plan with tax']));
    const [memberId] = await ctx.store.createMembers([
      newMember(siteId, email, { firstName: 'Ann', lastName: 'Lee', processorCustomerId: `cus_${email}`, emailConfirmedAt: T0, passwordHash: 'scrypt$x' }),
    ]);
    return { plan, memberId: memberId! };
  }
  const invoice = (siteId: number, memberId: number, planId: number, extra: Partial<NewInvoice> = {}): NewInvoice => ({
    siteId, memberId, planId, processorInvoiceId: `in_${++serial}`, processorChargeId: `ch_${serial}`, subTotalCents: 1000, taxCents: 0,
    totalCents: 1000, currency: 'usd', status: 'paid', description: 'Gold', createdAt: T0 + serial, ...extra,
  });
  const mail = (siteId: number, to: string): NewMail => ({ siteId, kind: 'welcome', to, subject: 'Hi', text: 'Hello', createdAt: T0 });

  test('getMembership and getInvoice answer the site\'s rows only; a comp membership reads back marked', async () => {
    const { plan, memberId } = await memberWithPlan(ctx.a.id, 'ann@example.com');
    const [paid, comp] = await ctx.store.createMemberships([
      { siteId: ctx.a.id, memberId, planId: plan.id, status: 'active', createdAt: T0, paymentFailure: false },
      { siteId: ctx.a.id, memberId, planId: plan.id, status: 'active', createdAt: T0, paymentFailure: false, comp: true, expiresAt: T0 + DAY },
    ]);
    expect((await ctx.store.getMembership(ctx.a.id, paid!))?.comp).toBeUndefined();
    expect(await ctx.store.getMembership(ctx.a.id, comp!)).toMatchObject({ id: comp, comp: true, expiresAt: T0 + DAY, planPublicId: plan.publicId });
    expect((await ctx.store.listMemberships(ctx.a.id, { memberId }, { limit: 10 })).items.map((m) => m.comp)).toEqual([undefined, true]);
    expect(await ctx.store.getMembership(ctx.b.id, comp!)).toBeUndefined();
    const made = await ctx.store.createInvoice(invoice(ctx.a.id, memberId, plan.id));
    expect(await ctx.store.getInvoice(ctx.a.id, made.id)).toStrictEqual(made);
    expect(await ctx.store.getInvoice(ctx.b.id, made.id)).toBeUndefined();
    expect(await ctx.store.getInvoice(ctx.a.id, made.id + 999)).toBeUndefined();
  });

  test('listInvoices pages the site\'s ledger by id, filtered by member, status and creation time', async () => {
    const { plan, memberId: ann } = await memberWithPlan(ctx.a.id, 'ann@example.com');
    const { memberId: bob } = await memberWithPlan(ctx.a.id, 'bob@example.com');
    const { plan: theirPlan, memberId: theirs } = await memberWithPlan(ctx.b.id, 'cy@example.com');
    const made = [];
    for (const [memberId, status] of [[ann, 'paid'], [bob, 'failed'], [ann, 'failed'], [bob, 'paid'], [ann, 'paid']] as const) {
      made.push(await ctx.store.createInvoice(invoice(ctx.a.id, memberId, plan.id, { status })));
      await ctx.store.createInvoice(invoice(ctx.b.id, theirs, theirPlan.id));
    }
    const ids = (items: { id: number }[]) => items.map((i) => i.id);
    const first = await ctx.store.listInvoices(ctx.a.id, {}, { limit: 3 });
    expect(first.hasMore).toBe(true);
    const rest = await ctx.store.listInvoices(ctx.a.id, {}, { limit: 3, afterId: first.items[2]!.id });
    expect([...ids(first.items), ...ids(rest.items)]).toEqual(ids(made));
    expect(rest.hasMore).toBe(false);
    expect(ids((await ctx.store.listInvoices(ctx.a.id, { memberId: ann }, { limit: 10 })).items)).toEqual(ids([made[0]!, made[2]!, made[4]!]));
    expect(ids((await ctx.store.listInvoices(ctx.a.id, { status: 'failed' }, { limit: 10 })).items)).toEqual(ids([made[1]!, made[2]!]));
    const window = { from: made[1]!.createdAt, to: made[3]!.createdAt };
    expect(ids((await ctx.store.listInvoices(ctx.a.id, { created: window }, { limit: 10 })).items)).toEqual(ids([made[1]!, made[2]!]));
  });

  test('updateMember sets a member\'s status (block, unblock)', async () => {
    const { memberId } = await memberWithPlan(ctx.a.id, 'ann@example.com');
    expect((await ctx.store.updateMember(ctx.a.id, memberId, { status: 'blocked' }))?.status).toBe('blocked');
    expect((await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com'))?.status).toBe('blocked');
    expect((await ctx.store.updateMember(ctx.a.id, memberId, { status: 'approved' }))?.status).toBe('approved');
  });

  test('eraseMember leaves the row with an address that is no one\'s and nothing personal; the ledger and other members stay', async () => {
    const { plan, memberId } = await memberWithPlan(ctx.a.id, 'ann@example.com');
    const { memberId: bob } = await memberWithPlan(ctx.a.id, 'bob@example.com');
    const fields = await ctx.store.createSignupFields([{ siteId: ctx.a.id, type: 'text', label: 'City', required: false, position: 0 }]);
    for (const id of [memberId, bob]) {
      await ctx.store.updateMember(ctx.a.id, id, { signupValues: [{ fieldId: fields[0]!, value: 'Oslo' }] });
      await ctx.store.updateMemberMetadata(ctx.a.id, id, () => ({ note: 'x' }));
      await ctx.store.createSession({ siteId: ctx.a.id, memberId: id, tokenHash: `hash-${id}`, createdAt: T0, lastUsedAt: T0, expiresAt: T0 + DAY });
      await ctx.store.savePaymentMethod({ siteId: ctx.a.id, memberId: id, processorId: `pm_${id}`, brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030, createdAt: T0 });
    }
    await ctx.store.createMemberEvents([
      { siteId: ctx.a.id, memberId, eventType: 'emailChanged', details: { from: 'old@example.com', to: 'ann@example.com' }, createdAt: T0 },
      { siteId: ctx.a.id, memberId, eventType: 'login', details: {}, createdAt: T0 },
    ]);
    const [toOld, toNow, toBob] = await ctx.store.queueMail([mail(ctx.a.id, 'old@example.com'), mail(ctx.a.id, 'ann@example.com'), mail(ctx.a.id, 'bob@example.com')]);
    const [otherSites] = await ctx.store.queueMail([mail(ctx.b.id, 'ann@example.com')]);
    const ledger = await ctx.store.createInvoice(invoice(ctx.a.id, memberId, plan.id));

    const erased = await ctx.store.eraseMember(ctx.a.id, memberId, `erased-${memberId}@erased.invalid`);
    expect(erased).toStrictEqual({ id: memberId, siteId: ctx.a.id, email: `erased-${memberId}@erased.invalid`, status: 'erased', createdAt: T0 });
    expect(await ctx.store.getMember(ctx.a.id, memberId)).toStrictEqual(erased);
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toBeUndefined();
    expect((await ctx.store.findMemberLogin(ctx.a.id, `erased-${memberId}@erased.invalid`))?.passwordHash).toBeUndefined();
    expect(await ctx.store.listSignupValues(ctx.a.id, memberId)).toEqual([]);
    expect(await ctx.store.getMemberMetadata(ctx.a.id, memberId)).toEqual({});
    expect(await ctx.store.findSessionByHash(`hash-${memberId}`)).toBeUndefined();
    expect(await ctx.store.getPaymentMethod(ctx.a.id, memberId)).toBeUndefined();
    expect(await ctx.store.getMail(toOld!)).toBeUndefined();
    expect(await ctx.store.getMail(toNow!)).toBeUndefined();
    const events = (await ctx.store.listMemberEvents(ctx.a.id, { memberId }, { limit: 10 })).items;
    expect(events.map((e) => [e.eventType, e.details])).toEqual([['emailChanged', {}], ['login', {}]]);
    expect(await ctx.store.getInvoice(ctx.a.id, ledger.id)).toStrictEqual(ledger);

    // Bob, and the other site's mail to the same address, are as they were.
    expect((await ctx.store.getMember(ctx.a.id, bob))?.firstName).toBe('Ann');
    expect(await ctx.store.listSignupValues(ctx.a.id, bob)).toHaveLength(1);
    expect(await ctx.store.getMemberMetadata(ctx.a.id, bob)).toEqual({ note: 'x' });
    expect(await ctx.store.findSessionByHash(`hash-${bob}`)).toBeDefined();
    expect(await ctx.store.getPaymentMethod(ctx.a.id, bob)).toBeDefined();
    expect(await ctx.store.getMail(toBob!)).toBeDefined();
    expect(await ctx.store.getMail(otherSites!)).toBeDefined();
    // The old address is free for someone new.
    await expect(ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')])).resolves.toHaveLength(1);
  });

  test('eraseMember of an unknown member, or of another site\'s, answers undefined and changes nothing', async () => {
    const { memberId } = await memberWithPlan(ctx.a.id, 'ann@example.com');
    expect(await ctx.store.eraseMember(ctx.b.id, memberId, 'erased@erased.invalid')).toBeUndefined();
    expect(await ctx.store.eraseMember(ctx.a.id, 999_999, 'erased@erased.invalid')).toBeUndefined();
    expect((await ctx.store.getMember(ctx.a.id, memberId))?.email).toBe('ann@example.com');
  });

  test('the test processor forgets a customer and their cards, keeps their charges, and takes a history\'s charges in one batch', async () => {
    await ctx.store.createTestProcessorCustomers([{ id: 'cus_test_a', email: 'a@example.com', name: 'A', createdAt: T0 }]);
    await ctx.store.addTestProcessorCards([{ id: 'pm_test_ok_a', customerId: 'cus_test_a', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030, createdAt: T0 }]);
    const charge = {
      invoiceId: 'in_test_a', chargeId: 'ch_test_a', customerId: 'cus_test_a', cardId: 'pm_test_ok_a', amountCents: 500, currency: 'usd',
      description: 'Gold', status: 'paid' as const, createdAt: T0,
    };
    await ctx.store.addTestProcessorCharges([charge, { ...charge, invoiceId: 'in_test_b', chargeId: 'ch_test_b', status: 'failed', declineCode: 'card_declined' }]);
    expect((await ctx.store.listTestProcessorCharges('cus_test_a')).map((c) => c.chargeId)).toEqual(['ch_test_a', 'ch_test_b']);
    await expect(ctx.store.addTestProcessorCharges([{ ...charge, invoiceId: 'in_test_c' }])).rejects.toThrow();
    expect(await ctx.store.listTestProcessorCharges('cus_test_a')).toHaveLength(2);

    expect(await ctx.store.deleteTestProcessorCustomer('cus_test_a')).toBe(true);
    expect(await ctx.store.getTestProcessorCustomer('cus_test_a')).toBeUndefined();
    expect(await ctx.store.listTestProcessorCards('cus_test_a')).toEqual([]);
    expect(await ctx.store.listTestProcessorCharges('cus_test_a')).toHaveLength(2);
    expect(await ctx.store.deleteTestProcessorCustomer('cus_test_a')).toBe(false);
  });
}
