/**
 * Plan sign-up with payments (POST /memberships), cancelling (POST /memberships/{id}/cancel),
 * invoices and the saved card, on the built-in test processor (the test cards of
 * docs/test-cards.md: 0002 and 9995 are declined as they are saved, 0341 when it is charged).
 * The card goes to the test processor's card field (POST /test-payment-methods) and only the
 * `paymentMethodId` it answers to POST /memberships and PUT /payment-method, which refuse card fields.
 */
import { expect, test } from 'vitest';
import type { ConversionDetail, InvoiceSummary, MemberInfo, MembershipPrice, SavedCard } from '../../src/contract/member';
import { createServiceApp } from '../../src/service/app';
import { definePlan } from '../../src/service/domain/plans';
import type { CardDetails } from '../../src/service/payments/processor';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, ORIGIN, paymentWith, postTestCard, putCard, testCard, type MemberCtx } from './support';

const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
/** Declined when saved (card_declined), whatever the plan. */
const DECLINED = { ...GOOD, cardNumber: '4000 0000 0000 0002' };
/** Declined when saved (insufficient_funds). */
const NO_FUNDS = { ...GOOD, cardNumber: '4000 0000 0000 9995' };
/** Saved; every charge on it is declined (card_declined). */
const FAILS_ON_CHARGE = { ...GOOD, cardNumber: '4000 0000 0000 0341' };

const join = (ctx: MemberCtx, token: string, json: unknown) => ctx.authed(token, `${BASE}/memberships`, { method: 'POST', json });
/** A sign-up as the widget makes it: the card, when given, made a payment method first, and its id sent. */
const joinWith = async (ctx: MemberCtx, token: string, planPublicId: string, card?: CardDetails) =>
  join(ctx, token, { planPublicId, ...(await paymentWith(ctx, token, card)) });
/** What the test processor keeps of a member's customer: its cards and charges (none without a customer). */
const atProcessor = async (ctx: MemberCtx, memberId = graceId(ctx)) => {
  const customerId = (await ctx.store.getMember(ctx.demo.site.id, memberId))!.processorCustomerId;
  if (customerId === undefined) return { customerId, cards: [], charges: [] };
  return { customerId, cards: await ctx.store.listTestProcessorCards(customerId), charges: await ctx.store.listTestProcessorCharges(customerId) };
};
const events = async (ctx: MemberCtx, memberId: number) =>
  (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId }, { limit: 100 })).items.map((e) => [e.eventType, e.details]);
const graceId = (ctx: MemberCtx) => ctx.demo.memberIds.grace!;
/** A subscription with a 14-day trial: nothing is charged at sign-up (the fixtures have none). */
const trialPlan = async (ctx: MemberCtx) =>
  (await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
    name: 'Trial monthly', type: 'subscription', isPublic: true,
    billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 14 },
  })).publicId;
/** Grace's memberships, invoices, saved card (null when none) and member events. */
const graceState = async (ctx: MemberCtx, token: string) => ({
  memberships: (await jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200)).memberships,
  invoices: await jsonOf<InvoiceSummary[]>(await ctx.authed(token, `${BASE}/invoices`), 200),
  card: await ctx.authed(token, `${BASE}/payment-method`).then((r) => (r.status === 200 ? r.json() : null)),
  events: (await events(ctx, graceId(ctx))).map(([type]) => type).filter((type) => type !== 'login'),
});

forEachStore((fresh) => {
  test('a free plan: 201 with the conversion detail (no currency), the membership in MemberInfo, a conversion event', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const detail = await jsonOf<ConversionDetail>(await join(ctx, token, { planPublicId: 'community' }), 201);
    expect(detail.membership).toMatchObject({ publicPlanId: 'community', type: 'free', status: 'active', paymentFailure: false });
    expect(detail.order).toStrictEqual({ id: expect.stringMatching(/^ord_/), subTotal: 0, subTotalCents: 0, grandTotal: 0, grandTotalCents: 0 });
    expect(detail.member).toStrictEqual({
      id: graceId(ctx), name: 'Grace Hopper', firstName: 'Grace', lastName: 'Hopper', email: GRACE.email,
      processorCustomerId: expect.stringMatching(/^cus_test_/),
    });
    const me = await jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200);
    expect(me.memberships).toContainEqual(detail.membership);
    expect(await events(ctx, graceId(ctx))).toContainEqual(['conversion', { planId: ctx.demo.planIds.community, membershipId: detail.membership.id, orderId: detail.order.id }]);
  });

  test('a one-time plan with a good card: charged, the invoice and the saved card show, the customer is reused', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const detail = await jsonOf<ConversionDetail>(await joinWith(ctx, token, 'lifetime', GOOD), 201);
    expect(detail.order).toStrictEqual({
      id: expect.stringMatching(/^in_test_/), subTotal: 199, subTotalCents: 19900, grandTotal: 199, grandTotalCents: 19900, currency: 'usd',
    });
    const invoices = await jsonOf<InvoiceSummary[]>(await ctx.authed(token, `${BASE}/invoices`), 200);
    expect(invoices).toStrictEqual([
      { id: detail.order.id, description: 'Lifetime', subTotalCents: 19900, taxCents: 0, totalCents: 19900, currency: 'usd', status: 'paid', createdAt: new Date(ctx.now()).toISOString() },
    ]);
    expect(await jsonOf<SavedCard>(await ctx.authed(token, `${BASE}/payment-method`), 200)).toStrictEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
    // The next paid plan uses the saved card and the same customer.
    const second = await jsonOf<ConversionDetail>(await join(ctx, token, { planPublicId: 'monthly' }), 201);
    expect(second.member.processorCustomerId).toBe(detail.member.processorCustomerId);
    expect(second.membership).toMatchObject({ type: 'subscription', billingPeriodEnd: expect.any(String) });
  });

  test('a trial plan (nothing due now) with 0002: 402 paymentDeclined at the card field, no membership, no conversion event: the card is declined as it is saved', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const planPublicId = await trialPlan(ctx);
    const body = await expectError(await postTestCard(ctx, token, DECLINED), 402, 'paymentDeclined', 'cardNumber');
    expect(body.errors[0]!.message).toBe('Your card was declined.');
    // No card to sign up with: no payment method made, none saved.
    await expectError(await join(ctx, token, { planPublicId }), 400, 'invalidField', 'cardNumber');
    expect(await atProcessor(ctx)).toMatchObject({ cards: [], charges: [] });
    // No charge was tried: no invoice, and no abandonedConversion (its chargeId and invoiceId would be made up).
    expect(await graceState(ctx, token)).toStrictEqual({ memberships: [], invoices: [], card: null, events: [] });
    // The same member signs up with a good card afterwards.
    expect((await jsonOf<ConversionDetail>(await joinWith(ctx, token, planPublicId, GOOD), 201)).order.grandTotalCents).toBe(0);
  });

  test('cards declined as they are saved (0002, 9995) on a plan charged at sign-up: 402 with the bank’s reason, nothing charged, nothing recorded', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    for (const [card, message] of [[DECLINED, 'Your card was declined.'], [NO_FUNDS, 'Your card has insufficient funds.']] as const) {
      const body = await expectError(await postTestCard(ctx, token, card), 402, 'paymentDeclined', 'cardNumber');
      expect(body.errors[0]!.message).toBe(message);
    }
    // Neither is a card the member can pay with: no payment method made, none saved, nothing to charge.
    await expectError(await join(ctx, token, { planPublicId: 'lifetime' }), 400, 'invalidField', 'cardNumber');
    expect(await atProcessor(ctx)).toMatchObject({ cards: [], charges: [] });
    expect(await graceState(ctx, token)).toStrictEqual({ memberships: [], invoices: [], card: null, events: [] });
  });

  test('a card declined when charged (0341) on a plan charged at sign-up: 402 paymentDeclined, no membership, a failed invoice and an abandonedConversion with amount, chargeId, invoiceId', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    await expectError(await joinWith(ctx, token, 'lifetime', FAILS_ON_CHARGE), 402, 'paymentDeclined', 'cardNumber');
    expect((await jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200)).memberships).toEqual([]);
    const [invoice] = await jsonOf<InvoiceSummary[]>(await ctx.authed(token, `${BASE}/invoices`), 200);
    expect(invoice).toMatchObject({ status: 'failed', totalCents: 19900 });
    const abandoned = (await events(ctx, graceId(ctx))).filter(([type]) => type === 'abandonedConversion');
    expect(abandoned).toStrictEqual([['abandonedConversion', { amount: '$199.00', chargeId: expect.stringMatching(/^ch_test_/), invoiceId: invoice!.id }]]);
    // A subscription charged at sign-up (no trial) is refused the same way.
    await expectError(await joinWith(ctx, token, 'monthly', FAILS_ON_CHARGE), 402, 'paymentDeclined', 'cardNumber');
    const state = await graceState(ctx, token);
    expect(state.memberships).toEqual([]);
    expect(state.invoices.map((i) => [i.description, i.status, i.totalCents])).toEqual([['Monthly', 'failed', 1200], ['Lifetime', 'failed', 19900]]);
    expect(state.events).toEqual(['abandonedConversion', 'abandonedConversion']);
  });

  test('after a charge declined (0341) the member may try again at once: the same card is charged again (a new attempt) and declined, then a good card is charged', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    await expectError(await joinWith(ctx, token, 'lifetime', FAILS_ON_CHARGE), 402, 'paymentDeclined', 'cardNumber');
    await expectError(await join(ctx, token, { planPublicId: 'lifetime' }), 402, 'paymentDeclined', 'cardNumber');
    const detail = await jsonOf<ConversionDetail>(await joinWith(ctx, token, 'lifetime', GOOD), 201);
    const charges = await ctx.store.listTestProcessorCharges(detail.member.processorCustomerId);
    expect(charges.map((c) => c.status)).toEqual(['failed', 'failed', 'paid']);
    expect(new Set(charges.map((c) => c.idempotencyKey)).size).toBe(3);
    const state = await graceState(ctx, token);
    expect(state.invoices.map((i) => i.status)).toEqual(['paid', 'failed', 'failed']);
    expect(state.memberships).toHaveLength(1);
  });

  test('a sign-up charged whose membership could not be written (a 500) is, asked again, the same charge: one charge, recorded once', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    let failures = 1;
    const failing = new Proxy(ctx.store, {
      get: (target, name, receiver) =>
        name === 'createMemberships' && failures > 0
          ? () => (failures--, Promise.reject(new Error('disk full')))
          : Reflect.get(target, name, receiver),
    });
    const app = await createServiceApp({ store: failing, clock: ctx.now });
    const paymentMethodId = await testCard(ctx, token, GOOD);
    const joinThrough = () =>
      app.request(`http://svc.test${BASE}/memberships`, {
        method: 'POST',
        headers: { origin: ORIGIN, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ planPublicId: 'lifetime', paymentMethodId }),
      });
    await expectError(await joinThrough(), 500, 'internalError');
    const customerId = (await ctx.store.getMember(ctx.demo.site.id, graceId(ctx)))!.processorCustomerId!;
    const [charged] = await ctx.store.listTestProcessorCharges(customerId);
    expect(charged).toMatchObject({ status: 'paid', amountCents: 19900 });
    expect(await graceState(ctx, token)).toMatchObject({ memberships: [], invoices: [] });
    // The claim was given back: the member asks again at once, and the processor answers the first charge.
    const detail = await jsonOf<ConversionDetail>(await joinThrough(), 201);
    expect(detail.order.id).toBe(charged!.invoiceId);
    expect(await ctx.store.listTestProcessorCharges(customerId)).toHaveLength(1);
    expect((await graceState(ctx, token)).invoices.map((i) => [i.id, i.status])).toEqual([[charged!.invoiceId, 'paid']]);
  });

  test('a bad card is a 400 naming each field at the card field; no card and none saved is a 400 on cardNumber; nothing is created', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const bad = await expectError(await postTestCard(ctx, token, { cardNumber: '4242 4242 4242 4241', cardExpiry: '13/20', cardCvc: '1' }), 400, 'invalidField');
    expect(bad.errors.map((e) => e.path).sort()).toEqual(['cardCvc', 'cardExpiry', 'cardNumber']);
    await expectError(await join(ctx, token, { planPublicId: 'lifetime' }), 400, 'invalidField', 'cardNumber');
    await expectError(await postTestCard(ctx, token, { ...GOOD, cardNumber: 4242 }), 400, 'invalidField', 'cardNumber');
    expect((await jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200)).memberships).toEqual([]);
    expect(await jsonOf<InvoiceSummary[]>(await ctx.authed(token, `${BASE}/invoices`), 200)).toEqual([]);
    expect((await ctx.authed(token, `${BASE}/payment-method`)).status).toBe(204);
    expect(await atProcessor(ctx)).toMatchObject({ cards: [], charges: [] });
  });

  test('signing up to a plan one is on already is 409 alreadyMember; an unknown or archived plan 404; no session 401', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const res = await joinWith(ctx, token, 'monthly', GOOD);
    const body = await expectError(res, 409, 'alreadyMember', 'planPublicId');
    expect(body.errors[0]!.message).toContain('https://demo.localhost/');
    await expectError(await join(ctx, token, { planPublicId: 'founders' }), 404, 'notFound', 'planPublicId');
    await expectError(await join(ctx, token, {}), 400, 'invalidField', 'planPublicId');
    await expectError(await ctx.request(`${BASE}/memberships`, { method: 'POST', json: { planPublicId: 'community' } }), 401, 'unauthenticated');
  });

  test('PUT /payment-method saves a card (replacing the last); before any is saved GET answers 204, an answer and not an error', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const none = await ctx.authed(token, `${BASE}/payment-method`);
    expect(none.status).toBe(204);
    expect(await none.text()).toBe('');
    expect(none.headers.get('cache-control')).toBe('no-store');
    expect(await jsonOf<SavedCard>(await putCard(ctx, token, GOOD), 200)).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(await jsonOf<SavedCard>(await putCard(ctx, token, { ...GOOD, cardNumber: '5555 5555 5555 4444', cardExpiry: '01/31' }), 200)).toStrictEqual({
      brand: 'mastercard', last4: '4444', expMonth: 1, expYear: 2031,
    });
    // No payment method named: refused, the saved card kept.
    await expectError(await ctx.authed(token, `${BASE}/payment-method`, { method: 'PUT', json: {} }), 400, 'invalidField', 'paymentMethodId');
    expect((await jsonOf<SavedCard>(await ctx.authed(token, `${BASE}/payment-method`), 200)).last4).toBe('4444');
  });

  test('a new card declined as it is saved (0002, 9995): 402 paymentDeclined at the card field, the saved card stays and is still charged', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const saved = await jsonOf<SavedCard>(await putCard(ctx, token, GOOD), 200);
    const { cards: [kept] } = await atProcessor(ctx);
    await expectError(await postTestCard(ctx, token, DECLINED), 402, 'paymentDeclined', 'cardNumber');
    await expectError(await postTestCard(ctx, token, NO_FUNDS), 402, 'paymentDeclined', 'cardNumber');
    expect(await jsonOf<SavedCard>(await ctx.authed(token, `${BASE}/payment-method`), 200)).toStrictEqual(saved);
    // The processor kept neither.
    expect((await atProcessor(ctx)).cards).toEqual([kept]);
    // The card kept is the one a sign-up without card details pays with.
    expect((await jsonOf<ConversionDetail>(await join(ctx, token, { planPublicId: 'lifetime' }), 201)).order.grandTotalCents).toBe(19900);
    // With no card saved before, a declined one leaves none.
    const ada = await ctx.session(ADA);
    await expectError(await postTestCard(ctx, ada.token, DECLINED), 402, 'paymentDeclined', 'cardNumber');
    expect((await ctx.authed(ada.token, `${BASE}/payment-method`)).status).toBe(204);
  });

  test('card fields on POST /memberships and PUT /payment-method are a 400 on cardNumber, with a paymentMethodId beside them or without, and change nothing', async () => {
    const ctx = await fresh();
    // Grace has a customer and a payment method made of the card; Ada has no customer.
    const grace = await ctx.session(GRACE);
    const paymentMethodId = await testCard(ctx, grace.token, GOOD);
    const ada = await ctx.session(ADA);
    const adaId = ctx.demo.memberIds.ada!;
    const adaState = async () => ({
      processor: await atProcessor(ctx, adaId),
      memberships: await ctx.store.listMembershipsOfMember(ctx.demo.site.id, adaId),
      invoices: await ctx.store.listInvoicesOfMember(ctx.demo.site.id, adaId),
      card: await ctx.store.getPaymentMethod(ctx.demo.site.id, adaId),
      events: (await events(ctx, adaId)).filter(([type]) => type !== 'login'),
    });
    const before = { grace: await atProcessor(ctx), ada: await adaState() };
    expect(before.grace.cards.map((c) => c.id)).toEqual([paymentMethodId]);
    expect(before.ada.processor.customerId).toBeUndefined();

    const cardBodies = (withId: { paymentMethodId?: string }) => [
      { ...GOOD, ...withId },
      { cardNumber: GOOD.cardNumber, ...withId },
      { cardExpiry: GOOD.cardExpiry, ...withId },
      { cardCvc: GOOD.cardCvc, ...withId },
    ];
    for (const { token } of [grace, ada]) {
      for (const withId of [{}, { paymentMethodId }]) {
        for (const card of cardBodies(withId)) {
          for (const planPublicId of ['lifetime', 'community']) {
            await expectError(await join(ctx, token, { planPublicId, ...card }), 400, 'invalidField', 'cardNumber');
          }
          await expectError(await ctx.authed(token, `${BASE}/payment-method`, { method: 'PUT', json: card }), 400, 'invalidField', 'cardNumber');
        }
      }
    }
    // Nothing created: no membership, invoice or event, no card saved, no card or charge at the processor, no customer made.
    expect(await graceState(ctx, grace.token)).toStrictEqual({ memberships: [], invoices: [], card: null, events: [] });
    expect(await atProcessor(ctx)).toStrictEqual(before.grace);
    expect(await adaState()).toStrictEqual(before.ada);
    // The payment method alone is taken.
    expect((await jsonOf<ConversionDetail>(await join(ctx, grace.token, { planPublicId: 'lifetime', paymentMethodId }), 201)).order.grandTotalCents).toBe(19900);
  });

  test('cancelling a subscription sets cancelsOn to the period end and keeps it active, with no billingPeriodEnd (nothing is due); a second cancel changes nothing', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership } = await jsonOf<ConversionDetail>(await joinWith(ctx, token, 'monthly', GOOD), 201);
    const cancel = (id: number) => ctx.authed(token, `${BASE}/memberships/${id}/cancel`, { method: 'POST' });
    const cancelled = await jsonOf<typeof membership>(await cancel(membership.id), 200);
    const { billingPeriodEnd, ...rest } = membership;
    expect(billingPeriodEnd).toEqual(expect.any(String));
    expect(cancelled).toStrictEqual({ ...rest, cancelsOn: billingPeriodEnd });
    // MemberInfo says the same (spec 2.7: billingPeriodEnd is when the next charge is due).
    const me = await jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200);
    expect(me.memberships.find((m) => m.id === membership.id)).toStrictEqual(cancelled);
    expect(await jsonOf<typeof membership>(await cancel(membership.id), 200)).toStrictEqual(cancelled);
    expect((await events(ctx, graceId(ctx))).filter(([type]) => type === 'cancellation')).toHaveLength(1);
  });

  test('GET /memberships: each running subscription or instalment plan with what it costs the member; a trial says when it ends; free and one-time plans are not listed', async () => {
    const ctx = await fresh();
    const ada = await ctx.session(ADA);
    const prices = async (token: string) => jsonOf<MembershipPrice[]>(await ctx.authed(token, `${BASE}/memberships`), 200);
    const adaMonthly = (await jsonOf<MemberInfo>(await ctx.authed(ada.token, `${BASE}/me`), 200)).memberships.find((m) => m.publicPlanId === 'monthly')!;
    expect(await prices(ada.token)).toStrictEqual([
      { id: adaMonthly.id, currency: 'usd', recurring: { amountCents: 1200, subTotalCents: 1200, taxCents: 0, interval: { count: 1, unit: 'month' } } },
    ]);
    const { token } = await ctx.session(GRACE);
    expect(await prices(token)).toStrictEqual([]);
    await joinWith(ctx, token, 'lifetime', GOOD);
    const { membership } = await jsonOf<ConversionDetail>(await joinWith(ctx, token, await trialPlan(ctx), GOOD), 201);
    expect(await prices(token)).toStrictEqual([
      { id: membership.id, currency: 'usd', recurring: { amountCents: 1200, subTotalCents: 1200, taxCents: 0, interval: { count: 1, unit: 'month' } }, trialEndsAt: membership.billingPeriodEnd },
    ]);
    // An instalment plan is listed while an instalment is to come, and no longer once it is paid off.
    const course = (await jsonOf<ConversionDetail>(await joinWith(ctx, token, 'course3', GOOD), 201)).membership;
    expect((await prices(token)).map((p) => [p.id, p.recurring.amountCents])).toEqual([[membership.id, 1200], [course.id, 6000]]);
    await ctx.store.updateMembership(ctx.demo.site.id, course.id, { paymentsMade: 3, billingPeriodEnd: null });
    expect((await prices(token)).map((p) => p.id)).toEqual([membership.id]);
    await expectError(await ctx.request(`${BASE}/memberships`), 401, 'unauthenticated');
  });

  test('only a running subscription of one’s own can be cancelled', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership } = await jsonOf<ConversionDetail>(await joinWith(ctx, token, 'lifetime', GOOD), 201);
    await expectError(await ctx.authed(token, `${BASE}/memberships/${membership.id}/cancel`, { method: 'POST' }), 409, 'notCancellable', 'id');
    const ada = await ctx.session(ADA);
    await expectError(await ctx.authed(ada.token, `${BASE}/memberships/${membership.id}/cancel`, { method: 'POST' }), 404, 'notFound', 'id');
  });

  test('a member whose processor customer the processor does not know (imported, or its records lost) gets a new one when saving a card, and pays with it', async () => {
    const ctx = await fresh();
    await ctx.store.updateMember(ctx.demo.site.id, graceId(ctx), { processorCustomerId: 'cus_test_fromelsewhere' });
    const { token } = await ctx.session(GRACE);
    expect((await putCard(ctx, token, GOOD)).status).toBe(200);
    const customerId = (await ctx.store.getMember(ctx.demo.site.id, graceId(ctx)))!.processorCustomerId!;
    expect(customerId).toMatch(/^cus_test_/);
    expect(customerId).not.toBe('cus_test_fromelsewhere');
    const detail = await jsonOf<ConversionDetail>(await join(ctx, token, { planPublicId: 'lifetime' }), 201);
    expect(detail.member.processorCustomerId).toBe(customerId);
    expect(detail.order.grandTotalCents).toBe(19900);
    // The same with the card made for the sign-up itself.
    await ctx.store.updateMember(ctx.demo.site.id, graceId(ctx), { processorCustomerId: 'cus_test_fromelsewhere' });
    const monthly = await jsonOf<ConversionDetail>(await joinWith(ctx, token, 'monthly', GOOD), 201);
    expect(monthly.member.processorCustomerId).toMatch(/^cus_test_/);
    expect(monthly.member.processorCustomerId).not.toBe('cus_test_fromelsewhere');
  });
});
