/**
 * What the store keeps. Times are epoch milliseconds (UTC); optional fields are `undefined`
 * when absent, never `null`. Records carry their `siteId`: every read is scoped by it.
 */
import type {
  ContentNodeType,
  MemberEventType,
  MemberStatus,
  MembershipStatus,
  MultiPaymentBilling,
  OneTimePaymentBilling,
  PlanExpiration,
  PlanStatus,
  PlanType,
  Scope,
  SubscriptionBilling,
} from '../../contract/admin';

export type EpochMs = number;

export interface NewSite {
  name: string;
  subdomain: string;
  domain: string;
  defaultCurrency: string;
  locale: string;
  adminApiEnabled: boolean;
  createdAt: EpochMs;
}
export interface SiteRecord extends NewSite {
  id: number;
}
export interface SitePatch {
  adminApiEnabled?: boolean;
}

/** The parts of a plan that depend on its type, exactly as 2.2 arranges them. */
export type PlanTerms =
  | { type: 'free'; expiration: PlanExpiration }
  | { type: 'oneTimePayment'; expiration: PlanExpiration; billing: OneTimePaymentBilling }
  | { type: 'multiPayment'; expiration: PlanExpiration; billing: MultiPaymentBilling }
  | { type: 'subscription'; billing: SubscriptionBilling };

export type NewPlan = {
  siteId: number;
  publicId: string;
  name: string;
  description?: string;
  status: PlanStatus;
  isPublic: boolean;
  colorCode: string;
  contentUrl?: string;
  welcomeUrl?: string;
  createdAt: EpochMs;
} & PlanTerms;
export type PlanRecord = NewPlan & { id: number };

export interface NewMember {
  siteId: number;
  /** Unique per site, compared exactly: callers lower-case it before storing and before filtering. */
  email: string;
  firstName?: string;
  lastName?: string;
  status: MemberStatus;
  createdAt: EpochMs;
}
export interface MemberRecord extends NewMember {
  id: number;
}

export interface NewMembership {
  siteId: number;
  memberId: number;
  planId: number;
  status: MembershipStatus;
  createdAt: EpochMs;
  expiresAt?: EpochMs;
  cancelsAt?: EpochMs;
  billingPeriodEnd?: EpochMs;
  paymentFailure: boolean;
}
export interface MembershipRecord extends NewMembership {
  id: number;
  /** Copied from the plan when the membership is created: a plan's type never changes. */
  type: PlanType;
  planPublicId: string;
}

export interface NewMemberEvent {
  siteId: number;
  memberId: number;
  eventType: MemberEventType;
  details: Record<string, unknown>;
  createdAt: EpochMs;
}
export interface MemberEventRecord extends NewMemberEvent {
  id: number;
}

export interface NewContentSpace {
  siteId: number;
  name: string;
}
export interface NewContentNode {
  siteId: number;
  spaceId: number;
  name: string;
  type: ContentNodeType;
}
export interface ContentNodeRecord extends NewContentNode {
  id: number;
}
export interface NewContentView {
  siteId: number;
  memberId: number;
  nodeId: number;
  viewedAt: EpochMs;
}
export interface ContentViewRecord extends NewContentView {
  id: number;
  node: { id: number; name: string; type: ContentNodeType };
  space: { id: number; name: string };
}

export interface NewApiKey {
  siteId: number;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  scopes: Scope[];
  createdAt: EpochMs;
  expiresAt?: EpochMs;
}
export interface ApiKeyRecord extends NewApiKey {
  id: number;
  revokedAt?: EpochMs;
}
