/**
 * Everything the service stores about a member, as one JSON document (issue 32): what a site
 * owner hands a person who asks for their data (GDPR art. 15 and 20). The Admin API's wire types
 * where it has them, so the document reads like the API; no secrets (password hashes, session
 * and token hashes are never in it). Exporting is recorded as a member event.
 */
import type { Member, MemberEvent, Membership, ContentView } from '../../contract/admin';
import type { Invoice } from '../../contract/webhooks';
import { toContentView, toInvoice, toMember, toMemberEvent, toMembership } from '../admin/serialize';
import { isoTime } from '../http/json';
import { mailedAddresses } from '../store/member-erasure';
import type { Page, PageRequest } from '../store/queries';
import type { SiteRecord } from '../store/records';
import type { Actor, OwnerDeps } from './actor';
import { OwnerActionError } from './errors';

export interface MemberExport {
  exportedAt: string;
  site: { id: number; subdomain: string; name: string };
  member: Member & { profileImageUrl?: string; emailConfirmedAt?: string; processorCustomerId?: string };
  signupFields: { fieldId: number; key?: string; label?: string; value: unknown }[];
  metadata: Record<string, unknown>;
  memberships: Membership[];
  invoices: Invoice[];
  paymentMethod?: { brand: string; last4: string; expMonth: number; expYear: number; savedAt: string };
  events: MemberEvent[];
  contentViews: ContentView[];
  mails: { kind: string; to: string; subject: string; status: string; createdAt: string; sentAt?: string }[];
}

/** Every item of a keyset-paged read. */
async function everyPage<T extends { id: number }>(read: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  for (let afterId: number | undefined; ; ) {
    const page = await read({ limit: 500, ...(afterId !== undefined && { afterId }) });
    all.push(...page.items);
    if (!page.hasMore || page.items.length === 0) return all;
    afterId = page.items[page.items.length - 1]!.id;
  }
}

export async function exportMember({ store, clock }: Pick<OwnerDeps, 'store' | 'clock'>, site: SiteRecord, memberId: number, by: Actor): Promise<MemberExport> {
  const member = await store.getMember(site.id, memberId);
  if (!member) throw new OwnerActionError('notFound', `No member ${memberId} in this site`);
  const now = clock();
  const [values, fields, metadata, memberships, invoices, card, events, views, mails] = await Promise.all([
    store.listSignupValues(site.id, memberId),
    store.listSignupFields(site.id),
    store.getMemberMetadata(site.id, memberId),
    store.listMembershipsOfMember(site.id, memberId),
    store.listInvoicesOfMember(site.id, memberId),
    store.getPaymentMethod(site.id, memberId),
    everyPage((page) => store.listMemberEvents(site.id, { memberId }, page)),
    everyPage((page) => store.listContentViews(site.id, { memberId }, page)),
    // The outbox has no index by recipient: an export is rare, and reads it through once.
    everyPage((page) => store.listMail(undefined, page)),
  ]);
  const fieldById = new Map(fields.map((f) => [f.id, f]));
  // The mail went to the member's address of the time: this one, and those their e-mail changes name.
  const addresses = new Set(mailedAddresses(member.email, events.filter((e) => e.eventType === 'emailChanged').map((e) => e.details)));
  const document: MemberExport = {
    exportedAt: isoTime(now),
    site: { id: site.id, subdomain: site.subdomain, name: site.name },
    member: {
      ...toMember(member),
      ...(member.profileImageUrl !== undefined && { profileImageUrl: member.profileImageUrl }),
      ...(member.emailConfirmedAt !== undefined && { emailConfirmedAt: isoTime(member.emailConfirmedAt) }),
      ...(member.processorCustomerId !== undefined && { processorCustomerId: member.processorCustomerId }),
    },
    signupFields: values.map((v) => ({ fieldId: v.fieldId, key: fieldById.get(v.fieldId)?.key, label: fieldById.get(v.fieldId)?.label, value: v.value })),
    metadata: metadata ?? {},
    memberships: memberships.map(toMembership),
    invoices: invoices.map(toInvoice),
    ...(card && {
      paymentMethod: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear, savedAt: isoTime(card.createdAt) },
    }),
    events: events.map(toMemberEvent),
    contentViews: views.map(toContentView),
    mails: mails
      .filter((m) => m.siteId === site.id && addresses.has(m.to))
      .map((m) => ({ kind: m.kind, to: m.to, subject: m.subject, status: m.status, createdAt: isoTime(m.createdAt), ...(m.sentAt !== undefined && { sentAt: isoTime(m.sentAt) }) })),
  };
  await store.createMemberEvents([{ siteId: site.id, memberId, eventType: 'memberExported', details: { by }, createdAt: now }]);
  return document;
}
