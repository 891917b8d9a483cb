/**
 * Store records to Admin API resources. Fields are picked one by one, so internal ones
 * (siteId, hashes) never leak, and absent values stay `undefined`, which JSON.stringify omits.
 */
import type { ContentView, Member, MemberEvent, Membership, Plan, Site, SiteMetrics } from '../../contract/admin';
import type { Invoice } from '../../contract/webhooks';
import type {
  ContentViewRecord,
  InvoiceRecord,
  MemberEventRecord,
  MemberSummary,
  MembershipRecord,
  PlanRecord,
  SiteRecord,
} from '../store/records';
import { isoTime as iso } from '../http/json';

const isoOrUndefined = (ms: number | undefined) => (ms === undefined ? undefined : iso(ms));

export function toSite(r: SiteRecord, metrics: SiteMetrics): Site {
  return {
    id: r.id,
    name: r.name,
    subdomain: r.subdomain,
    domain: r.domain,
    defaultCurrency: r.defaultCurrency,
    locale: r.locale,
    metrics,
    createdAt: iso(r.createdAt),
  };
}

export function toPlan(r: PlanRecord, activeMemberCount: number): Plan {
  const common = {
    id: r.id,
    publicId: r.publicId,
    name: r.name,
    description: r.description,
    status: r.status,
    isPublic: r.isPublic,
    activeMemberCount,
    colorCode: r.colorCode,
    contentUrl: r.contentUrl,
    welcomeUrl: r.welcomeUrl,
    createdAt: iso(r.createdAt),
  };
  switch (r.type) {
    case 'free':
      return { ...common, type: r.type, expiration: r.expiration };
    case 'oneTimePayment':
    case 'multiPayment':
      return { ...common, type: r.type, expiration: r.expiration, billing: r.billing } as Plan;
    case 'subscription':
      return { ...common, type: r.type, billing: r.billing };
  }
}

export function toMember(r: MemberSummary): Member {
  return {
    id: r.id,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    status: r.status,
    createdAt: iso(r.createdAt),
  };
}

export function toMembership(r: MembershipRecord): Membership {
  return {
    id: r.id,
    memberId: r.memberId,
    planId: r.planId,
    planPublicId: r.planPublicId,
    status: r.status,
    type: r.type,
    createdAt: iso(r.createdAt),
    expiresOn: isoOrUndefined(r.expiresAt),
    cancelsOn: isoOrUndefined(r.cancelsAt),
    billing: r.billingPeriodEnd === undefined ? undefined : { billingPeriodEnd: iso(r.billingPeriodEnd) },
    nextPlanId: r.nextPlanId,
    comp: r.comp ? true : undefined,
    joinedBilling: r.billing,
  };
}

export function toMemberEvent(r: MemberEventRecord): MemberEvent {
  return { id: r.id, memberId: r.memberId, eventType: r.eventType, details: r.details, createdAt: iso(r.createdAt) };
}

export function toContentView(r: ContentViewRecord): ContentView {
  return {
    id: r.id,
    memberId: r.memberId,
    node: { id: r.node.id, name: r.node.name, type: r.node.type },
    spaceNode: { id: r.space.id, name: r.space.name },
    viewedAt: iso(r.viewedAt),
  };
}

export function toInvoice(r: InvoiceRecord): Invoice {
  return {
    id: r.id,
    memberId: r.memberId,
    planId: r.planId,
    membershipId: r.membershipId,
    status: r.status,
    subTotalCents: r.subTotalCents,
    taxCents: r.taxCents,
    totalCents: r.totalCents,
    refundedCents: r.refundedCents,
    currency: r.currency,
    description: r.description,
    processorInvoiceId: r.processorInvoiceId,
    processorChargeId: r.processorChargeId,
    createdAt: iso(r.createdAt),
  };
}
