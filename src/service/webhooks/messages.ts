/**
 * The webhook messages the store writes beside the changes they announce (issue 31), built from
 * the records it wrote: one function a kind of record, shared by the three stores so their
 * bodies are the same bytes. The body is the Admin API's wire types (admin/serialize.ts), so a
 * receiver reads a member in a webhook exactly as it reads one from `GET /members`.
 *
 * Pure and free of node:* (the stores run inside the service app, decision 0007).
 */
import type { WebhookBody, WebhookData, WebhookEventType } from '../../contract/webhooks';
import { toInvoice, toMember, toMemberEvent, toMembership } from '../admin/serialize';
import { randomId } from '../domain/random';
import { isoTime } from '../http/json';
import type { EpochMs, InvoiceRecord, MemberEventRecord, MemberSummary, MembershipRecord } from '../store/records';
import type { MembershipAnnouncement } from '../store/store';
import type { NewWebhookMessage } from '../store/webhook-records';

/** A message of `type` with `data`, at `at`; its `msg_…` id is new. */
export function webhookMessage<T extends WebhookEventType>(siteId: number, type: T, at: EpochMs, data: WebhookData[T]): NewWebhookMessage {
  const body = { type, timestamp: isoTime(at), data } as WebhookBody;
  return { siteId, publicId: `msg_${randomId(24)}`, type, body: JSON.stringify(body), createdAt: at };
}

export const memberMessage = (type: 'member.created' | 'member.updated', siteId: number, member: MemberSummary, at: EpochMs) =>
  webhookMessage(siteId, type, at, { member: toMember(member) });

export const membershipMessage = (type: 'membership.created' | MembershipAnnouncement, membership: MembershipRecord, at: EpochMs) =>
  webhookMessage(membership.siteId, type, at, { membership: toMembership(membership) });

/** A ledger entry as it was written: paid or failed (a refund is announced by refundMessage). */
export function invoiceMessage(invoice: InvoiceRecord): NewWebhookMessage {
  const type = invoice.status === 'failed' ? 'payment.failed' : 'payment.succeeded';
  return webhookMessage(invoice.siteId, type, invoice.createdAt, { invoice: toInvoice(invoice) });
}

export const refundMessage = (invoice: InvoiceRecord, at: EpochMs) => webhookMessage(invoice.siteId, 'payment.refunded', at, { invoice: toInvoice(invoice) });

/** The member events that are webhooks of their own: a conversion, and an abandoned one. */
const EVENT_WEBHOOKS: Partial<Record<MemberEventRecord['eventType'], 'conversion' | 'conversion.abandoned'>> = {
  conversion: 'conversion',
  abandonedConversion: 'conversion.abandoned',
};

/** The webhook a member event is, or undefined for the events that are not one (a login…). */
export function memberEventMessage(event: MemberEventRecord): NewWebhookMessage | undefined {
  const type = EVENT_WEBHOOKS[event.eventType];
  return type && webhookMessage(event.siteId, type, event.createdAt, { memberEvent: toMemberEvent(event) });
}

/** Whether an endpoint subscribed to `events` (absent: all) wants `type`. */
export function endpointWants(events: readonly WebhookEventType[] | undefined, type: WebhookEventType): boolean {
  return events === undefined || events.includes(type);
}
