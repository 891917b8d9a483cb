/**
 * The bodies the Admin API should answer, built from store records independently of
 * src/service/admin/serialize.ts, from the tables of spec section 2.
 */
import type { ContentViewRecord, MemberEventRecord, MemberRecord, MembershipRecord, PlanRecord, SiteRecord } from '../../../src/service/store/records';
import { demoSiteFile } from '../../../src/service/seed/demo-site-file';
import { OTHER_SPACE, type SiteData } from '../../support/admin-fixture';
import { iso } from './date-times';

/** Optional fields without a value are left out, never null. */
const present = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** Distinct members with an active membership among `memberships` that pass `include`. */
export function activeMembers(memberships: MembershipRecord[], include: (m: MembershipRecord) => boolean = () => true): number {
  return new Set(memberships.filter((m) => m.status === 'active' && include(m)).map((m) => m.memberId)).size;
}

export function expectedSite(site: SiteRecord, data: SiteData) {
  return {
    id: site.id,
    name: site.name,
    subdomain: site.subdomain,
    domain: site.domain,
    defaultCurrency: site.defaultCurrency,
    locale: site.locale,
    metrics: {
      activeMemberCount: activeMembers(data.memberships),
      freeMemberCount: activeMembers(data.memberships, (m) => m.type === 'free'),
      paidMemberCount: activeMembers(data.memberships, (m) => m.type !== 'free'),
    },
    createdAt: iso(site.createdAt),
  };
}

export function expectedPlan(plan: PlanRecord, data: SiteData) {
  return {
    id: plan.id,
    publicId: plan.publicId,
    name: plan.name,
    ...present('description', plan.description),
    status: plan.status,
    isPublic: plan.isPublic,
    activeMemberCount: activeMembers(data.memberships, (m) => m.planId === plan.id),
    colorCode: plan.colorCode,
    ...present('contentUrl', plan.contentUrl),
    ...present('welcomeUrl', plan.welcomeUrl),
    createdAt: iso(plan.createdAt),
    type: plan.type,
    ...('expiration' in plan && { expiration: plan.expiration }),
    ...('billing' in plan && { billing: plan.billing }),
  };
}

export function expectedMember(m: MemberRecord) {
  return {
    id: m.id,
    email: m.email,
    ...present('firstName', m.firstName),
    ...present('lastName', m.lastName),
    status: m.status,
    createdAt: iso(m.createdAt),
  };
}

export function expectedMembership(m: MembershipRecord, data: SiteData) {
  const plan = data.plans.find((p) => p.id === m.planId)!;
  return {
    id: m.id,
    memberId: m.memberId,
    planId: m.planId,
    planPublicId: plan.publicId,
    status: m.status,
    createdAt: iso(m.createdAt),
    type: plan.type,
    ...present('expiresOn', m.expiresAt === undefined ? undefined : iso(m.expiresAt)),
    ...present('cancelsOn', m.cancelsAt === undefined ? undefined : iso(m.cancelsAt)),
    ...present('billing', m.billingPeriodEnd === undefined ? undefined : { billingPeriodEnd: iso(m.billingPeriodEnd) }),
    ...present('nextPlanId', m.nextPlanId),
  };
}

export function expectedMemberEvent(e: MemberEventRecord) {
  return { id: e.id, memberId: e.memberId, eventType: e.eventType, details: e.details, createdAt: iso(e.createdAt) };
}

/** Content spaces are not listed by the store: their names come from what the fixture planted. */
function spaceNameOf(nodeName: string): string {
  return demoSiteFile().library.find((s) => s.items.some((item) => item.name === nodeName))?.space ?? OTHER_SPACE;
}

export function expectedContentView(v: ContentViewRecord, data: SiteData) {
  const node = data.nodes.find((n) => n.id === v.nodeId)!;
  return {
    id: v.id,
    memberId: v.memberId,
    node: { id: node.id, name: node.name, type: node.type },
    spaceNode: { id: node.spaceId, name: spaceNameOf(node.name) },
    viewedAt: iso(v.viewedAt),
  };
}
