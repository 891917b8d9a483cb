/**
 * The member's memberships (issue 5's plan sign-up, issue 28's payment with the member there):
 * POST /memberships (a plan sign-up, answering the `Service.conversion` detail) and its
 * confirmation, GET /memberships (what the running ones cost), POST /memberships/{id}/cancel,
 * POST /memberships/{id}/pay and its confirmation. Changing plans is ./plan-change-routes.
 */
import { jsonResponse } from '../http/json';
import type { MembershipRecord, SiteRecord } from '../store/records';
import { billingOf, membershipAnswer, membershipIdOf, NO_STORE, ownMembership, readIntentId, requiresAction, type BillingContext } from './billing-answers';
import { readObject } from './body';
import type { MemberApp } from './context';
import { MemberError } from './errors';
import { membershipPrices } from './membership-prices';
import { confirmPayNow, payNow } from './pay-now';
import { findOpenPlan } from './plan-offers';
import { confirmSignUp, readPayment, signUpToPlan } from './plan-signup';

export function membershipRoutes(app: MemberApp, ctx: BillingContext): void {
  const { store, clock } = ctx;

  app.post('/sites/:subdomain/memberships', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const body = await readObject(c.req.raw);
    if (typeof body.planPublicId !== 'string' || !body.planPublicId) {
      throw MemberError.of(400, 'invalidField', 'Name the plan by its public id', 'planPublicId');
    }
    const payment = readPayment(body);
    const plan = await findOpenPlan(store, site.id, body.planPublicId);
    if (!plan) throw MemberError.of(404, 'notFound', 'No plan with that id is open for sign-up', 'planPublicId');
    const outcome = await signUpToPlan(billingOf(ctx, site), site, member, plan, payment);
    // 202: the bank wants the payment confirmed in the browser; nothing is recorded until it is.
    return jsonResponse(outcome, 'requiresAction' in outcome ? 202 : 201, NO_STORE);
  });

  app.post('/sites/:subdomain/memberships/confirm', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const intentId = readIntentId(await readObject(c.req.raw), 'sign-up');
    return jsonResponse(await confirmSignUp(billingOf(ctx, site), site, member, intentId), 201, NO_STORE);
  });

  app.post('/sites/:subdomain/memberships/:id/cancel', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const mine = await ownMembership(ctx, site, member.id, membershipIdOf(c));
    return membershipAnswer(ctx, site, await cancelAtPeriodEnd(ctx, site, mine));
  });

  // A payment that failed, paid now with the member there (pay-now.ts): the bank may ask first (202).
  app.post('/sites/:subdomain/memberships/:id/pay', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const paid = await payNow(billingOf(ctx, site), site, member.id, membershipIdOf(c));
    if ('intentId' in paid) return requiresAction(paid);
    return membershipAnswer(ctx, site, paid);
  });

  app.post('/sites/:subdomain/memberships/:id/pay/confirm', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const id = membershipIdOf(c);
    const intentId = readIntentId(await readObject(c.req.raw), 'payment');
    return membershipAnswer(ctx, site, await confirmPayNow(billingOf(ctx, site), site, member.id, id, intentId));
  });

  // What the member's running subscriptions and instalment plans cost them (the price they joined at), and their trials.
  app.get('/sites/:subdomain/memberships', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    return jsonResponse(await membershipPrices(store, site.id, member.id, clock()), 200, NO_STORE);
  });
}

/**
 * A running subscription stops renewing: it ends when the period paid for does (`cancelsOn`),
 * and stays active until then. Anything else cannot be cancelled here.
 */
async function cancelAtPeriodEnd({ store, clock }: BillingContext, site: SiteRecord, membership: MembershipRecord): Promise<MembershipRecord> {
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
