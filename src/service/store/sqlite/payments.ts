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
import {
  type RawRow,
  type Value,
  INVOICE_COLUMNS,
  PAYMENT_METHOD_COLUMNS,
  invoiceFrom,
  orNull,
  paymentMethodFrom,
} from '../sql-rows';
import type { NewInvoice, NewPaymentMethod } from '../records';
import type { BillingMethods } from '../store';

const INSERT_METHOD =
  'INSERT INTO payment_methods (site_id, member_id, processor_id, brand, last4, exp_month, exp_year, created_at)';
const methodValues = (m: NewPaymentMethod, p: Value[], at: number) => {
  p[at] = m.siteId; p[at + 1] = m.memberId; p[at + 2] = m.processorId; p[at + 3] = m.brand;
  p[at + 4] = m.last4; p[at + 5] = m.expMonth; p[at + 6] = m.expYear; p[at + 7] = m.createdAt;
};
const INSERT_INVOICE = `INSERT INTO invoices (site_id, member_id, plan_id, membership_id, processor_invoice_id, processor_charge_id,
  sub_total_cents, tax_cents, total_cents, currency, status, description, created_at)`;
const invoiceValues = (i: NewInvoice, p: Value[], at: number) => {
  p[at] = i.siteId; p[at + 1] = i.memberId; p[at + 2] = i.planId; p[at + 3] = orNull(i.membershipId);
  p[at + 4] = i.processorInvoiceId; p[at + 5] = i.processorChargeId; p[at + 6] = i.subTotalCents; p[at + 7] = i.taxCents;
  p[at + 8] = i.totalCents; p[at + 9] = i.currency; p[at + 10] = i.status; p[at + 11] = i.description; p[at + 12] = i.createdAt;
};
/** One row's values, for a single-row statement. */
const valuesOf = <T>(values: (row: T, p: Value[], at: number) => void, row: T): Value[] => {
  const p: Value[] = [];
  values(row, p, 0);
  return p;
};

export function sqlitePayments(conn: SqliteConnection): BillingMethods {
  const { db, first, rawSql, firstRaw, insertAll, multiRowInsert, insertBatch, noSite, noRow } = conn;
  const queueMails = sqliteMailWriter(conn);

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
    first('SELECT 1 FROM memberships WHERE site_id = ? AND member_id = ? AND id = ?', i.siteId, i.memberId, i.membershipId)
      ? undefined
      : new MissingReferenceError(
          'membershipId',
          `membershipId ${i.membershipId} is no membership of member ${i.memberId} in site ${i.siteId}`,
        );
  const invoiceMissing = (i: NewInvoice) =>
    noSite(i.siteId) ?? noRow('members', 'memberId', i.siteId, i.memberId) ??
    noRow('plans', 'planId', i.siteId, i.planId) ?? noMembership(i);

  return {
    async savePaymentMethod(method) {
      const [id] = insertAll([method], saveMethod, methodMissing);
      return paymentMethodFrom(firstRaw(`SELECT ${PAYMENT_METHOD_COLUMNS} FROM payment_methods WHERE id = ?`, id!)!);
    },
    savePaymentMethods: async (methods) => insertBatch(methods, insertMethods, saveMethod, methodMissing),
    async getPaymentMethod(siteId, memberId) {
      const row = firstRaw(
        `SELECT ${PAYMENT_METHOD_COLUMNS} FROM payment_methods WHERE site_id = ? AND member_id = ?`,
        siteId,
        memberId,
      );
      return row && paymentMethodFrom(row);
    },

    async createInvoice(invoice, mails = []) {
      // The receipt is queued with its invoice, or neither is written.
      const [id] = db.transaction(() => {
        const ids = insertAll([invoice], addInvoice, invoiceMissing);
        queueMails(mails);
        return ids;
      })();
      return invoiceFrom(firstRaw(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ?`, id!)!);
    },
    createInvoices: async (invoices) => insertBatch(invoices, insertInvoices, addInvoice, invoiceMissing),
    listInvoicesOfMember: async (siteId, memberId) =>
      (rawSql(
        `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE site_id = ? AND member_id = ? ORDER BY created_at DESC, id DESC`,
      ).all(siteId, memberId) as RawRow[]).map(invoiceFrom),
  };
}
