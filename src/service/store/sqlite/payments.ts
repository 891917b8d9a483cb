/**
 * The SQLite store's billing records: each member's saved card and the invoice ledger. ./index
 * builds the Store with these methods on the same connection. Same-site references are checked
 * by the schema's composite foreign keys (an invoice's membership by (site, member, membership));
 * only when an insert fails does a follow-up query name the wrong field. The one-row writes are
 * rare, so they go through insertAll although they leave the cached aggregates' counts alone; the
 * batches (the demo seed's hundreds of thousands of rows) use multi-row statements.
 */
import { MissingReferenceError } from '../errors';
import type { SqliteConnection } from './connection';
import { sqliteMailWriter } from './outbox';
import { type RawRow, INVOICE_COLUMNS, PAYMENT_METHOD_COLUMNS, invoiceFrom, paymentMethodFrom } from '../sql-rows';
import {
  BILLING, INSERT_INVOICE, INSERT_METHOD, PROCESSOR_EFFECTS, idsAscending, invoiceValues, methodValues, refundInvoiceValues, valuesOf,
} from '../sql-members';
import type { NewInvoice, NewPaymentMethod } from '../records';
import type { BillingMethods, ProcessorEffectMethods } from '../store';
import { DUE_AT_ONCE, announcedAt, batchWanted } from '../webhook-announcing';
import { invoiceMessage, refundMessage } from '../../webhooks/messages';
import { sqliteAnnouncer } from './webhooks';

export function sqlitePayments(conn: SqliteConnection): BillingMethods & ProcessorEffectMethods {
  const { db, first, rawSql, firstRaw, insertAll, multiRowInsert, insertBatch, noSite, noRow } = conn;
  const queueMails = sqliteMailWriter(conn);
  const announcer = sqliteAnnouncer(conn);

  const deleteMethod = db.prepare('DELETE FROM payment_methods WHERE site_id = ? AND member_id = ?');
  const insertMethod = db.prepare(`${INSERT_METHOD} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  /** Delete and insert: a failing insert (in insertAll's transaction) restores the old card. */
  const saveMethod = (m: NewPaymentMethod) => {
    deleteMethod.run(m.siteId, m.memberId);
    return insertMethod.run(valuesOf(methodValues, m));
  };
  // OR REPLACE: a row whose member has a card (payment_methods_site_member), in the table or
  // earlier in the batch, deletes it and takes the next id, as saveMethod's delete and insert do.
  const insertMethods = multiRowInsert(INSERT_METHOD.replace('INSERT', 'INSERT OR REPLACE'), 8, methodValues);
  const methodMissing = (m: NewPaymentMethod) => noSite(m.siteId) ?? noRow('members', 'memberId', m.siteId, m.memberId);

  const insertInvoice = db.prepare(`${INSERT_INVOICE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const addInvoice = (i: NewInvoice) => insertInvoice.run(valuesOf(invoiceValues, i));
  const insertInvoices = multiRowInsert(INSERT_INVOICE, 13, invoiceValues);
  const noMembership = (i: NewInvoice) =>
    i.membershipId === undefined ||
    first(BILLING.membershipOfMember, i.siteId, i.memberId, i.membershipId)
      ? undefined
      : new MissingReferenceError(
          'membershipId',
          `membershipId ${i.membershipId} is no membership of member ${i.memberId} in site ${i.siteId}`,
        );
  const invoiceMissing = (i: NewInvoice) =>
    noSite(i.siteId) ?? noRow('members', 'memberId', i.siteId, i.memberId) ??
    noRow('plans', 'planId', i.siteId, i.planId) ?? noMembership(i);

  /**
   * The refund, and its `payment.refunded` for each invoice it changed (one refunded as far
   * already was told before), in one immediate transaction.
   */
  const refund = db.transaction((siteId: number, chargeId: string, refundedCents: number | undefined) => {
    const changed = (rawSql(PROCESSOR_EFFECTS.refund).all(...refundInvoiceValues(siteId, chargeId, refundedCents)) as RawRow[]).map(invoiceFrom);
    const hooks = announcer([siteId]);
    if (hooks.wants(siteId, 'payment.refunded')) {
      const at = announcedAt();
      hooks.write(changed.sort((x, y) => x.id - y.id).map((i) => refundMessage(i, at)), DUE_AT_ONCE);
    }
    const row = firstRaw(PROCESSOR_EFFECTS.refundable, siteId, chargeId);
    return row && invoiceFrom(row);
  });

  return {
    async savePaymentMethod(method) {
      const [id] = insertAll([method], saveMethod, methodMissing);
      return paymentMethodFrom(firstRaw(`SELECT ${PAYMENT_METHOD_COLUMNS} FROM payment_methods WHERE id = ?`, id!)!);
    },
    savePaymentMethods: async (methods) => insertBatch(methods, insertMethods, saveMethod, methodMissing),
    async getPaymentMethod(siteId, memberId) {
      const row = firstRaw(BILLING.methodOfMember, siteId, memberId);
      return row && paymentMethodFrom(row);
    },

    async createInvoice(invoice, mails = []) {
      // The receipt is queued and the payment announced with its invoice, or none of it is written.
      return db.transaction(() => {
        const [id] = insertAll([invoice], addInvoice, invoiceMissing);
        queueMails(mails);
        const added = invoiceFrom(firstRaw(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ?`, id!)!);
        const hooks = announcer([added.siteId]);
        if (batchWanted(hooks, [added], 'payment.succeeded', 'payment.failed')) hooks.write([invoiceMessage(added)]);
        return added;
      })();
    },
    createInvoices: async (invoices) => insertBatch(invoices, insertInvoices, addInvoice, invoiceMissing),
    listInvoicesOfMember: async (siteId, memberId) =>
      (rawSql(BILLING.invoicesOfMember).all(siteId, memberId) as RawRow[]).map(invoiceFrom),

    // What a processor's events change, each write one statement (a refund one transaction, with
    // what it announces). No kept read (./kept-reads) covers invoices or cards, so these need not
    // move its write count.
    async getInvoiceByCharge(siteId, chargeId) {
      const row = firstRaw(PROCESSOR_EFFECTS.invoiceByCharge, siteId, chargeId);
      return row && invoiceFrom(row);
    },
    markInvoiceRefunded: async (siteId, chargeId, refundedCents) => refund.immediate(siteId, chargeId, refundedCents),
    removePaymentMethodByProcessorId: async (siteId, processorId) =>
      idsAscending(rawSql(PROCESSOR_EFFECTS.removeCard).all(siteId, processorId) as RawRow[])[0],
    removePaymentMethodsOfCustomer: async (siteId, customerId) =>
      idsAscending(rawSql(PROCESSOR_EFFECTS.removeCustomerCards).all(siteId, siteId, customerId) as RawRow[]),
  };
}
