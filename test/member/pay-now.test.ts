/**
 * A renewal the bank would not take without the member (issue 28: `authentication_required`, the
 * test card 3220), paid now with them there: POST /memberships/{id}/pay answers the bank's
 * question (202), the member answers it, and POST /memberships/{id}/pay/confirm records the
 * payment as the billing run records one, after asking the processor how it ended.
 */
import { expect, test } from 'vitest';
import type { ConversionDetail, InvoiceSummary, PaymentActionRequired, Membership } from '../../src/contract/member';
import { runRenewals } from '../../src/service/billing/renewals';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, testCard, type MemberCtx } from './support';

const ALWAYS_ASKS = { cardNumber: '4000 0000 0000 3220', cardExpiry: '12/30', cardCvc: '123' };
const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };

const run = (ctx: MemberCtx) => runRenewals({ store: ctx.store, clock: ctx.now, processor: new TestPaymentProcessor({ clock: ctx.now, store: ctx.store }) });
const post = (ctx: MemberCtx, token: string, path: string, json: unknown = {}) => ctx.authed(token, `${BASE}${path}`, { method: 'POST', json });
/** The test bank's window, answered. */
const answer = async (ctx: MemberCtx, token: string, asked: PaymentActionRequired['requiresAction'], approve: boolean) =>
  jsonOf(await post(ctx, token, `/test-payment-intents/${asked.intentId}`, { clientSecret: asked.clientSecret, approve }), 200);
const invoices = async (ctx: MemberCtx, token: string) => jsonOf<InvoiceSummary[]>(await ctx.authed(token, `${BASE}/invoices`), 200);
const failures = async (ctx: MemberCtx) =>
  (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: ctx.demo.memberIds.grace }, { limit: 100 })).items.filter((e) => e.eventType === 'paymentFailed');

/** Grace on Monthly with the 3220 card (its sign-up authorized), then its renewal refused off session: the membership and a fresh token. */
async function heldRenewal(ctx: MemberCtx): Promise<{ id: number; token: string; dueAt: string }> {
  const { token } = await ctx.session(GRACE);
  const res = await post(ctx, token, '/memberships', { planPublicId: 'monthly', paymentMethodId: await testCard(ctx, token, ALWAYS_ASKS) });
  const asked = (await jsonOf<PaymentActionRequired>(res, 202)).requiresAction;
  await answer(ctx, token, asked, true);
  const { membership } = await jsonOf<ConversionDetail>(await post(ctx, token, '/memberships/confirm', { intentId: asked.intentId }), 201);
  ctx.advance(Date.parse(membership.billingPeriodEnd!) - ctx.now() + 1);
  expect(await run(ctx)).toMatchObject({ charged: 0, failed: 1 });
  expect((await failures(ctx)).map((e) => e.details.reason)).toEqual(['authentication_required']);
  const fresh = (await ctx.session(GRACE)).token;
  return { id: membership.id, token: fresh, dueAt: membership.billingPeriodEnd! };
}

forEachStore((fresh) => {
  test('3220’s renewal, held by the bank: paid now with the member there, 202 then authorized, recorded as a renewal (paid invoice, next period, no failure)', async () => {
    const ctx = await fresh();
    const { id, token, dueAt } = await heldRenewal(ctx);
    const asked = (await jsonOf<PaymentActionRequired>(await post(ctx, token, `/memberships/${id}/pay`), 202)).requiresAction;
    // Nothing recorded while the bank asks, and confirming now says it still waits.
    expect((await invoices(ctx, token)).filter((i) => i.status === 'paid')).toHaveLength(1);
    await expectError(await post(ctx, token, `/memberships/${id}/pay/confirm`, { intentId: asked.intentId }), 409, 'paymentPending', 'intentId');

    await answer(ctx, token, asked, true);
    const paid = await jsonOf<Membership>(await post(ctx, token, `/memberships/${id}/pay/confirm`, { intentId: asked.intentId }), 200);
    expect(paid).toMatchObject({ id, status: 'active', paymentFailure: false });
    const next = new Date(dueAt);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect(paid.billingPeriodEnd).toBe(next.toISOString());
    expect((await invoices(ctx, token)).map((i) => [i.description, i.status])).toEqual([
      ['Monthly: renewal', 'paid'],
      ['Monthly: renewal', 'failed'],
      ['Monthly', 'paid'],
    ]);
    // Again: recorded once, answered as it is.
    expect(await jsonOf<Membership>(await post(ctx, token, `/memberships/${id}/pay/confirm`, { intentId: asked.intentId }), 200)).toStrictEqual(paid);
    expect(await invoices(ctx, token)).toHaveLength(3);
    // Paid for the period: the billing run charges nothing, and paying now is refused.
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 0 });
    await expectError(await post(ctx, token, `/memberships/${id}/pay`), 409, 'notDue', 'id');
  });

  test('refused in the bank’s window: 402, one more failed attempt (a failed invoice, paymentFailed), the failure stays; a good card then pays it', async () => {
    const ctx = await fresh();
    const { id, token } = await heldRenewal(ctx);
    const asked = (await jsonOf<PaymentActionRequired>(await post(ctx, token, `/memberships/${id}/pay`), 202)).requiresAction;
    await answer(ctx, token, asked, false);
    await expectError(await post(ctx, token, `/memberships/${id}/pay/confirm`, { intentId: asked.intentId }), 402, 'paymentDeclined', 'intentId');
    await expectError(await post(ctx, token, `/memberships/${id}/pay/confirm`, { intentId: asked.intentId }), 402, 'paymentDeclined', 'intentId');
    expect((await failures(ctx)).map((e) => [e.details.reason, e.details.attempt]).sort()).toEqual([
      ['authentication_required', 1],
      ['authentication_required', 2],
    ]);
    expect((await invoices(ctx, token)).filter((i) => i.status === 'failed')).toHaveLength(2);
    // A card that needs no question: saving it pays at once, as before.
    const good = await testCard(ctx, token, GOOD);
    await jsonOf(await ctx.authed(token, `${BASE}/payment-method`, { method: 'PUT', json: { paymentMethodId: good } }), 200);
    const me = await jsonOf<{ memberships: Membership[] }>(await ctx.authed(token, `${BASE}/me`), 200);
    expect(me.memberships.find((m) => m.id === id)).toMatchObject({ status: 'active', paymentFailure: false });
  });

  test('a card that needs no question pays at once (200); nothing due, another member’s membership, a bad id or another membership’s payment are refused and change nothing', async () => {
    const ctx = await fresh();
    const { id, token } = await heldRenewal(ctx);
    const asked = (await jsonOf<PaymentActionRequired>(await post(ctx, token, `/memberships/${id}/pay`), 202)).requiresAction;
    const ada = (await ctx.session(ADA)).token;
    await expectError(await post(ctx, ada, `/memberships/${id}/pay`), 404, 'notFound', 'id');
    await expectError(await post(ctx, ada, `/memberships/${id}/pay/confirm`, { intentId: asked.intentId }), 404, 'notFound');
    await expectError(await post(ctx, token, '/memberships/0372/pay'), 400, 'invalidField', 'id');
    await expectError(await post(ctx, token, `/memberships/${id}/pay/confirm`, {}), 400, 'invalidField', 'intentId');
    await expectError(await post(ctx, token, `/memberships/${id}/pay/confirm`, { intentId: 'pi_test_nosuchintent' }), 404, 'notFound', 'intentId');
    await expectError(await post(ctx, token, `/memberships/${id + 1000}/pay/confirm`, { intentId: asked.intentId }), 404, 'notFound', 'intentId');
    expect(await failures(ctx)).toHaveLength(1);

    await jsonOf(await ctx.authed(token, `${BASE}/payment-method`, { method: 'PUT', json: { paymentMethodId: await testCard(ctx, token, ALWAYS_ASKS) } }), 200);
    // Saving a card that always asks retries it off session: refused again (attempt 2).
    expect((await failures(ctx)).map((e) => e.details.attempt).sort()).toEqual([1, 2]);
    const good = await testCard(ctx, token, GOOD);
    await ctx.store.savePaymentMethod({
      siteId: ctx.demo.site.id, memberId: ctx.demo.memberIds.grace!, processorId: good, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, createdAt: ctx.now(),
    });
    const paid = await jsonOf<Membership>(await post(ctx, token, `/memberships/${id}/pay`), 200);
    expect(paid).toMatchObject({ id, paymentFailure: false });
    await expectError(await post(ctx, token, `/memberships/${id}/pay`), 409, 'notDue', 'id');
  });
});
