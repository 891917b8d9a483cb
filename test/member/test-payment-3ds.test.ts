/**
 * The test processor's 3-D Secure cards (issue 28), on the path a Stripe site takes: a sign-up
 * with `…3155` or `…3220` answers 202 with the intent's client secret and records nothing; the
 * member answers in the widget's stand-in for the bank's window (POST /test-payment-intents/{id});
 * POST /memberships/confirm then asks the processor how the payment ended, never the browser.
 * Off session, 3155 is charged (set up at sign-up) and 3220 is refused, `authentication_required`.
 */
import { expect, test } from 'vitest';
import type { ConversionDetail, PaymentActionRequired, TestPaymentAuthorization, TestPaymentMethod } from '../../src/contract/member';
import { PaymentDeclinedError } from '../../src/service/payments/processor';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { BASE, expectError, forEachStore, GRACE, jsonOf, type MemberCtx } from './support';

const AUTHORIZE_ON_SESSION = '4000 0025 0000 3155';
const AUTHORIZE_ALWAYS = '4000 0000 0000 3220';

/** Grace's sign-up to Lifetime ($199 now) with the card: the 202's question. */
async function askedSignUp(ctx: MemberCtx, token: string, number: string): Promise<PaymentActionRequired['requiresAction']> {
  const made = await jsonOf<TestPaymentMethod>(
    await ctx.authed(token, `${BASE}/test-payment-methods`, { method: 'POST', json: { cardNumber: number, cardExpiry: '12/34', cardCvc: '123' } }),
    201,
  );
  expect(made.id).toMatch(/^pm_test_3ds_/);
  const res = await ctx.authed(token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId: 'lifetime', paymentMethodId: made.id } });
  return (await jsonOf<PaymentActionRequired>(res, 202)).requiresAction;
}
const answer = (ctx: MemberCtx, token: string, intentId: string, body: unknown) =>
  ctx.authed(token, `${BASE}/test-payment-intents/${intentId}`, { method: 'POST', json: body });
const confirm = (ctx: MemberCtx, token: string, intentId: string) => ctx.authed(token, `${BASE}/memberships/confirm`, { method: 'POST', json: { intentId } });
const graceId = (ctx: MemberCtx) => ctx.demo.memberIds.grace!;
const lifetimeOf = async (ctx: MemberCtx) =>
  (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, graceId(ctx))).filter((m) => m.planId === ctx.demo.planIds.lifetime);
const invoicesOf = (ctx: MemberCtx) => ctx.store.listInvoicesOfMember(ctx.demo.site.id, graceId(ctx));
const processorOf = (ctx: MemberCtx) => new TestPaymentProcessor({ clock: ctx.now, store: ctx.store });

forEachStore((fresh) => {
  test('3155 on a paid plan: 202 with the question and nothing recorded; authorized, the confirmation records the membership and one paid invoice; again, 409', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const invoicesBefore = await invoicesOf(ctx);
    const asked = await askedSignUp(ctx, token, AUTHORIZE_ON_SESSION);
    expect(asked).toStrictEqual({ intentId: expect.stringMatching(/^pi_test_/), clientSecret: expect.stringMatching(/^pi_test_\w+_secret_\w+$/) });
    expect(asked.clientSecret.startsWith(`${asked.intentId}_secret_`)).toBe(true);
    expect(await lifetimeOf(ctx)).toEqual([]);
    expect(await invoicesOf(ctx)).toEqual(invoicesBefore);
    // Not yet answered: the confirmation says the bank still waits, and records nothing.
    await expectError(await confirm(ctx, token, asked.intentId), 409, 'paymentPending', 'intentId');

    expect(await jsonOf<TestPaymentAuthorization>(await answer(ctx, token, asked.intentId, { clientSecret: asked.clientSecret, approve: true }), 200)).toStrictEqual({ status: 'succeeded' });
    const detail = await jsonOf<ConversionDetail>(await confirm(ctx, token, asked.intentId), 201);
    expect(detail.membership.publicPlanId).toBe('lifetime');
    expect(await lifetimeOf(ctx)).toHaveLength(1);
    const paid = (await invoicesOf(ctx)).filter((i) => !invoicesBefore.some((b) => b.id === i.id));
    expect(paid).toMatchObject([{ status: 'paid', totalCents: 19900, processorChargeId: expect.stringMatching(/^ch_test_/) }]);
    // The processor has the one charge, paid, for what the plan costs.
    const customerId = (await ctx.store.getMember(ctx.demo.site.id, graceId(ctx)))!.processorCustomerId!;
    const charges = (await ctx.store.listTestProcessorCharges(customerId)).filter((c) => c.chargeId === paid[0]!.processorChargeId);
    expect(charges).toMatchObject([{ status: 'paid', amountCents: 19900 }]);

    await expectError(await confirm(ctx, token, asked.intentId), 409, 'alreadyMember');
    expect(await lifetimeOf(ctx)).toHaveLength(1);
  });

  test('refused in the bank’s window: the confirmation is 402 paymentDeclined, with one failed invoice and an abandonedConversion, however often it is asked', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const asked = await askedSignUp(ctx, token, AUTHORIZE_ALWAYS);
    expect(await jsonOf<TestPaymentAuthorization>(await answer(ctx, token, asked.intentId, { clientSecret: asked.clientSecret, approve: false }), 200)).toStrictEqual({ status: 'failed' });
    await expectError(await confirm(ctx, token, asked.intentId), 402, 'paymentDeclined', 'intentId');
    await expectError(await confirm(ctx, token, asked.intentId), 402, 'paymentDeclined', 'intentId');
    expect(await lifetimeOf(ctx)).toEqual([]);
    expect((await invoicesOf(ctx)).filter((i) => i.processorInvoiceId === asked.intentId)).toMatchObject([{ status: 'failed', totalCents: 19900 }]);
    const events = (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: graceId(ctx) }, { limit: 100 })).items;
    expect(events.filter((e) => e.eventType === 'abandonedConversion')).toHaveLength(1);
    // The first answer stands: authorizing it now changes nothing.
    expect(await jsonOf<TestPaymentAuthorization>(await answer(ctx, token, asked.intentId, { clientSecret: asked.clientSecret, approve: true }), 200)).toStrictEqual({ status: 'failed' });
    await expectError(await confirm(ctx, token, asked.intentId), 402, 'paymentDeclined', 'intentId');
  });

  test('the bank’s question left unanswered, then another card: another 3155 is asked anew, and a card that needs no question is charged (201)', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const first = await askedSignUp(ctx, token, AUTHORIZE_ON_SESSION);
    expect(await askedSignUp(ctx, token, AUTHORIZE_ON_SESSION)).not.toEqual(first); // another payment method: another question
    const good = await jsonOf<TestPaymentMethod>(
      await ctx.authed(token, `${BASE}/test-payment-methods`, { method: 'POST', json: { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/34', cardCvc: '123' } }),
      201,
    );
    const detail = await jsonOf<ConversionDetail>(await ctx.authed(token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId: 'lifetime', paymentMethodId: good.id } }), 201);
    expect(detail.membership.publicPlanId).toBe('lifetime');
    expect(await lifetimeOf(ctx)).toHaveLength(1);
  });

  test('the answer needs the intent’s client secret, a yes or no, a session, and a site on the test processor', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const asked = await askedSignUp(ctx, token, AUTHORIZE_ON_SESSION);
    await expectError(await answer(ctx, token, asked.intentId, { clientSecret: `${asked.intentId}_secret_wrong`, approve: true }), 404, 'notFound', 'intentId');
    await expectError(await answer(ctx, token, 'pi_test_nosuchintent', { clientSecret: asked.clientSecret, approve: true }), 404, 'notFound', 'intentId');
    await expectError(await answer(ctx, token, asked.intentId, { approve: true }), 400, 'invalidField', 'clientSecret');
    await expectError(await answer(ctx, token, asked.intentId, { clientSecret: asked.clientSecret, approve: 'yes' }), 400, 'invalidField', 'approve');
    const anonymous = await ctx.request(`${BASE}/test-payment-intents/${asked.intentId}`, { method: 'POST', json: { clientSecret: asked.clientSecret, approve: true } });
    expect(anonymous.status).toBe(401);
    // None of those answered it.
    await expectError(await confirm(ctx, token, asked.intentId), 409, 'paymentPending', 'intentId');
    expect(await lifetimeOf(ctx)).toEqual([]);
  });

  test('off session: a 3155 card set up at sign-up is charged; 3220 is refused with authentication_required', async () => {
    const ctx = await fresh();
    const processor = processorOf(ctx);
    const { customerId } = await processor.createCustomer({ email: 'renewals@example.com' });
    const card = (number: string) => processor.addPaymentMethod(customerId, { cardNumber: number, cardExpiry: '12/34', cardCvc: '123' });
    const once = await card(AUTHORIZE_ON_SESSION);
    const always = await card(AUTHORIZE_ALWAYS);
    const renewal = { amountCents: 1200, currency: 'usd', description: 'Monthly' };
    expect(await processor.charge(customerId, once.id, renewal)).toStrictEqual({ chargeId: expect.stringMatching(/^ch_test_/), invoiceId: expect.stringMatching(/^in_test_/) });
    const refused = await processor.charge(customerId, always.id, renewal).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentDeclinedError);
    expect((refused as PaymentDeclinedError).declineCode).toBe('authentication_required');
  });

  test('on session, the same idempotency key answers the same intent; authorized, it answers the receipt of the one charge', async () => {
    const ctx = await fresh();
    const processor = processorOf(ctx);
    const { customerId } = await processor.createCustomer({ email: 'keys@example.com' });
    const card = await processor.addPaymentMethod(customerId, { cardNumber: AUTHORIZE_ON_SESSION, cardExpiry: '12/34', cardCvc: '123' });
    const request = { amountCents: 500, currency: 'USD', description: 'Lifetime', idempotencyKey: 'signup:1', metadata: { svc_site: '1' } };
    const first = await processor.chargeOnSession(customerId, card.id, request);
    expect(await processor.chargeOnSession(customerId, card.id, request)).toStrictEqual(first);
    if (!('status' in first)) throw new Error('expected a question');
    expect(await processor.authorizeTestPayment(first.intentId, first.clientSecret, true)).toBe('succeeded');
    const outcome = await processor.paymentOutcome(first.intentId);
    expect(outcome).toMatchObject({ status: 'succeeded', customerId, paymentMethodId: card.id, amountCents: 500, currency: 'usd', metadata: { svc_site: '1' } });
    expect(await processor.chargeOnSession(customerId, card.id, request)).toStrictEqual(outcome.receipt);
    expect(await ctx.store.listTestProcessorCharges(customerId)).toMatchObject([{ chargeId: outcome.receipt!.chargeId, status: 'paid', amountCents: 500 }]);
  });

  test('an intent settled as authorized whose charge was not yet recorded (a crash between the two steps) gets its charge when asked, once', async () => {
    const ctx = await fresh();
    const processor = processorOf(ctx);
    const { customerId } = await processor.createCustomer({ email: 'crash@example.com' });
    const card = await processor.addPaymentMethod(customerId, { cardNumber: AUTHORIZE_ON_SESSION, cardExpiry: '12/34', cardCvc: '123' });
    const asked = await processor.chargeOnSession(customerId, card.id, { amountCents: 700, currency: 'eur', description: 'Yearly', metadata: {} });
    if (!('status' in asked)) throw new Error('expected a question');
    // The first step alone, as authorizeTestPayment takes it before it records the charge.
    await ctx.store.settleTestProcessorIntent(asked.intentId, { status: 'succeeded', chargeId: 'ch_test_crashed', invoiceId: 'in_test_crashed' });
    expect(await ctx.store.listTestProcessorCharges(customerId)).toEqual([]);
    expect((await processor.paymentOutcome(asked.intentId)).receipt).toStrictEqual({ chargeId: 'ch_test_crashed', invoiceId: 'in_test_crashed' });
    await processor.paymentOutcome(asked.intentId);
    expect(await processor.authorizeTestPayment(asked.intentId, asked.clientSecret, true)).toBe('succeeded');
    expect(await ctx.store.listTestProcessorCharges(customerId)).toMatchObject([{ chargeId: 'ch_test_crashed', invoiceId: 'in_test_crashed', status: 'paid', amountCents: 700 }]);
  });

  test('two answers at once: one settles the intent, both say how it ended, and at most one charge is made', async () => {
    const ctx = await fresh();
    const processor = processorOf(ctx);
    const { customerId } = await processor.createCustomer({ email: 'race@example.com' });
    const card = await processor.addPaymentMethod(customerId, { cardNumber: AUTHORIZE_ALWAYS, cardExpiry: '12/34', cardCvc: '123' });
    const asked = await processor.chargeOnSession(customerId, card.id, { amountCents: 900, currency: 'usd', description: 'Lifetime', metadata: {} });
    if (!('status' in asked)) throw new Error('expected a question');
    const answers = await Promise.all([
      processor.authorizeTestPayment(asked.intentId, asked.clientSecret, true),
      processor.authorizeTestPayment(asked.intentId, asked.clientSecret, false),
    ]);
    expect(answers[0]).toBe(answers[1]);
    const charges = await ctx.store.listTestProcessorCharges(customerId);
    expect(charges).toHaveLength(answers[0] === 'succeeded' ? 1 : 0);
    expect((await processor.paymentOutcome(asked.intentId)).status).toBe(answers[0]);
  });
});
