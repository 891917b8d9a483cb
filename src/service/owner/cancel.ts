/**
 * The owner cancels a membership (issue 32): now (access ends at once, nothing is charged again)
 * or at the period's end (a running subscription stops renewing and stays active until then, as
 * when the member cancels it). No money moves: a refund is an action of its own.
 */
import type { MembershipRecord, SiteRecord } from '../store/records';
import type { Actor, OwnerDeps } from './actor';
import { OwnerActionError } from './errors';

export type CancelWhen = 'now' | 'periodEnd';

export async function cancelMembership(
  { store, clock }: Pick<OwnerDeps, 'store' | 'clock'>,
  site: SiteRecord,
  membershipId: number,
  when: CancelWhen,
  by: Actor,
): Promise<MembershipRecord> {
  const membership = await store.getMembership(site.id, membershipId);
  if (!membership) throw new OwnerActionError('notFound', `No membership ${membershipId} in this site`);
  if (membership.status !== 'active') throw new OwnerActionError('conflict', `Membership ${membershipId} is ${membership.status} already`);
  const now = clock();
  let updated: MembershipRecord | undefined;
  if (when === 'periodEnd') {
    const running = membership.type === 'subscription' && membership.billingPeriodEnd !== undefined;
    if (!running) {
      throw new OwnerActionError('conflict', 'Only a running subscription can be cancelled at its period\'s end; cancel it now instead', 'when');
    }
    // Cancelled at the period's end already: nothing more to do, and nothing to record again.
    if (membership.cancelsAt !== undefined) return membership;
    updated = await store.updateMembership(site.id, membershipId, { cancelsAt: membership.billingPeriodEnd!, nextPlanId: null }, 'membership.cancelled');
  } else {
    updated = await store.updateMembership(
      site.id,
      membershipId,
      { status: 'cancelled', cancelsAt: now, billingPeriodEnd: null, nextPlanId: null },
      'membership.cancelled',
    );
  }
  if (!updated) throw new OwnerActionError('notFound', `No membership ${membershipId} in this site`);
  await store.createMemberEvents([
    { siteId: site.id, memberId: membership.memberId, eventType: 'cancellation', details: { planId: membership.planId, membershipId, when, by }, createdAt: now },
  ]);
  return updated;
}
