/**
 * The owner blocks and unblocks a member (issue 32). A blocked member is signed out everywhere at
 * once (every session revoked) and cannot sign in again, by password, code or link: sign-in
 * answers `memberBlocked` and the widget says so. Both are idempotent: blocking a blocked member
 * changes and records nothing.
 */
import type { MemberRecord, SiteRecord } from '../store/records';
import type { Actor, OwnerDeps } from './actor';
import { OwnerActionError } from './errors';

async function liveMember({ store }: Pick<OwnerDeps, 'store'>, site: SiteRecord, memberId: number): Promise<MemberRecord> {
  const member = await store.getMember(site.id, memberId);
  if (!member) throw new OwnerActionError('notFound', `No member ${memberId} in this site`);
  if (member.status === 'erased') throw new OwnerActionError('conflict', `Member ${memberId} was erased`);
  return member;
}

export async function blockMember(deps: Pick<OwnerDeps, 'store' | 'clock'>, site: SiteRecord, memberId: number, by: Actor): Promise<MemberRecord> {
  const member = await liveMember(deps, site, memberId);
  if (member.status === 'blocked') return member;
  const now = deps.clock();
  const blocked = (await deps.store.updateMember(site.id, memberId, { status: 'blocked' }))!;
  const sessionsEnded = await deps.store.revokeMemberSessions(site.id, memberId, now);
  await deps.store.createMemberEvents([{ siteId: site.id, memberId, eventType: 'memberBlocked', details: { sessionsEnded, by }, createdAt: now }]);
  return blocked;
}

/** An unblocked member is `approved`: the owner has looked at them. */
export async function unblockMember(deps: Pick<OwnerDeps, 'store' | 'clock'>, site: SiteRecord, memberId: number, by: Actor): Promise<MemberRecord> {
  const member = await liveMember(deps, site, memberId);
  if (member.status !== 'blocked') return member;
  const unblocked = (await deps.store.updateMember(site.id, memberId, { status: 'approved' }))!;
  await deps.store.createMemberEvents([{ siteId: site.id, memberId, eventType: 'memberUnblocked', details: { by }, createdAt: deps.clock() }]);
  return unblocked;
}
