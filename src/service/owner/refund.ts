/**
 * The owner refunds an invoice, all that is left of it or part (issue 32), through the site's
 * processor. Two owners clicking at once must not refund twice: the invoice is held under a
 * lease for the whole of it (every process of every host shares the store's leases), and the
 * processor's idempotency key names the ledger's state the refund starts from, so a retry of the
 * same refund (a lost answer) refunds nothing more at the processor. A caller that says what it
 * saw refunded (`expectedRefundedCents`) is refused when the ledger has moved on since: a retry of
 * a partial refund whose answer was lost, or a second tab's stale form, cannot refund twice.
 */
import { formatMoney } from '../billing/money';
import { randomId } from '../domain/random';
import { RefundRefusedError, UnknownPaymentReferenceError } from '../payments/processor';
import type { InvoiceRecord, SiteRecord } from '../store/records';
import type { Actor, OwnerDeps } from './actor';
import { OwnerActionError } from './errors';

/** Long enough for a processor's slowest answer; a process that dies holding it frees the invoice then. */
const REFUND_LEASE_MS = 60_000;

/** What the owner asks: how much (absent: all that is left), and, when given, on what it saw refunded so far. */
export interface RefundAsk {
  amountCents?: number;
  /** The invoice's refunded amount as the caller last saw it (0: none); another answers a conflict and refunds nothing. */
  expectedRefundedCents?: number;
}

export async function refundInvoice(deps: OwnerDeps, site: SiteRecord, invoiceId: number, ask: RefundAsk, by: Actor): Promise<InvoiceRecord> {
  const { store, clock } = deps;
  if (!(await store.getInvoice(site.id, invoiceId))) throw new OwnerActionError('notFound', `No invoice ${invoiceId} in this site`);
  const lease = `refund:${site.id}:${invoiceId}`;
  const holder = randomId(12);
  if (!(await store.tryLease(lease, holder, clock(), REFUND_LEASE_MS))) {
    throw new OwnerActionError('conflict', `Another refund of invoice ${invoiceId} is under way; look at the invoice again in a moment`);
  }
  try {
    return await refundHeld(deps, site, (await store.getInvoice(site.id, invoiceId))!, ask, by);
  } finally {
    await store.releaseLease(lease, holder);
  }
}

async function refundHeld(
  { store, clock, processorFor }: OwnerDeps,
  site: SiteRecord,
  invoice: InvoiceRecord,
  { amountCents, expectedRefundedCents }: RefundAsk,
  by: Actor,
): Promise<InvoiceRecord> {
  const before = invoice.refundedCents ?? 0;
  // Checked first: a caller whose view is stale learns that, whatever the invoice's state now.
  if (expectedRefundedCents !== undefined && expectedRefundedCents !== before) {
    throw new OwnerActionError(
      'conflict',
      `Invoice ${invoice.id} has ${before} refunded now, not ${expectedRefundedCents} as expected: it changed since it was read (another refund, or an earlier try of this one); nothing was refunded`,
    );
  }
  if (invoice.status === 'failed') throw new OwnerActionError('conflict', `Invoice ${invoice.id} was not paid: there is nothing to refund`);
  if (invoice.status === 'refunded') throw new OwnerActionError('conflict', `Invoice ${invoice.id} is refunded in full already`);
  const left = invoice.totalCents - before;
  const amount = amountCents ?? left;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) {
    throw new OwnerActionError('invalid', `amountCents must be a whole number from 1 to ${left} (what is left of invoice ${invoice.id}), got ${amount}`, 'amountCents');
  }
  const member = await store.getMember(site.id, invoice.memberId);
  try {
    await processorFor(site).refund({
      customerId: member?.processorCustomerId ?? '',
      chargeId: invoice.processorChargeId,
      amountCents: amount,
      idempotencyKey: `refund:${site.id}:${invoice.id}:${before}:${amount}`,
    });
  } catch (error) {
    if (error instanceof RefundRefusedError) throw new OwnerActionError('conflict', `The processor refused the refund: ${error.message}`);
    if (error instanceof UnknownPaymentReferenceError) {
      throw new OwnerActionError('conflict', `The processor does not know this invoice's ${error.resource} (${error.id}); nothing was refunded`);
    }
    throw new OwnerActionError('processor', 'The processor could not be asked; nothing is recorded, and asking again is safe');
  }
  const refunded = before + amount;
  const updated = (await store.markInvoiceRefunded(site.id, invoice.processorChargeId, refunded))!;
  // The same details as Stripe's charge.refunded webhook records (stripe-events.ts): the amount
  // refunded so far, so its later delivery of this refund adds no second event.
  await store.createMemberEvents([
    {
      siteId: site.id,
      memberId: invoice.memberId,
      eventType: 'paymentRefunded',
      details: {
        amount: formatMoney(refunded, invoice.currency, site.locale),
        chargeId: invoice.processorChargeId,
        invoiceId: invoice.processorInvoiceId,
        ...(refunded < invoice.totalCents && { partial: 'true' }),
        by,
      },
      createdAt: clock(),
    },
  ]);
  return updated;
}
