/**
 * What a site's webhook endpoints receive (issue 31): Standard Webhooks deliveries whose body is
 * `{ type, timestamp, data }`, `data` made of the Admin API's wire types (./admin), null fields
 * omitted as everywhere. docs/webhooks.md shows a sample body of each type.
 */
import type { IsoDateTime, Member, MemberEvent, Membership } from './admin';

export const WEBHOOK_EVENT_TYPES = [
  /** A member signed up (not members loaded by `svc seed`). */
  'member.created',
  /** A member's name, custom fields, metadata or e-mail address changed, or their address was confirmed. */
  'member.updated',
  /** A member joined a plan (free or paid). */
  'membership.created',
  /** A subscription was cancelled: it stays active until `cancelsOn`. */
  'membership.cancelled',
  /** A subscription or instalment plan was paid for its next period. */
  'membership.renewed',
  /** A membership stopped being active: expired, cancelled at its period's end, or given up after failed payments. */
  'membership.ended',
  /** A payment was taken (a sign-up, a renewal, an upgrade). */
  'payment.succeeded',
  /** A payment was refused by the member's bank. */
  'payment.failed',
  /** A payment was refunded in full through the site's processor. */
  'payment.refunded',
  /** A member joined a plan: the member event `conversion` (spec 2.5). */
  'conversion',
  /** A paid sign-up's first charge was declined: the member event `abandonedConversion`. */
  'conversion.abandoned',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One charge in the site's ledger, as the Admin API will list them (issue 32). Amounts in minor units. */
export interface Invoice {
  id: number;
  memberId: number;
  planId: number;
  /** Absent when a declined first charge created no membership. */
  membershipId?: number;
  status: 'paid' | 'failed' | 'refunded';
  subTotalCents: number;
  taxCents: number;
  totalCents: number;
  /** How much of `totalCents` was refunded; absent when nothing (issue 32: the owner may refund part). */
  refundedCents?: number;
  /** Lower-case ISO 4217, e.g. `usd`. */
  currency: string;
  description: string;
  /** The processor's ids (`in_…`, `ch_…`; the test processor's look alike). */
  processorInvoiceId: string;
  processorChargeId: string;
  createdAt: IsoDateTime;
}

/** What each type carries in `data`. */
export interface WebhookData {
  'member.created': { member: Member };
  'member.updated': { member: Member };
  'membership.created': { membership: Membership };
  'membership.cancelled': { membership: Membership };
  'membership.renewed': { membership: Membership };
  'membership.ended': { membership: Membership };
  'payment.succeeded': { invoice: Invoice };
  'payment.failed': { invoice: Invoice };
  'payment.refunded': { invoice: Invoice };
  conversion: { memberEvent: MemberEvent };
  'conversion.abandoned': { memberEvent: MemberEvent };
}

/** The body of a delivery: the same bytes for every attempt and replay of one message (`webhook-id`). */
export type WebhookBody = {
  [T in WebhookEventType]: {
    type: T;
    /** When the change happened. */
    timestamp: IsoDateTime;
    data: WebhookData[T];
  };
}[WebhookEventType];
