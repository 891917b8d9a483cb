/**
 * Wire types of the read-only Admin API (spec sections 2.1–2.6 and 7).
 * One definition each: the service serializes to these, the OpenAPI document describes them,
 * and tests read them. Optional fields are omitted from bodies when they have no value;
 * `null` never appears on the wire.
 */

export type IsoDateTime = string;

export interface SiteMetrics {
  activeMemberCount: number;
  freeMemberCount: number;
  paidMemberCount: number;
}

export interface Site {
  id: number;
  name: string;
  subdomain: string;
  domain: string;
  /** ISO 4217, lowercase. */
  defaultCurrency: string;
  /** ISO 639-1, two letters. */
  locale: string;
  metrics: SiteMetrics;
  createdAt: IsoDateTime;
}

export const PLAN_TYPES = ['free', 'oneTimePayment', 'multiPayment', 'subscription'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const PLAN_STATUSES = ['enabled', 'disabled', 'archived', 'deleted'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const INTERVAL_UNITS = ['day', 'week', 'month', 'year'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

export interface Interval {
  count: number;
  unit: IntervalUnit;
}

export type PlanExpiration =
  | { mode: 'none' }
  | { mode: 'interval'; count: number; unit: IntervalUnit }
  | { mode: 'specificTime'; expiresAt: IsoDateTime };

/** Tax fields shared by every paid plan type. `taxDescription` only together with `taxPercentage`. */
interface Tax {
  taxPercentage?: number;
  /** Rich text written by the site owner. */
  taxDescription?: string;
}

export interface OneTimePaymentBilling extends Tax {
  price: number;
  currency: string;
}

/** `trialPeriodDays` and `signupFee` are mutually exclusive. */
interface RecurringBilling extends OneTimePaymentBilling {
  interval: Interval;
  trialPeriodDays?: number;
  signupFee?: number;
}

export interface MultiPaymentBilling extends RecurringBilling {
  paymentCountRequired: number;
}

/** A fixed billing date: `day` alone for monthly plans, `day` and `month` for yearly ones. */
export interface BillingDate {
  day: number;
  month?: number;
}

export interface SubscriptionBilling extends RecurringBilling {
  billingDate?: BillingDate;
}

interface PlanCommon {
  id: number;
  publicId: string;
  name: string;
  /** Rich text shown during sign-up. */
  description?: string;
  status: PlanStatus;
  isPublic: boolean;
  activeMemberCount: number;
  /** `#rrggbb`, assigned at creation. */
  colorCode: string;
  contentUrl?: string;
  welcomeUrl?: string;
  createdAt: IsoDateTime;
}

export type Plan = PlanCommon &
  (
    | { type: 'free'; expiration: PlanExpiration }
    | { type: 'oneTimePayment'; expiration: PlanExpiration; billing: OneTimePaymentBilling }
    | { type: 'multiPayment'; expiration: PlanExpiration; billing: MultiPaymentBilling }
    | { type: 'subscription'; billing: SubscriptionBilling }
  );

export const MEMBERSHIP_STATUSES = ['active', 'cancelled', 'expired'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export interface Membership {
  id: number;
  memberId: number;
  planId: number;
  planPublicId: string;
  status: MembershipStatus;
  /** The plan type of the membership. */
  type: PlanType;
  createdAt: IsoDateTime;
  /** When access ends (filters call it `expiresAt`). Absent when it never expires. */
  expiresOn?: IsoDateTime;
  /** A recurring subscription cancelled at the end of its billing period ends then. */
  cancelsOn?: IsoDateTime;
  /** Present on subscriptions and uncompleted multi-payment memberships. */
  billing?: { billingPeriodEnd: IsoDateTime };
  /** A subscription changed to a cheaper plan moves to this plan when its billing period ends. */
  nextPlanId?: number;
  /** Given for free by the site's owner (issue 32): never charged, and not counted as revenue. */
  comp?: true;
  /**
   * What the membership pays when its plan's billing has changed since the member joined: the
   * plan's billing as it was then, which renewals go on charging. Absent: the plan's own billing.
   */
  joinedBilling?: OneTimePaymentBilling | MultiPaymentBilling | SubscriptionBilling;
}

/** `blocked`: by the owner, cannot sign in; `erased`: personal data removed on request (docs/owner-actions.md). */
export const MEMBER_STATUSES = ['approved', 'pending', 'blocked', 'erased'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export interface Member {
  id: number;
  email: string;
  firstName?: string;
  lastName?: string;
  status: MemberStatus;
  createdAt: IsoDateTime;
}

export const MEMBER_EVENT_TYPES = [
  'signup',
  'login',
  'conversion',
  'cancellation',
  'abandonedConversion',
  'paymentFailed',
  /** A member set a new password through a mailed reset link (issue 15). */
  'passwordReset',
  /** A member's new e-mail address was confirmed and took effect; details `{ from, to }`. */
  'emailChanged',
  /** A paid invoice was refunded through the site's processor (issue 28); details `{ amount, chargeId, invoiceId }`. */
  'paymentRefunded',
  /** The member's bank disputed a payment (a chargeback; issue 28); details `{ amount, chargeId, invoiceId, disputeId, reason }`. */
  'paymentDisputed',
  /**
   * A membership changed plan, or will at its period's end (decision 0036); details
   * `{ membershipId, fromPlanId, toPlanId, when: 'now' | 'periodEnd', invoiceId?, applied? }`.
   */
  'planChanged',
  /*
   * The owner's actions (issue 32), each with `by` in its details: `{ apiKeyId }` for an Admin
   * API key, `{ cli: true }` for the svc command. A cancellation and a refund the owner makes
   * are `cancellation` and `paymentRefunded` events with `by`.
   */
  /** A plan given for free; details `{ membershipId, planId, expiresAt?, by }`. */
  'membershipComped',
  /** details `{ by, sessionsEnded }`. */
  'memberBlocked',
  /** details `{ by }`. */
  'memberUnblocked',
  /** Everything stored about the member was exported; details `{ by }`. */
  'memberExported',
  /** Personal data removed on request; details `{ by }`. */
  'memberErased',
] as const;
export type MemberEventType = (typeof MEMBER_EVENT_TYPES)[number];

export interface AbandonedConversionDetails {
  /** Currency-formatted text, e.g. `$12.00`. */
  amount: string;
  chargeId: string;
  invoiceId: string;
}

export interface MemberEvent {
  id: number;
  memberId: number;
  eventType: MemberEventType;
  details: Record<string, unknown>;
  createdAt: IsoDateTime;
}

export const CONTENT_NODE_TYPES = ['article', 'video', 'audio', 'file', 'link'] as const;
export type ContentNodeType = (typeof CONTENT_NODE_TYPES)[number];

export interface ContentView {
  id: number;
  memberId: number;
  node: { id: number; name: string; type: ContentNodeType };
  spaceNode: { id: number; name: string };
  viewedAt: IsoDateTime;
}

/** The spec's read scopes (5.1). */
export const READ_SCOPES = [
  'read.plans',
  'read.memberships',
  'read.members',
  'read.memberEvents',
  'read.contentViews',
  /** GET /invoices, the ledger (issue 32). */
  'read.invoices',
] as const;
/**
 * The owner's actions (issue 32), each a scope no key made before it has: `members:write`
 * (block, unblock, export, erase), `memberships:write` (cancel, comp), `invoices:write` (refund).
 */
export const WRITE_SCOPES = ['members:write', 'memberships:write', 'invoices:write'] as const;
export const SCOPES = [...READ_SCOPES, ...WRITE_SCOPES] as const;
export type Scope = (typeof SCOPES)[number];

/** GET /key: the key a request carries, so a client can offer what its scopes allow (issue 32). */
export interface ApiKey {
  id: number;
  scopes: Scope[];
  createdAt: IsoDateTime;
  /** Absent: it never expires. */
  expiresAt?: IsoDateTime;
}

export interface ApiError {
  /** `base` for errors not tied to one field, else the parameter or header it concerns. */
  path: string;
  code: ErrorCode;
  message: string;
}

export interface ErrorBody {
  errors: ApiError[];
}

export type ErrorCode =
  | 'invalidCursor'
  | 'invalidParameter'
  | 'accessDenied'
  | 'forbidden'
  | 'notFound'
  | 'methodNotAllowed'
  /** An owner action's body is not what it takes (`path` names the field). */
  | 'invalidBody'
  /** An owner action the resource's state does not allow (a cancelled membership cancelled again, a refund over what is left). */
  | 'conflict'
  /** The payment processor refused or failed an owner action (a refund, deleting a customer). */
  | 'processorError'
  | 'rateLimited'
  | 'internalError';
