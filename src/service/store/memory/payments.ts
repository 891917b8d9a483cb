/**
 * The memory store's billing records: each member's saved card and the invoice ledger. ./index
 * builds the Store with these methods; the tables of members, plans and memberships are shared
 * with it. Every check runs before any change, so a rejected call changes nothing.
 */
import { ConflictError, MissingReferenceError } from '../errors';
import { Table, copy } from './table';
import type { MemoryWebhooks } from './webhooks';
import { invoiceMessage, refundMessage } from '../../webhooks/messages';
import { DUE_AT_ONCE, announcedAt, batchWanted } from '../webhook-announcing';
import type { InvoiceRecord, MemberRecord, MembershipRecord, NewInvoice, NewMail, NewPaymentMethod, PaymentMethodRecord, PlanRecord } from '../records';
import type { BillingMethods, ProcessorEffectMethods } from '../store';

export interface BillingTables {
  members: Table<MemberRecord>;
  plans: Table<PlanRecord>;
  memberships: Table<MembershipRecord>;
  /** The store's own check: throws MissingReferenceError for an unknown site. */
  requireSite(siteId: number): void;
  /** Queues mail with a write (a receipt with its invoice); throws before any change. */
  queueMail(mails: readonly NewMail[]): void;
  /** createInvoice announces the payment, markInvoiceRefunded the refund (issue 31); the seed's createInvoices nothing. */
  webhooks: MemoryWebhooks;
}

/** The payments part: its Store methods, and eraseMember's part here (the member's saved card deleted). */
export interface MemoryPayments {
  methods: BillingMethods & ProcessorEffectMethods;
  dropCardOf(siteId: number, memberId: number): void;
  /** The ledger, for the owner's reads (./index). */
  invoices: Table<InvoiceRecord>;
}

export function memoryPayments({ members, plans, memberships, requireSite, queueMail, webhooks }: BillingTables): MemoryPayments {
  /** The saved card by member id. */
  const methods = new Map<number, PaymentMethodRecord>();
  /** Ids keep counting across replacements, like the SQLite store's AUTOINCREMENT. */
  let nextMethodId = 1;
  const invoices = new Table<InvoiceRecord>();
  /** `${siteId}\n${processorInvoiceId}`: the per-site unique processor invoice id. */
  const invoiceKeys = new Set<string>();

  function requireIn(table: Table<{ id: number; siteId: number }>, siteId: number, id: number, field: string): void {
    const row = table.byId.get(id);
    if (!row || row.siteId !== siteId) {
      requireSite(siteId);
      throw new MissingReferenceError(field, `${field} ${id} does not exist in site ${siteId}`);
    }
  }

  /**
   * Throws what createInvoice throws for the invoice; `taken` holds the processor invoice ids of
   * the batch's rows before it, as though they were written.
   */
  function checkInvoice(invoice: NewInvoice, taken: ReadonlySet<string> = new Set()): string {
    const key = `${invoice.siteId}\n${invoice.processorInvoiceId}`;
    // A duplicate is reported before a bad reference, as SQLite checks UNIQUE before foreign keys.
    if (invoiceKeys.has(key) || taken.has(key)) {
      throw new ConflictError('processorInvoiceId', `an invoice with processor id ${invoice.processorInvoiceId} exists`);
    }
    requireIn(members, invoice.siteId, invoice.memberId, 'memberId');
    requireIn(plans, invoice.siteId, invoice.planId, 'planId');
    if (invoice.membershipId !== undefined) {
      const membership = memberships.byId.get(invoice.membershipId);
      if (!membership || membership.siteId !== invoice.siteId || membership.memberId !== invoice.memberId) {
        throw new MissingReferenceError(
          'membershipId',
          `membershipId ${invoice.membershipId} is no membership of member ${invoice.memberId} in site ${invoice.siteId}`,
        );
      }
    }
    return key;
  }
  function addInvoice(invoice: NewInvoice, key: string): InvoiceRecord {
    invoiceKeys.add(key);
    return invoices.insert((id) => ({ ...copy(invoice), id }));
  }
  /** The site's invoices of the charge, in id order (the table's). */
  const invoicesOfCharge = (siteId: number, chargeId: string) =>
    invoices.rows.filter((i) => i.siteId === siteId && i.processorChargeId === chargeId);
  /** Removes the site's cards that match; answers their members' ids, ascending. */
  function removeMethods(siteId: number, matches: (method: PaymentMethodRecord) => boolean): number[] {
    const removed = [...methods.values()].filter((m) => m.siteId === siteId && matches(m)).map((m) => m.memberId);
    for (const memberId of removed) methods.delete(memberId);
    return removed.sort((x, y) => x - y);
  }

  /** Replaces the member's card; ids keep counting. */
  function saveMethod(method: NewPaymentMethod): PaymentMethodRecord {
    const row: PaymentMethodRecord = { ...copy(method), id: nextMethodId++ };
    methods.set(method.memberId, row);
    return row;
  }

  const storeMethods: BillingMethods & ProcessorEffectMethods = {
    async savePaymentMethod(method) {
      requireIn(members, method.siteId, method.memberId, 'memberId');
      return copy(saveMethod(method));
    },
    async savePaymentMethods(batch) {
      for (const method of batch) requireIn(members, method.siteId, method.memberId, 'memberId');
      for (const method of batch) saveMethod(method);
    },
    async getPaymentMethod(siteId, memberId) {
      const method = methods.get(memberId);
      return method && method.siteId === siteId ? copy(method) : undefined;
    },

    async createInvoice(invoice, mails = []) {
      const key = checkInvoice(invoice);
      for (const mail of mails) requireSite(mail.siteId);
      const added = addInvoice(invoice, key);
      queueMail(mails);
      const hooks = webhooks.announcer();
      if (batchWanted(hooks, [added], 'payment.succeeded', 'payment.failed')) hooks.write([invoiceMessage(added)]);
      return copy(added);
    },
    async createInvoices(batch) {
      // Every row checked before any is added, the keys of the rows before each counted as taken.
      const taken = new Set<string>();
      const keys = batch.map((invoice) => {
        const key = checkInvoice(invoice, taken);
        taken.add(key);
        return key;
      });
      batch.forEach((invoice, i) => { addInvoice(invoice, keys[i]!); });
    },
    async listInvoicesOfMember(siteId, memberId) {
      return invoices.rows
        .filter((i) => i.siteId === siteId && i.memberId === memberId)
        .sort((x, y) => y.createdAt - x.createdAt || y.id - x.id)
        .map(copy);
    },

    async getInvoiceByCharge(siteId, chargeId) {
      const [invoice] = invoicesOfCharge(siteId, chargeId);
      return invoice && copy(invoice);
    },
    async markInvoiceRefunded(siteId, chargeId, refundedCents = Number.MAX_SAFE_INTEGER) {
      const ofCharge = invoicesOfCharge(siteId, chargeId);
      const changed = ofCharge.filter((i) => i.status === 'paid' && (i.refundedCents ?? 0) < Math.min(i.totalCents, refundedCents));
      for (const invoice of changed) {
        invoice.refundedCents = Math.min(invoice.totalCents, refundedCents);
        if (invoice.refundedCents === invoice.totalCents) invoice.status = 'refunded';
      }
      // Announced once, when it changed: a refund the processor tells again is no new one.
      const hooks = webhooks.announcer();
      if (hooks.wants(siteId, 'payment.refunded')) hooks.write(changed.map((i) => refundMessage(i, announcedAt())), DUE_AT_ONCE);
      const answer = ofCharge.find((i) => i.status === 'paid' || i.status === 'refunded');
      return answer && copy(answer);
    },
    removePaymentMethodByProcessorId: async (siteId, processorId) => removeMethods(siteId, (m) => m.processorId === processorId)[0],
    async removePaymentMethodsOfCustomer(siteId, customerId) {
      const ofCustomer = new Set(members.rows.filter((m) => m.siteId === siteId && m.processorCustomerId === customerId).map((m) => m.id));
      return removeMethods(siteId, (m) => ofCustomer.has(m.memberId));
    },
  };
  return { methods: storeMethods, invoices, dropCardOf: (siteId, memberId) => void removeMethods(siteId, (m) => m.memberId === memberId) };
}
