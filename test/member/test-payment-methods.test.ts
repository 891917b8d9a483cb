/**
 * POST /test-payment-methods: the built-in test processor's card field, on the path a Stripe site
 * takes (issue 28): the card goes to the processor's endpoint, which answers a `pm_test_…`
 * payment method, and the widget sends the member API only that id (POST /memberships,
 * PUT /payment-method). Checked and refused as the test processor's card fields always were.
 */
import { expect, test } from 'vitest';
import type { ConversionDetail, SavedCard, TestPaymentMethod } from '../../src/contract/member';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, type MemberCtx } from './support';

const card = (cardNumber: string) => ({ cardNumber, cardExpiry: '12/34', cardCvc: '123' });
const make = (ctx: MemberCtx, token: string, number: string) => ctx.authed(token, `${BASE}/test-payment-methods`, { method: 'POST', json: card(number) });

forEachStore((fresh) => {
  test('a card in, a pm_test_… out; the member’s saved card is not changed until a sign-up or PUT /payment-method sends the id', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const before = await ctx.authed(token, `${BASE}/payment-method`);
    const made = await jsonOf<TestPaymentMethod>(await make(ctx, token, '4242 4242 4242 4242'), 201);
    expect(made).toStrictEqual({ id: expect.stringMatching(/^pm_test_/), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 });
    const after = await ctx.authed(token, `${BASE}/payment-method`);
    expect([after.status, await after.text()]).toEqual([before.status, await before.text()]);

    const detail = await jsonOf<ConversionDetail>(await ctx.authed(token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId: 'lifetime', paymentMethodId: made.id } }), 201);
    expect(detail.membership.publicPlanId).toBe('lifetime');
    expect(await jsonOf<SavedCard>(await ctx.authed(token, `${BASE}/payment-method`), 200)).toMatchObject({ brand: 'visa', last4: '4242' });
    const saved = await ctx.store.getPaymentMethod(ctx.demo.site.id, ctx.demo.memberIds.grace!);
    expect(saved?.processorId).toBe(made.id);

    const next = await jsonOf<TestPaymentMethod>(await make(ctx, token, '5555 5555 5555 4444'), 201);
    expect(await jsonOf<SavedCard>(await ctx.authed(token, `${BASE}/payment-method`, { method: 'PUT', json: { paymentMethodId: next.id } }), 200)).toMatchObject({ brand: 'mastercard', last4: '4444' });
  });

  test('a card its bank refuses (0002) is refused here, 402; a bad card names each field; no session, 401', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    await expectError(await make(ctx, token, '4000 0000 0000 0002'), 402, 'paymentDeclined', 'cardNumber');
    const bad = await ctx.authed(token, `${BASE}/test-payment-methods`, { method: 'POST', json: { cardNumber: '1234', cardExpiry: '13/20', cardCvc: 'x' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual(['cardCvc', 'cardExpiry', 'cardNumber']);
    expect((await ctx.request(`${BASE}/test-payment-methods`, { method: 'POST', json: card('4242424242424242') })).status).toBe(401);
    await expectError(await ctx.authed(token, `${BASE}/test-payment-methods`, { method: 'POST', json: { paymentMethodId: 'pm_test_x' } }), 400, 'invalidField', 'cardNumber');
  });

  test('a payment method another member made is no payment method of this one', async () => {
    const ctx = await fresh();
    const grace = await ctx.session(GRACE);
    const ada = await ctx.session(ADA);
    const graces = await jsonOf<TestPaymentMethod>(await make(ctx, grace.token, '4242424242424242'), 201);
    await expectError(
      await ctx.authed(ada.token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId: 'lifetime', paymentMethodId: graces.id } }),
      400,
      'invalidField',
      'paymentMethodId',
    );
    expect((await ctx.store.listMembershipsOfMember(ctx.demo.site.id, ctx.demo.memberIds.ada!)).filter((m) => m.planId === ctx.demo.planIds.lifetime)).toEqual([]);
  });
});
