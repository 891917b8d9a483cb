/**
 * The SQLite store's billing records: each member's saved card and the invoice ledger. ./sqlite
 * builds the Store with these methods on the same connection. Same-site references are checked
 * by the schema's composite foreign keys (an invoice's membership by (site, member, membership));
 * only when an insert fails does a follow-up query name the wrong field. These writes are rare, so
 * they go through insertAll although they leave the cached aggregates' counts alone.
 */
import { MissingReferenceError } from './errors';
import type { SqliteConnection } from './sqlite-connection';
import {
  type RawRow,
  INVOICE_COLUMNS,
  PAYMENT_METHOD_COLUMNS,
  invoiceFrom,
  orNull,
  paymentMethodFrom,
} from './sqlite-rows';
import type { NewInvoice } from './records';
import type { BillingMethods } from './store';

export function sqlitePayments(conn: SqliteConnection): BillingMethods {
  const { db, first, rawSql, firstRaw, insertAll, noSite, noRow } = conn;

  const deleteMethod = db.prepare('DELETE FROM payment_methods WHERE site_id = ? AND member_id = ?');
  const insertMethod = db.prepare(
    `INSERT INTO payment_methods (site_id, member_id, processor_id, brand, last4, exp_month, exp_year, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertInvoice = db.prepare(
    `INSERT INTO invoices (site_id, member_id, plan_id, membership_id, processor_invoice_id, processor_charge_id,
       sub_total_cents, tax_cents, total_cents, currency, status, description, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  const noMembership = (i: NewInvoice) =>
    i.membershipId === undefined ||
    first('SELECT 1 FROM memberships WHERE site_id = ? AND member_id = ? AND id = ?', i.siteId, i.memberId, i.membershipId)
      ? undefined
      : new MissingReferenceError(
          'membershipId',
          `membershipId ${i.membershipId} is no membership of member ${i.memberId} in site ${i.siteId}`,
        );

  return {
    async savePaymentMethod(method) {
      // Delete and insert in insertAll's one transaction: a failing insert restores the old card.
      const [id] = insertAll(
        [method],
        (m) => {
          deleteMethod.run(m.siteId, m.memberId);
          return insertMethod.run(m.siteId, m.memberId, m.processorId, m.brand, m.last4, m.expMonth, m.expYear, m.createdAt);
        },
        (m) => noSite(m.siteId) ?? noRow('members', 'memberId', m.siteId, m.memberId),
      );
      return paymentMethodFrom(firstRaw(`SELECT ${PAYMENT_METHOD_COLUMNS} FROM payment_methods WHERE id = ?`, id!)!);
    },
    async getPaymentMethod(siteId, memberId) {
      const row = firstRaw(
        `SELECT ${PAYMENT_METHOD_COLUMNS} FROM payment_methods WHERE site_id = ? AND member_id = ?`,
        siteId,
        memberId,
      );
      return row && paymentMethodFrom(row);
    },

    async createInvoice(invoice) {
      const [id] = insertAll(
        [invoice],
        (i) =>
          insertInvoice.run(
            i.siteId, i.memberId, i.planId, orNull(i.membershipId), i.processorInvoiceId, i.processorChargeId,
            i.subTotalCents, i.taxCents, i.totalCents, i.currency, i.status, i.description, i.createdAt),
        (i) =>
          noSite(i.siteId) ?? noRow('members', 'memberId', i.siteId, i.memberId) ??
          noRow('plans', 'planId', i.siteId, i.planId) ?? noMembership(i),
      );
      return invoiceFrom(firstRaw(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ?`, id!)!);
    },
    listInvoicesOfMember: async (siteId, memberId) =>
      (rawSql(
        `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE site_id = ? AND member_id = ? ORDER BY created_at DESC, id DESC`,
      ).all(siteId, memberId) as RawRow[]).map(invoiceFrom),
  };
}
