/**
 * Changing a running subscription to another plan (decision 0036): GET /memberships/{id}/change
 * says what a change would do, POST does it (an upgrade's payment may need the bank's question
 * answered first: 202), POST …/change/confirm finishes one the bank asked about.
 */
import type { PlanChangeQuote } from '../../contract/member';
import { jsonResponse } from '../http/json';
import { billingOf, membershipAnswer, membershipIdOf, NO_STORE, ownMembership, readIntentId, requiresAction, type BillingContext } from './billing-answers';
import { readObject } from './body';
import type { MemberApp, MemberRequest } from './context';
import { MemberError } from './errors';
import { changePlan, changeQuote, confirmPlanChange } from './plan-change';
import { findOpenPlan } from './plan-offers';
import { readPayment } from './plan-signup';

export function planChangeRoutes(app: MemberApp, ctx: BillingContext): void {
  const { store, clock } = ctx;
  /** The member's membership the path names and the open plan `ref` names (its public id or key). */
  const changeTarget = async (c: MemberRequest, ref: unknown) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const id = membershipIdOf(c);
    if (typeof ref !== 'string' || !ref) throw MemberError.of(400, 'invalidField', 'Name the plan to change to by its public id or key', 'plan');
    const mine = await ownMembership(ctx, site, member.id, id);
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
    const changed = await changePlan(billingOf(ctx, site), site, member, mine.id, target, readPayment(body));
    // 202: the bank wants the upgrade's payment confirmed in the browser; nothing changes until it is.
    if ('intentId' in changed) return requiresAction(changed);
    return membershipAnswer(ctx, site, changed);
  });

  app.post('/sites/:subdomain/memberships/:id/change/confirm', async (c) => {
    const site = c.get('site');
    const { member } = await ctx.authenticate(c);
    const id = membershipIdOf(c);
    const intentId = readIntentId(await readObject(c.req.raw), 'change');
    return membershipAnswer(ctx, site, await confirmPlanChange(billingOf(ctx, site), site, member, id, intentId));
  });
}
