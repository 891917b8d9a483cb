/**
 * The member's plans and payments (issue 5's plan sign-up, memberships, invoices and payment
 * method screens): POST /memberships (plan sign-up, answering the `Service.conversion` detail),
 * GET /memberships (what the running ones cost), POST /memberships/{id}/cancel, GET /invoices,
 * GET and PUT /payment-method.
 */
import type { Context, Hono } from 'hono';
import type { InvoiceSummary, PlanChangeQuote, SavedCard, TestPaymentAuthorization, TestPaymentMethod } from '../../contract/member';
import { chargeOverdue } from '../billing/renewals';
import { parseId } from '../domain/validation';
import { UnknownPaymentReferenceError, type RequiresAction } from '../payments/processor';
import type { ProcessorFor } from '../payments/processor-for';
import { jsonResponse } from '../http/json';
import type { MembershipRecord, PaymentMethodRecord, SiteRecord } from '../store/records';
import { readObject } from './body';
import { MemberError } from './errors';
import { toWidgetMembership } from './member-info';
import { membershipPrices } from './membership-prices';
import { confirmPayNow, payNow } from './pay-now';
import { changePlan, changeQuote, confirmPlanChange } from './plan-change';
import { findOpenPlan } from './plan-offers';
import { confirmSignUp, makeTestPaymentMethod, PROCESSOR_ID, readCard, readPayment, saveCard, signUpToPlan, type BillingDeps } from './plan-signup';
import type { Authenticated } from './sessions';

type Env = { Variables: { site: SiteRecord } };

export interface BillingRouteDeps extends Omit<BillingDeps, 'processor'> {
  authenticate(c: Context<Env>): Promise<Authenticated>;
  /** The processor the site takes payments through (its Stripe account, or the test processor). */
  processorFor: ProcessorFor;
}

const savedCard = (m: PaymentMethodRecord): SavedCard => ({ brand: m.brand, last4: m.last4, expMonth: m.expMonth, expYear: m.expYear });
const NO_STORE = { 'cache-control': 'no-store' };

/** A membership id in a path: only the canonical spelling (`372.0`, `+372`, `0x174` or `0372` is not membership 372). */
function membershipIdOf(text: string): number {
  const id = parseId(text);
  if (id === undefined) throw MemberError.of(400, 'invalidField', 'A membership id is digits alone, without a sign, point or leading zero, such as 372', 'id');
  return id;
}

/** The `intentId` of a confirmation's body: the one the sign-up, payment or change answered with its 202. */
function readIntentId(body: Record<string, unknown>, answeredBy: string): string {
  if (typeof body.intentId !== 'string' || !PROCESSOR_ID.test(body.intentId)) {
    throw MemberError.of(400, 'invalidField', `Name the payment by the intentId the ${answeredBy} answered`, 'intentId');
  }
  return body.intentId;
}

/** The bank's question, as a 202 answers it (nothing recorded until the confirmation). */
const requiresAction = ({ intentId, clientSecret }: RequiresAction) => jsonResponse({ requiresAction: { intentId, clientSecret } }, 202, NO_STORE);

export function billingRoutes(app: Hono<Env>, deps: BillingRouteDeps): void {
  const { store, clock } = deps;
  /** A membership as the widget shows it. */
  const widgetMembership = async (site: SiteRecord, membership: MembershipRecord) =>
    toWidgetMembership(
      membership, (await store.getPlan(site.id, membership.planId))!, site, clock(),
      membership.nextPlanId === undefined ? undefined : await store.getPlan(site.id, membership.nextPlanId),
    );
  /** The billing functions' dependencies with the site's processor. */
  const billing = (site: SiteRecord): BillingDeps => ({ store, clock, processor: deps.processorFor(site) });

  app.post('/sites/:subdomain/memberships', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const body = await readObject(c.req.raw);
    if (typeof body.planPublicId !== 'string' || !body.planPublicId) {
      throw MemberError.of(400, 'invalidField', 'Name the plan by its public id', 'planPublicId');
    }
    const payment = readPayment(body);
    const plan = await findOpenPlan(store, site.id, body.planPublicId);
    if (!plan) throw MemberError.of(404, 'notFound', 'No plan with that id is open for sign-up', 'planPublicId');
    const outcome = await signUpToPlan(billing(site), site, member, plan, payment);
    // 202: the bank wants the payment confirmed in the browser; nothing is recorded until it is.
    return jsonResponse(outcome, 'requiresAction' in outcome ? 202 : 201, NO_STORE);
  });

  app.post('/sites/:subdomain/memberships/confirm', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const intentId = readIntentId(await readObject(c.req.raw), 'sign-up');
    return jsonResponse(await confirmSignUp(billing(site), site, member, intentId), 201, NO_STORE);
  });

  app.post('/sites/:subdomain/memberships/:id/cancel', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    // Only the canonical spelling: `372.0`, `+372`, `0x174` or `0372` is not membership 372.
    const id = membershipIdOf(c.req.param('id'));
    const mine = (await store.listMembershipsOfMember(site.id, member.id)).find((m) => m.id === id);
    if (!mine) throw MemberError.of(404, 'notFound', 'You have no membership with that id', 'id');
    return jsonResponse(await widgetMembership(site, await cancelAtPeriodEnd(deps, site, mine)), 200, NO_STORE);
  });

  // A payment that failed, paid now with the member there (pay-now.ts): the bank may ask first (202).
  app.post('/sites/:subdomain/memberships/:id/pay', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const paid = await payNow(billing(site), site, member.id, membershipIdOf(c.req.param('id')));
    if ('intentId' in paid) return requiresAction(paid);
    return jsonResponse(await widgetMembership(site, paid), 200, NO_STORE);
  });

  app.post('/sites/:subdomain/memberships/:id/pay/confirm', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const id = membershipIdOf(c.req.param('id'));
    const intentId = readIntentId(await readObject(c.req.raw), 'payment');
    return jsonResponse(await widgetMembership(site, await confirmPayNow(billing(site), site, member.id, id, intentId)), 200, NO_STORE);
  });

  // Changing a running subscription to another plan (decision 0036): what it would do, then doing it.
  const changeTarget = async (c: Context<Env>, ref: unknown) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const id = membershipIdOf(c.req.param('id') ?? '');
    if (typeof ref !== 'string' || !ref) throw MemberError.of(400, 'invalidField', 'Name the plan to change to by its public id or key', 'plan');
    const mine = (await store.listMembershipsOfMember(site.id, member.id)).find((m) => m.id === id);
    if (!mine) throw MemberError.of(404, 'notFound', 'You have no membership with that id', 'id');
    const target = await findOpenPlan(store, site.id, ref);
    if (!target) throw MemberError.of(404, 'notFound', 'No plan with that id is open for sign-up', 'plan');
    return { site, member, mine, target };
  };
  app.get('/sites/:subdomain/memberships/:id/change', async (c) => {
    const { site, mine, target } = await changeTarget(c, c.req.query('plan'));
    const quote = changeQuote(mine, (await store.getPlan(site.id, mine.planId))!, target, clock());
    const answer: PlanChangeQuote = { ...quote, next: { amountCents: quote.next.amountCents, at: new Date(quote.next.at).toISOString() } };
    return jsonResponse(answer, 200, NO_STORE);
  });
  app.post('/sites/:subdomain/memberships/:id/change', async (c) => {
    const body = await readObject(c.req.raw);
    const { site, member, mine, target } = await changeTarget(c, body.plan);
    const changed = await changePlan(billing(site), site, member, mine.id, target, readPayment(body));
    // 202: the bank wants the upgrade's payment confirmed in the browser; nothing changes until it is.
    if ('intentId' in changed) return requiresAction(changed);
    return jsonResponse(await widgetMembership(site, changed), 200, NO_STORE);
  });
  app.post('/sites/:subdomain/memberships/:id/change/confirm', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const id = membershipIdOf(c.req.param('id'));
    const intentId = readIntentId(await readObject(c.req.raw), 'change');
    return jsonResponse(await widgetMembership(site, await confirmPlanChange(billing(site), site, member, id, intentId)), 200, NO_STORE);
  });

  // What the member's running subscriptions and instalment plans cost them (the price they joined at), and their trials.
  app.get('/sites/:subdomain/memberships', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    return jsonResponse(await membershipPrices(store, site.id, member.id, clock()), 200, NO_STORE);
  });

  app.get('/sites/:subdomain/invoices', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const invoices = await store.listInvoicesOfMember(site.id, member.id);
    const body: InvoiceSummary[] = invoices.map((i) => ({
      id: i.processorInvoiceId,
      description: i.description,
      subTotalCents: i.subTotalCents,
      taxCents: i.taxCents,
      totalCents: i.totalCents,
      currency: i.currency,
      status: i.status,
      createdAt: new Date(i.createdAt).toISOString(),
    }));
    return jsonResponse(body, 200, NO_STORE);
  });

  app.get('/sites/:subdomain/payment-method', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const method = await store.getPaymentMethod(site.id, member.id);
    // No card yet is an answer, not a failure: a browser logs every 4xx as an error in the console.
    if (!method) return new Response(null, { status: 204, headers: NO_STORE });
    return jsonResponse(savedCard(method), 200, NO_STORE);
  });

  // The test processor's card field: the card in, a pm_test_… out (makeTestPaymentMethod).
  app.post('/sites/:subdomain/test-payment-methods', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const siteBilling = billing(site);
    if (!siteBilling.processor.addPaymentMethod) {
      throw MemberError.of(404, 'notFound', 'This site takes cards through Stripe: the card goes to Stripe from the page, never here', 'base');
    }
    const method = await makeTestPaymentMethod(siteBilling, site, member, readCard(await readObject(c.req.raw)));
    const body: TestPaymentMethod = { id: method.id, brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear };
    return jsonResponse(body, 201, NO_STORE);
  });

  // The test processor's stand-in for the bank's window: the member's answer to a 3-D Secure card's question.
  app.post('/sites/:subdomain/test-payment-intents/:intentId', async (c) => {
    const site = c.get('site');
    await deps.authenticate(c);
    const { processor } = billing(site);
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

  app.put('/sites/:subdomain/payment-method', async (c) => {
    const site = c.get('site');
    const { member } = await deps.authenticate(c);
    const payment = readPayment(await readObject(c.req.raw));
    if (!payment) throw MemberError.of(400, 'invalidField', 'Name the card by the paymentMethodId the processor made of it', 'paymentMethodId');
    const siteBilling = billing(site);
    const saved = await saveCard(siteBilling, site, member, payment);
    // A payment that failed is tried again at once on the new card, not at the next retry.
    await chargeOverdue(siteBilling, site, member.id);
    return jsonResponse(savedCard(saved), 200, NO_STORE);
  });
}

/**
 * A running subscription stops renewing: it ends when the period paid for does (`cancelsOn`),
 * and stays active until then. Anything else cannot be cancelled here.
 */
async function cancelAtPeriodEnd({ store, clock }: Pick<BillingDeps, 'store' | 'clock'>, site: SiteRecord, membership: MembershipRecord): Promise<MembershipRecord> {
  const running = membership.type === 'subscription' && membership.status === 'active' && membership.billingPeriodEnd !== undefined;
  if (!running) throw MemberError.of(409, 'notCancellable', 'Only a running subscription can be cancelled', 'id');
  if (membership.cancelsAt !== undefined) return membership;
  // A downgrade waiting for the period's end goes with it (decision 0036).
  const updated = (await store.updateMembership(site.id, membership.id, { cancelsAt: membership.billingPeriodEnd!, nextPlanId: null }, 'membership.cancelled'))!;
  await store.createMemberEvents([
    { siteId: site.id, memberId: membership.memberId, eventType: 'cancellation', details: { planId: membership.planId }, createdAt: clock() },
  ]);
  return updated;
}
