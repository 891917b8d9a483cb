/**
 * The memory store's billing records: each member's saved card and the invoice ledger. ./memory
 * builds the Store with these methods; the tables of members, plans and memberships are shared
 * with it. Every check runs before any change, so a rejected call changes nothing.
 */
import { ConflictError, MissingReferenceError } from './errors';
import { Table, copy } from './memory-table';
import type { InvoiceRecord, MemberRecord, MembershipRecord, PaymentMethodRecord, PlanRecord } from './records';
import type { BillingMethods } from './store';

export interface BillingTables {
  members: Table<MemberRecord>;
  plans: Table<PlanRecord>;
  memberships: Table<MembershipRecord>;
  /** The store's own check: throws MissingReferenceError for an unknown site. */
  requireSite(siteId: number): void;
}

export function memoryPayments({ members, plans, memberships, requireSite }: BillingTables): BillingMethods {
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

  return {
    async savePaymentMethod(method) {
      requireIn(members, method.siteId, method.memberId, 'memberId');
      const row: PaymentMethodRecord = { ...copy(method), id: nextMethodId++ };
      methods.set(method.memberId, row);
      return copy(row);
    },
    async getPaymentMethod(siteId, memberId) {
      const method = methods.get(memberId);
      return method && method.siteId === siteId ? copy(method) : undefined;
    },

    async createInvoice(invoice) {
      const key = `${invoice.siteId}\n${invoice.processorInvoiceId}`;
      // A duplicate is reported before a bad reference, as SQLite checks UNIQUE before foreign keys.
      if (invoiceKeys.has(key)) {
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
      invoiceKeys.add(key);
      return copy(invoices.insert((id) => ({ ...copy(invoice), id })));
    },
    async listInvoicesOfMember(siteId, memberId) {
      return invoices.rows
        .filter((i) => i.siteId === siteId && i.memberId === memberId)
        .sort((x, y) => y.createdAt - x.createdAt || y.id - x.id)
        .map(copy);
    },
  };
}
