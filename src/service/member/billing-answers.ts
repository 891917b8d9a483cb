/**
 * What the member API's billing rooms share (./membership-routes, ./plan-change-routes,
 * ./payment-method-routes, ./test-processor-routes): the member's membership named in a path,
 * the payment a confirmation names, and the answers a membership or the bank's question make.
 */
import type { RequiresAction } from '../payments/processor';
import { parseId } from '../domain/validation';
import { jsonResponse } from '../http/json';
import type { MembershipRecord, SiteRecord } from '../store/records';
import type { MemberContext, MemberRequest } from './context';
import { MemberError } from './errors';
import { toWidgetMembership } from './member-info';
import { PROCESSOR_ID, type BillingDeps } from './plan-signup';

/** What a billing room needs of the member API's shared context. */
export type BillingContext = Pick<MemberContext, 'store' | 'clock' | 'processorFor' | 'authenticate'>;

/** Answers about a member's money are the member's alone: no cache keeps them. */
export const NO_STORE = { 'cache-control': 'no-store' };

/** The billing functions' dependencies with the site's processor (its Stripe account, or the test processor). */
export const billingOf = ({ store, clock, processorFor }: BillingContext, site: SiteRecord): BillingDeps => ({ store, clock, processor: processorFor(site) });

/** A membership id in a path: only the canonical spelling (`372.0`, `+372`, `0x174` or `0372` is not membership 372). */
export function membershipIdOf(c: MemberRequest): number {
  const id = parseId(c.req.param('id') ?? '');
  if (id === undefined) throw MemberError.of(400, 'invalidField', 'A membership id is digits alone, without a sign, point or leading zero, such as 372', 'id');
  return id;
}

/** The signed-in member's membership the path names, or a 404. */
export async function ownMembership({ store }: BillingContext, site: SiteRecord, memberId: number, id: number): Promise<MembershipRecord> {
  const mine = (await store.listMembershipsOfMember(site.id, memberId)).find((m) => m.id === id);
  if (!mine) throw MemberError.of(404, 'notFound', 'You have no membership with that id', 'id');
  return mine;
}

/** The `intentId` of a confirmation's body: the one the sign-up, payment or change answered with its 202. */
export function readIntentId(body: Record<string, unknown>, answeredBy: string): string {
  if (typeof body.intentId !== 'string' || !PROCESSOR_ID.test(body.intentId)) {
    throw MemberError.of(400, 'invalidField', `Name the payment by the intentId the ${answeredBy} answered`, 'intentId');
  }
  return body.intentId;
}

/** The bank's question, as a 202 answers it (nothing recorded until the confirmation). */
export const requiresAction = ({ intentId, clientSecret }: RequiresAction) => jsonResponse({ requiresAction: { intentId, clientSecret } }, 202, NO_STORE);

/** A membership as the widget shows it, with its plan and any plan it changes to. */
export async function widgetMembership({ store, clock }: BillingContext, site: SiteRecord, membership: MembershipRecord) {
  return toWidgetMembership(
    membership, (await store.getPlan(site.id, membership.planId))!, site, clock(),
    membership.nextPlanId === undefined ? undefined : await store.getPlan(site.id, membership.nextPlanId),
  );
}

/** 200 with the membership as the widget shows it. */
export const membershipAnswer = async (ctx: BillingContext, site: SiteRecord, membership: MembershipRecord) =>
  jsonResponse(await widgetMembership(ctx, site, membership), 200, NO_STORE);
