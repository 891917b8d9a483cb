/**
 * The built-in test processor's two stand-ins (decision 0033, docs/test-cards.md), for the demo
 * and the tests: its card field (POST /test-payment-methods: the card in, a pm_test_… out) and
 * the bank's window (POST /test-payment-intents/{intentId}: the member's answer to a 3-D Secure
 * card's question). A Stripe site has neither: its cards and its bank's questions stay on Stripe.
 */
import type { TestPaymentAuthorization, TestPaymentMethod } from '../../contract/member';
import { jsonResponse } from '../http/json';
import { UnknownPaymentReferenceError } from '../payments/processor';
import { billingOf, NO_STORE, type BillingContext } from './billing-answers';
import { readObject } from './body';
import type { MemberApp } from './context';
import { MemberError } from './errors';
import { makeTestPaymentMethod, PROCESSOR_ID, readCard } from './plan-signup';

export function testProcessorRoutes(app: MemberApp, ctx: BillingContext): void {
  app.post('/sites/:subdomain/test-payment-methods', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const billing = billingOf(ctx, site);
    if (!billing.processor.addPaymentMethod) {
      throw MemberError.of(404, 'notFound', 'This site takes cards through Stripe: the card goes to Stripe from the page, never here', 'base');
    }
    const method = await makeTestPaymentMethod(billing, site, member, readCard(await readObject(c.req.raw)));
    const body: TestPaymentMethod = { id: method.id, brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear };
    return jsonResponse(body, 201, NO_STORE);
  });

  app.post('/sites/:subdomain/test-payment-intents/:intentId', async (c) => {
    const site = c.get('site');
    await ctx.authenticate(c);
    const { processor } = billingOf(ctx, site);
    const intentId = c.req.param('intentId');
    const body = await readObject(c.req.raw);
    if (!processor.authorizeTestPayment) {
      throw MemberError.of(404, 'notFound', 'This site takes cards through Stripe: its bank asks in Stripe\'s window, never here', 'base');
    }
    if (typeof body.clientSecret !== 'string' || !PROCESSOR_ID.test(body.clientSecret)) {
      throw MemberError.of(400, 'invalidField', 'Give the clientSecret the sign-up answered', 'clientSecret');
    }
    if (typeof body.approve !== 'boolean') throw MemberError.of(400, 'invalidField', 'Say whether the payment is authorized: approve, true or false', 'approve');
    const status = await processor.authorizeTestPayment(intentId, body.clientSecret, body.approve).catch((error: unknown) => {
      if (error instanceof UnknownPaymentReferenceError) throw MemberError.of(404, 'notFound', 'No payment waits with that id and client secret', 'intentId');
      throw error;
    });
    const answer: TestPaymentAuthorization = { status };
    return jsonResponse(answer, 200, NO_STORE);
  });
}
