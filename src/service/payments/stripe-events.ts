/**
 * What the service does with the events of a site's Stripe account (issue 28, decision 0033).
 * Each effect is idempotent, so a delivery Stripe repeats, or one that failed midway and comes
 * again, changes nothing twice: a refund marks the invoice once, a member event is added only if
 * the member has none for the same charge (or dispute), a card already gone stays gone.
 *
 * - `charge.refunded`, refunded in full: the invoice shows `refunded`; a `paymentRefunded` member
 *   event. Refunded in part: the invoice stays paid, and a `paymentRefunded` event with
 *   `partial: 'true'` says how much of it has been refunded so far (one per refund: Stripe's
 *   `amount_refunded` grows with each).
 * - `charge.dispute.created`: a `paymentDisputed` member event, for the owner's Admin API.
 * - `payment_method.detached`: the member's saved card is removed; the next renewal fails as
 *   with no card, and the member is asked for a new one as after a decline.
 * - `customer.deleted`: the saved card of the customer's members is removed, likewise.
 *
 * Any other type is acknowledged and ignored (an owner may enable more than these).
 */
import type { MemberEventType } from '../../contract/admin';
import { formatMoney } from '../billing/money';
import type { SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import type { ProcessorEvent } from './processor';

/** The types the service acts on: the ones to enable in Stripe's dashboard (README, "Payments"). */
export const STRIPE_EVENT_TYPES = ['charge.refunded', 'charge.dispute.created', 'payment_method.detached', 'customer.deleted'] as const;

/** What an event did, for the webhook's answer and the tests. */
export type StripeEventOutcome = 'refunded' | 'partialRefund' | 'disputed' | 'cardRemoved' | 'unknownReference' | 'ignored';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const cents = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);
/** A field that is an id or an expanded object with one (Stripe's `charge`, `payment_intent`). */
const idOf = (value: unknown): string | undefined => text(value) ?? text((value as { id?: unknown } | null)?.id);

export async function handleStripeEvent(store: Store, site: SiteRecord, event: ProcessorEvent, now: number): Promise<StripeEventOutcome> {
  const object = event.object;
  switch (event.type) {
    case 'charge.refunded':
      return chargeRefunded(store, site, object, now);
    case 'charge.dispute.created':
      return disputeCreated(store, site, object, now);
    case 'payment_method.detached': {
      const paymentMethodId = text(object.id);
      const memberId = paymentMethodId && (await store.removePaymentMethodByProcessorId(site.id, paymentMethodId));
      return memberId ? 'cardRemoved' : 'unknownReference';
    }
    case 'customer.deleted': {
      const customerId = text(object.id);
      const members = customerId ? await store.removePaymentMethodsOfCustomer(site.id, customerId) : [];
      return members.length > 0 ? 'cardRemoved' : 'unknownReference';
    }
    default:
      return 'ignored';
  }
}

async function chargeRefunded(store: Store, site: SiteRecord, charge: Record<string, unknown>, now: number): Promise<StripeEventOutcome> {
  const chargeId = text(charge.id);
  if (!chargeId || !(await store.getInvoiceByCharge(site.id, chargeId))) return 'unknownReference';
  const partial = charge.refunded !== true;
  // A partial refund is recorded by its amount so far (the owner's console shows what is left to refund).
  const invoice = partial
    ? cents(charge.amount_refunded) > 0
      ? await store.markInvoiceRefunded(site.id, chargeId, cents(charge.amount_refunded))
      : await store.getInvoiceByCharge(site.id, chargeId)
    : await store.markInvoiceRefunded(site.id, chargeId);
  if (invoice?.status !== (partial ? 'paid' : 'refunded')) return 'unknownReference'; // a failed attempt: nothing was paid to refund
  await addOnce(store, site, invoice.memberId, 'paymentRefunded', ['chargeId', 'amount'], now, {
    amount: formatMoney(cents(charge.amount_refunded) || invoice.totalCents, invoice.currency, site.locale),
    chargeId,
    invoiceId: invoice.processorInvoiceId,
    ...(partial && { partial: 'true' }),
  });
  return partial ? 'partialRefund' : 'refunded';
}

async function disputeCreated(store: Store, site: SiteRecord, dispute: Record<string, unknown>, now: number): Promise<StripeEventOutcome> {
  const disputeId = text(dispute.id);
  const chargeId = idOf(dispute.charge);
  const invoice = chargeId && disputeId ? await store.getInvoiceByCharge(site.id, chargeId) : undefined;
  if (!invoice) return 'unknownReference';
  await addOnce(store, site, invoice.memberId, 'paymentDisputed', ['disputeId'], now, {
    amount: formatMoney(cents(dispute.amount) || invoice.totalCents, text(dispute.currency) ?? invoice.currency, site.locale),
    chargeId: chargeId!,
    invoiceId: invoice.processorInvoiceId,
    disputeId: disputeId!,
    reason: text(dispute.reason) ?? 'general',
  });
  return 'disputed';
}

/** Adds the member event unless the member has one of that type with the same `keys` details. */
async function addOnce(store: Store, site: SiteRecord, memberId: number, eventType: MemberEventType, keys: string[], now: number, details: Record<string, string>): Promise<void> {
  for (let afterId: number | undefined; ; ) {
    const page = await store.listMemberEvents(site.id, { memberId }, { limit: 100, ...(afterId !== undefined && { afterId }) });
    if (page.items.some((e) => e.eventType === eventType && keys.every((key) => e.details[key] === details[key]))) return;
    if (!page.hasMore) break;
    afterId = page.items.at(-1)!.id;
  }
  await store.createMemberEvents([{ siteId: site.id, memberId, eventType, details, createdAt: now }]);
}
