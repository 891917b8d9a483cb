/**
 * The owner gives a member a plan for free (issue 32), with or without an end date. The
 * membership is marked `comp`: it has no billing, so no renewal or instalment ever charges it,
 * and the console does not count it as revenue. The plan may be any the site has not archived
 * or deleted, a disabled one (no longer for sale) included.
 */
import type { MembershipRecord, SiteRecord } from '../store/records';
import type { Actor, OwnerDeps } from './actor';
import { OwnerActionError } from './errors';

export async function compMembership(
  { store, clock }: Pick<OwnerDeps, 'store' | 'clock'>,
  site: SiteRecord,
  input: { memberId: number; planId: number; expiresAt?: number },
  by: Actor,
): Promise<MembershipRecord> {
  const now = clock();
  const [member, plan] = await Promise.all([store.getMember(site.id, input.memberId), store.getPlan(site.id, input.planId)]);
  if (!member) throw new OwnerActionError('notFound', `No member ${input.memberId} in this site`, 'memberId');
  if (!plan) throw new OwnerActionError('notFound', `No plan ${input.planId} in this site`, 'planId');
  if (member.status === 'erased') throw new OwnerActionError('conflict', `Member ${member.id} was erased`, 'memberId');
  if (plan.status === 'archived' || plan.status === 'deleted') {
    throw new OwnerActionError('conflict', `Plan ${plan.id} is ${plan.status}: it cannot be given`, 'planId');
  }
  if (input.expiresAt !== undefined && input.expiresAt <= now) throw new OwnerActionError('invalid', 'expiresAt must be in the future', 'expiresAt');
  const held = (await store.listMembershipsOfMember(site.id, member.id)).find((m) => m.planId === plan.id && m.status === 'active');
  if (held) throw new OwnerActionError('conflict', `Member ${member.id} has an active membership of plan ${plan.id} (membership ${held.id})`, 'planId');
  const [id] = await store.createMemberships([
    {
      siteId: site.id,
      memberId: member.id,
      planId: plan.id,
      status: 'active',
      createdAt: now,
      paymentFailure: false,
      comp: true,
      ...(input.expiresAt !== undefined && { expiresAt: input.expiresAt }),
    },
  ]);
  await store.createMemberEvents([
    {
      siteId: site.id,
      memberId: member.id,
      eventType: 'membershipComped',
      details: { membershipId: id!, planId: plan.id, ...(input.expiresAt !== undefined && { expiresAt: new Date(input.expiresAt).toISOString() }), by },
      createdAt: now,
    },
  ]);
  return (await store.getMembership(site.id, id!))!;
}
