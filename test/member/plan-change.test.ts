/**
 * GET /memberships/{id}/change?plan=…: what changing a running subscription to another plan would
 * do (docs/decisions/0036-changing-plans.md), on every store. The arithmetic's cases are
 * test/unit/plan-change.test.ts's; here, the routes: whose membership, which plan, the member's own
 * price, the refusals, and the change itself (now, or at the period's end through the renewal).
 */
import { expect, test } from 'vitest';
import type { Membership, PaymentActionRequired, PlanChangeQuote, SessionResponse } from '../../src/contract/member';
import { runRenewals } from '../../src/service/billing/renewals';
import { definePlan } from '../../src/service/domain/plans';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, putCard, testCard, type MemberCtx } from './support';

const OK_CARD = { cardNumber: '4242424242424242', cardExpiry: '12/34', cardCvc: '123' };
const ASKS_ON_SESSION = { cardNumber: '4000002500003155', cardExpiry: '12/34', cardCvc: '123' };
const ALWAYS_ASKS = { cardNumber: '4000000000003220', cardExpiry: '12/34', cardCvc: '123' };

const DAY = 86_400_000;

/** Ada's monthly membership ($12 a month) and her session. */
async function adaMonthly(ctx: MemberCtx): Promise<{ session: SessionResponse; monthly: Membership }> {
  const session = await ctx.session(ADA);
  const monthly = session.memberInfo.memberships.find((m) => m.publicPlanId === 'monthly' && m.status === 'active')!;
  return { session, monthly };
}

const post = (ctx: MemberCtx, token: string, id: number | string, json: Record<string, unknown>) =>
  ctx.authed(token, `${BASE}/memberships/${id}/change`, { method: 'POST', json });

const confirm = (ctx: MemberCtx, token: string, id: number, intentId: string) =>
  ctx.authed(token, `${BASE}/memberships/${id}/change/confirm`, { method: 'POST', json: { intentId } });

/** The test bank's window, answered. */
const answer = async (ctx: MemberCtx, token: string, asked: PaymentActionRequired['requiresAction'], approve: boolean) =>
  jsonOf(await ctx.authed(token, `${BASE}/test-payment-intents/${asked.intentId}`, { method: 'POST', json: { clientSecret: asked.clientSecret, approve } }), 200);

const change = (ctx: MemberCtx, token: string, id: number | string, plan?: string) =>
  ctx.authed(token, `${BASE}/memberships/${id}/change${plan === undefined ? '' : `?plan=${encodeURIComponent(plan)}`}`);

forEachStore((fresh) => {
  test('a dearer plan is an upgrade, now: the days left credited, the new price with its tax due, the next charge a period from now', async () => {
    const ctx = await fresh();
    const pro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' }, taxPercentage: 10 },
    });
    const { session, monthly } = await adaMonthly(ctx);
    const quote = await jsonOf<PlanChangeQuote>(await change(ctx, session.token, monthly.id, pro.publicId), 200);
    expect(quote.when).toBe('now');
    expect(quote.currency).toBe('usd');
    // Some of the $12 paid for this period is left, and never more than was paid.
    expect(quote.creditCents).toBeGreaterThan(0);
    expect(quote.creditCents).toBeLessThanOrEqual(1200);
    expect(quote.dueNow.subTotalCents).toBe(4000 - quote.creditCents);
    expect(quote.dueNow.taxCents).toBe(Math.round(quote.dueNow.subTotalCents / 10));
    expect(quote.next.amountCents).toBe(4400);
    expect(Date.parse(quote.next.at)).toBeGreaterThan(ctx.now() + 27 * DAY);
    // A plan is named by its key as well.
    expect(await jsonOf(await change(ctx, session.token, monthly.id, pro.key), 200)).toEqual(quote);
  });

  test('a cheaper plan is a downgrade, at the period’s end: nothing due now, the new price from the renewal', async () => {
    const ctx = await fresh();
    const lite = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Lite', type: 'subscription', billing: { price: 5, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    const quote = await jsonOf<PlanChangeQuote>(await change(ctx, session.token, monthly.id, lite.publicId), 200);
    expect(quote).toEqual({ when: 'periodEnd', currency: 'usd', creditCents: 0, dueNow: { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 }, next: { amountCents: 500, at: monthly.billingPeriodEnd } });
  });

  test('refused: an instalment plan to change to, the plan itself, another currency (409); another member’s membership, an unknown plan (404); no plan named (400)', async () => {
    const ctx = await fresh();
    const euro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Euro', type: 'subscription', billing: { price: 12, currency: 'eur', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    for (const plan of ['course3', 'monthly', euro.publicId, 'lifetime']) {
      await expectError(await change(ctx, session.token, monthly.id, plan), 409, 'notChangeable', 'plan');
    }
    await expectError(await change(ctx, session.token, monthly.id, 'no-such-plan'), 404, 'notFound', 'plan');
    await expectError(await change(ctx, session.token, monthly.id), 400, 'invalidField', 'plan');
    await expectError(await change(ctx, session.token, '0372', 'monthly'), 400, 'invalidField', 'id');
    const grace = await ctx.session(GRACE);
    await expectError(await change(ctx, grace.token, monthly.id, 'course3'), 404, 'notFound', 'id');
    // The change itself refuses the same, and changes nothing.
    await expectError(await post(ctx, session.token, monthly.id, { plan: 'course3' }), 409, 'notChangeable', 'plan');
    await expectError(await ctx.authed(session.token, `${BASE}/memberships/${monthly.id}/change`, { method: 'PUT', json: {} }), 405, 'methodNotAllowed');
    expect((await ctx.store.listMembershipsOfMember(ctx.demo.site.id, session.memberInfo.id)).find((m) => m.id === monthly.id)).toMatchObject({ planPublicId: 'monthly' });
  });

  test('POST: an upgrade charges what the quote said, moves the membership now with a new period, and the ledger and events say so', async () => {
    const ctx = await fresh();
    const pro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    const quote = await jsonOf<PlanChangeQuote>(await change(ctx, session.token, monthly.id, pro.publicId), 200);
    // The seeded Ada has no card saved: one given with the change pays (and is saved).
    const paymentMethodId = await testCard(ctx, session.token, OK_CARD);
    const changed = await jsonOf<Membership>(await post(ctx, session.token, monthly.id, { plan: pro.publicId, paymentMethodId }), 200);
    expect(changed).toMatchObject({ id: monthly.id, publicPlanId: pro.publicId, name: 'Pro', status: 'active', billingPeriodEnd: quote.next.at });
    const record = (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, session.memberInfo.id)).find((m) => m.id === monthly.id)!;
    expect(record).toMatchObject({ planId: pro.id, billingPeriodEnd: Date.parse(quote.next.at) });
    expect(record).not.toHaveProperty('billing');
    const invoices = await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id);
    expect(invoices.at(-1)).toMatchObject({
      planId: pro.id, membershipId: monthly.id, status: 'paid', description: 'Pro (from Monthly)',
      subTotalCents: quote.dueNow.subTotalCents, taxCents: quote.dueNow.taxCents, totalCents: quote.dueNow.grandTotalCents,
    });
    const events = (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: session.memberInfo.id }, { limit: 100 })).items;
    expect(events.filter((e) => e.eventType === 'planChanged').map((e) => e.details)).toEqual([
      { membershipId: monthly.id, fromPlanId: monthly.planId, toPlanId: pro.id, when: 'now', invoiceId: invoices.at(-1)!.processorInvoiceId },
    ]);
    // The same again: on Pro already.
    await expectError(await post(ctx, session.token, monthly.id, { plan: pro.publicId }), 409, 'notChangeable', 'plan');
  });

  test('POST: a declined upgrade changes nothing but a failed invoice in the ledger (402)', async () => {
    const ctx = await fresh();
    const pro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    const paymentMethodId = await testCard(ctx, session.token, { cardNumber: '4000000000000341', cardExpiry: '12/34', cardCvc: '123' });
    await expectError(await post(ctx, session.token, monthly.id, { plan: pro.publicId, paymentMethodId }), 402, 'paymentDeclined');
    const record = (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, session.memberInfo.id)).find((m) => m.id === monthly.id)!;
    expect(record.planPublicId).toBe('monthly');
    expect(record.billingPeriodEnd).toBe(Date.parse(monthly.billingPeriodEnd!));
    expect((await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).at(-1)).toMatchObject({ status: 'failed', description: 'Pro (from Monthly)', planId: pro.id });
  });

  test('POST: a downgrade waits for the period’s end; the renewal then charges the new plan and moves the membership to it', async () => {
    const ctx = await fresh();
    const lite = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Lite', type: 'subscription', billing: { price: 5, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    // A card to renew with (the seeded Ada has none).
    expect((await putCard(ctx, session.token, OK_CARD)).status).toBe(200);
    const invoicesBefore = (await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).length;
    const waiting = await jsonOf<Membership>(await post(ctx, session.token, monthly.id, { plan: lite.key }), 200);
    // Still Monthly until the period paid for ends; nothing charged.
    expect(waiting).toMatchObject({ publicPlanId: 'monthly', billingPeriodEnd: monthly.billingPeriodEnd, nextPlanId: lite.id, nextPlanName: 'Lite' });
    // The member's state says so as well (spec 2.7's MemberInfo, GET /me).
    const before = await jsonOf<{ memberships: Membership[] }>(await ctx.authed(session.token, `${BASE}/me`), 200);
    expect(before.memberships.find((m) => m.id === monthly.id)).toMatchObject({ nextPlanId: lite.id, nextPlanName: 'Lite' });
    const mine = async () => (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, session.memberInfo.id)).find((m) => m.id === monthly.id)!;
    expect(await mine()).toMatchObject({ nextPlanId: lite.id, planPublicId: 'monthly' });
    expect((await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).length).toBe(invoicesBefore);

    ctx.advance(Date.parse(monthly.billingPeriodEnd!) - ctx.now() + 1000);
    await runRenewals({ store: ctx.store, clock: ctx.now, processor: new TestPaymentProcessor({ clock: ctx.now, store: ctx.store }) });
    const after = await mine();
    expect(after).toMatchObject({ planId: lite.id, status: 'active', paymentFailure: false });
    expect(after).not.toHaveProperty('nextPlanId');
    expect(after.billingPeriodEnd).toBeGreaterThan(ctx.now());
    // A month on: a session of today.
    const { memberInfo: moved } = await ctx.session(ADA);
    expect(moved.memberships.find((m) => m.id === monthly.id)).toMatchObject({ publicPlanId: lite.publicId, name: 'Lite' });
    expect(moved.memberships.find((m) => m.id === monthly.id)).not.toHaveProperty('nextPlanName');
    expect((await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).at(-1)).toMatchObject({ planId: lite.id, status: 'paid', totalCents: 500 });
    const applied = (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: session.memberInfo.id }, { limit: 100 })).items.filter((e) => e.eventType === 'planChanged');
    expect(applied.map((e) => [e.details.when, e.details.applied])).toEqual([['periodEnd', undefined], ['periodEnd', true]]);
  });

  test('POST: cancelling after a downgrade was asked for clears it; asking for a downgrade lifts a cancellation', async () => {
    const ctx = await fresh();
    const lite = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Lite', type: 'subscription', billing: { price: 5, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    const mine = async () => (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, session.memberInfo.id)).find((m) => m.id === monthly.id)!;
    await jsonOf(await post(ctx, session.token, monthly.id, { plan: lite.publicId }), 200);
    await jsonOf(await ctx.authed(session.token, `${BASE}/memberships/${monthly.id}/cancel`, { method: 'POST' }), 200);
    expect(await mine()).not.toHaveProperty('nextPlanId');
    expect((await mine()).cancelsAt).toBeDefined();
    await jsonOf(await post(ctx, session.token, monthly.id, { plan: lite.publicId }), 200);
    expect(await mine()).toMatchObject({ nextPlanId: lite.id });
    expect(await mine()).not.toHaveProperty('cancelsAt');
  });

  test('POST during a trial: the change is now and free, the trial’s end stays, and the new price is what the trial’s end charges', async () => {
    const ctx = await fresh();
    const trial = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Starter', type: 'subscription', billing: { price: 10, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 14 },
    });
    const pro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const session = await ctx.session(GRACE);
    const joined = await jsonOf<{ membership: Membership }>(
      await ctx.authed(session.token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId: trial.publicId, paymentMethodId: await testCard(ctx, session.token, OK_CARD) } }),
      201,
    );
    const invoicesBefore = (await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).length;
    const quote = await jsonOf<PlanChangeQuote>(await change(ctx, session.token, joined.membership.id, pro.publicId), 200);
    expect(quote).toEqual({ when: 'now', currency: 'usd', creditCents: 0, dueNow: { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 }, next: { amountCents: 4000, at: joined.membership.billingPeriodEnd } });
    const changed = await jsonOf<Membership>(await post(ctx, session.token, joined.membership.id, { plan: pro.publicId }), 200);
    expect(changed).toMatchObject({ publicPlanId: pro.publicId, billingPeriodEnd: joined.membership.billingPeriodEnd });
    expect((await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).length).toBe(invoicesBefore);
    // The trial's end charges Pro's price.
    ctx.advance(Date.parse(joined.membership.billingPeriodEnd!) - ctx.now() + 1000);
    await runRenewals({ store: ctx.store, clock: ctx.now, processor: new TestPaymentProcessor({ clock: ctx.now, store: ctx.store }) });
    expect((await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).at(-1)).toMatchObject({ planId: pro.id, status: 'paid', totalCents: 4000 });
  });

  test('POST: an upgrade whose bank asks (3-D Secure) changes nothing until confirmed; approved, it is made at the quoted price, once', async () => {
    const ctx = await fresh();
    const pro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    const quote = await jsonOf<PlanChangeQuote>(await change(ctx, session.token, monthly.id, pro.publicId), 200);
    const invoicesBefore = (await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).length;
    // 3155: its bank asks whenever the member is there (charged without them, it would pass).
    const paymentMethodId = await testCard(ctx, session.token, ASKS_ON_SESSION);
    const asked = (await jsonOf<PaymentActionRequired>(await post(ctx, session.token, monthly.id, { plan: pro.publicId, paymentMethodId }), 202)).requiresAction;
    expect(asked.intentId).toBeTruthy();
    const mine = async () => (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, session.memberInfo.id)).find((m) => m.id === monthly.id)!;
    expect(await mine()).toMatchObject({ planPublicId: 'monthly' });
    expect((await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).length).toBe(invoicesBefore);
    // Not answered yet: still waiting (409); not this membership's payment: 404.
    await expectError(await confirm(ctx, session.token, monthly.id, asked.intentId), 409, 'paymentPending', 'intentId');
    await expectError(await confirm(ctx, session.token, monthly.id + 1000, asked.intentId), 404, 'notFound');
    await expectError(await confirm(ctx, (await ctx.session(GRACE)).token, monthly.id, asked.intentId), 404, 'notFound', 'intentId');
    await expectError(await confirm(ctx, session.token, monthly.id, ''), 400, 'invalidField', 'intentId');

    await answer(ctx, session.token, asked, true);
    const changed = await jsonOf<Membership>(await confirm(ctx, session.token, monthly.id, asked.intentId), 200);
    expect(changed).toMatchObject({ id: monthly.id, publicPlanId: pro.publicId, status: 'active', billingPeriodEnd: quote.next.at });
    const invoices = await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id);
    expect(invoices.slice(invoicesBefore)).toMatchObject([{ planId: pro.id, status: 'paid', description: 'Pro (from Monthly)', totalCents: quote.dueNow.grandTotalCents }]);
    // Confirmed again: the same membership, nothing charged or recorded twice.
    expect(await jsonOf<Membership>(await confirm(ctx, session.token, monthly.id, asked.intentId), 200)).toEqual(changed);
    expect((await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).length).toBe(invoicesBefore + 1);
    const events = (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: session.memberInfo.id }, { limit: 100 })).items.filter((e) => e.eventType === 'planChanged');
    expect(events.map((e) => e.details)).toEqual([{ membershipId: monthly.id, fromPlanId: monthly.planId, toPlanId: pro.id, when: 'now', invoiceId: invoices.at(-1)!.processorInvoiceId }]);
  });

  test('POST: an upgrade whose bank is refused in its window changes nothing but one failed invoice (402, confirmed twice)', async () => {
    const ctx = await fresh();
    const pro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
    });
    const { session, monthly } = await adaMonthly(ctx);
    // 3220: its bank asks every time; charged without the member, it was declined before the member was asked.
    const paymentMethodId = await testCard(ctx, session.token, ALWAYS_ASKS);
    const asked = (await jsonOf<PaymentActionRequired>(await post(ctx, session.token, monthly.id, { plan: pro.publicId, paymentMethodId }), 202)).requiresAction;
    await answer(ctx, session.token, asked, false);
    for (let i = 0; i < 2; i++) await expectError(await confirm(ctx, session.token, monthly.id, asked.intentId), 402, 'paymentDeclined', 'intentId');
    const record = (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, session.memberInfo.id)).find((m) => m.id === monthly.id)!;
    expect(record).toMatchObject({ planPublicId: 'monthly', billingPeriodEnd: Date.parse(monthly.billingPeriodEnd!) });
    const failed = (await ctx.store.listInvoicesOfMember(ctx.demo.site.id, session.memberInfo.id)).filter((i) => i.status === 'failed');
    expect(failed).toMatchObject([{ planId: pro.id, description: 'Pro (from Monthly)' }]);
    const events = (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: session.memberInfo.id }, { limit: 100 })).items;
    expect(events.filter((e) => e.eventType === 'planChanged')).toEqual([]);
  });
});
