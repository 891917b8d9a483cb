/**
 * The owner erases a member who asks to be forgotten (issue 32; GDPR art. 17). In this order, so
 * that running it again after a failure finishes the job:
 * 1. the member's customer at the payment processor is deleted (their cards with it), so nothing
 *    can charge them again; a customer already gone is no error;
 * 2. every active membership is cancelled now (announced as any cancellation);
 * 3. in one store transaction (Store.eraseMember): the row keeps its id with an address that is
 *    no one's and status `erased`, and the personal data, sessions, tokens, card, content views
 *    and mails are deleted.
 * The ledger stays: invoices (amounts, dates, the processor's ids) are kept for as long as
 * accounting law requires, and now name no person, only the member's id. Member events stay as
 * the account's history, their personal details removed. docs/owner-actions.md says all this to
 * owners.
 */
import { erasedEmail } from '../store/member-erasure';
import type { MemberRecord, SiteRecord } from '../store/records';
import type { Actor, OwnerDeps } from './actor';
import { OwnerActionError } from './errors';

export async function eraseMember({ store, clock, processorFor }: OwnerDeps, site: SiteRecord, memberId: number, by: Actor): Promise<MemberRecord> {
  const member = await store.getMember(site.id, memberId);
  if (!member) throw new OwnerActionError('notFound', `No member ${memberId} in this site`);
  if (member.status === 'erased') return member;
  if (member.processorCustomerId !== undefined) {
    try {
      await processorFor(site).deleteCustomer(member.processorCustomerId);
    } catch {
      throw new OwnerActionError('processor', 'The processor could not delete the member\'s customer; nothing was erased, and asking again is safe');
    }
  }
  const now = clock();
  for (const membership of await store.listMembershipsOfMember(site.id, memberId)) {
    if (membership.status !== 'active') continue;
    await store.updateMembership(site.id, membership.id, { status: 'cancelled', cancelsAt: now, billingPeriodEnd: null, nextPlanId: null }, 'membership.cancelled');
  }
  const erased = await store.eraseMember(site.id, memberId, erasedEmail(memberId));
  if (!erased) throw new OwnerActionError('notFound', `No member ${memberId} in this site`);
  await store.createMemberEvents([{ siteId: site.id, memberId, eventType: 'memberErased', details: { by }, createdAt: now }]);
  return erased;
}
