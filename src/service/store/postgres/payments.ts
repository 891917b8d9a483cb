/**
 * The PostgreSQL store's billing records (../sqlite/payments ported): each member's saved card and
 * the invoice ledger. ./index builds the Store with these methods on the same connection.
 * Same-site references are checked by the schema's composite foreign keys (an invoice's
 * membership by (site, member, membership)); only when an insert fails does a follow-up query
 * name the wrong field (insertAll's `missing`). The batches, the demo seed's hundreds of
 * thousands of rows, are COPY statements (cards: unnest upserts) with their ids reserved,
 * replayed row by row on a broken rule to report the first bad row as the one-row method would
 * (insertBatch).
 *
 * A saved card is replaced by one upsert on the member's unique (site, member) that gives the
 * row the new card's id: a new id per card, none reused, as SQLite's delete and insert do, and
 * no moment without a card for a concurrent reader.
 */
import { MissingReferenceError } from '../errors';
import { INVOICE_COLUMNS, PAYMENT_METHOD_COLUMNS, invoiceFrom, paymentMethodFrom } from '../sql-rows';
import {
  BILLING, INSERT_INVOICE, INSERT_METHOD, PROCESSOR_EFFECTS, idsAscending, invoiceValues, methodValues, refundInvoiceValues, valuesOf,
} from '../sql-members';
import type { InvoiceRecord, NewInvoice, NewPaymentMethod, PaymentMethodRecord } from '../records';
import type { BillingMethods, ProcessorEffectMethods } from '../store';
import {
  type Param,
  type PostgresConnection,
  type Sql,
  intoWithId,
  insertAll,
  insertBatch,
  insertRows,
  upsertRows,
  newId,
  noRow,
  noSite,
  reserveIds,
  storeError,
} from './connection';
import { postgresMailWriter } from './outbox';
import { invoiceMessage, refundMessage } from '../../webhooks/messages';
import { DUE_AT_ONCE, announcedAt, batchWanted } from '../webhook-announcing';
import { postgresAnnouncer } from './webhooks';

/** `excluded.id` is the new row's id: the identity default, or the id a batch reserved. */
const REPLACE_METHOD = `ON CONFLICT (site_id, member_id) DO UPDATE SET id = excluded.id, processor_id = excluded.processor_id,
  brand = excluded.brand, last4 = excluded.last4, exp_month = excluded.exp_month, exp_year = excluded.exp_year,
  created_at = excluded.created_at`;
/** The PostgreSQL types of the columns after the reserved id. */
const METHOD_TYPES = ['bigint', 'bigint', 'bigint', 'text', 'text', 'text', 'integer', 'integer', 'bigint'];

/** The card as saved: another process may replace it the moment the transaction ends, so it is read in it. */
const saveMethod = async (tx: Sql, m: NewPaymentMethod): Promise<PaymentMethodRecord> =>
  paymentMethodFrom(
    (await tx.firstRaw(`${INSERT_METHOD} VALUES (?, ?, ?, ?, ?, ?, ?, ?) ${REPLACE_METHOD} RETURNING ${PAYMENT_METHOD_COLUMNS}`,
      ...valuesOf(methodValues, m)))!,
  );
const saveMethodId = async (tx: Sql, m: NewPaymentMethod) => (await saveMethod(tx, m)).id;

async function saveMethods(tx: Sql, methods: readonly NewPaymentMethod[]): Promise<number[]> {
  // One statement may not upsert a row twice: of a member's cards in the batch the last is kept,
  // at its place, as saving them one after another would leave it.
  const last = new Map<string, NewPaymentMethod>();
  for (const m of methods) {
    const key = `${m.siteId}:${m.memberId}`;
    last.delete(key);
    last.set(key, m);
  }
  const ids = await reserveIds(tx, 'payment_methods', last.size);
  const rows = [...last.values()].map((m, i): Param[] => [ids[i]!, ...valuesOf(methodValues, m)]);
  await upsertRows(tx, intoWithId(INSERT_METHOD), METHOD_TYPES, rows, REPLACE_METHOD);
  return ids;
}

const addInvoice = (tx: Sql, i: NewInvoice) =>
  newId(tx, `${INSERT_INVOICE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ...valuesOf(invoiceValues, i));

async function addInvoices(tx: Sql, invoices: readonly NewInvoice[]): Promise<number[]> {
  const ids = await reserveIds(tx, 'invoices', invoices.length);
  await insertRows(tx, intoWithId(INSERT_INVOICE), invoices.map((i, k): Param[] => [ids[k]!, ...valuesOf(invoiceValues, i)]));
  return ids;
}

export function postgresPayments(conn: PostgresConnection): BillingMethods & ProcessorEffectMethods {
  const methodMissing = async (m: NewPaymentMethod) => (await noSite(conn, m.siteId)) ?? noRow(conn, 'members', 'memberId', m.siteId, m.memberId);
  const noMembership = async (i: NewInvoice) =>
    i.membershipId === undefined || (await conn.first(BILLING.membershipOfMember, i.siteId, i.memberId, i.membershipId))
      ? undefined
      : new MissingReferenceError('membershipId', `membershipId ${i.membershipId} is no membership of member ${i.memberId} in site ${i.siteId}`);
  const invoiceMissing = async (i: NewInvoice) =>
    (await noSite(conn, i.siteId)) ?? (await noRow(conn, 'members', 'memberId', i.siteId, i.memberId)) ??
    (await noRow(conn, 'plans', 'planId', i.siteId, i.planId)) ?? noMembership(i);

  return {
    async savePaymentMethod(method) {
      let saved: PaymentMethodRecord | undefined;
      await insertAll(conn, [method], async (tx, m) => (saved = await saveMethod(tx, m)).id, methodMissing);
      return saved!;
    },
    async savePaymentMethods(methods) {
      await insertBatch(conn, methods, saveMethods, saveMethodId, methodMissing);
    },
    async getPaymentMethod(siteId, memberId) {
      const row = await conn.firstRaw(BILLING.methodOfMember, siteId, memberId);
      return row && paymentMethodFrom(row);
    },

    async createInvoice(invoice, mails = []) {
      // The receipt is queued and the payment announced with its invoice, or none of it is written.
      // A mail's unknown site is no fault of the invoice's (insertAll's `missing` finds none): storeError names it.
      let added: InvoiceRecord | undefined;
      await insertAll(
        conn,
        [invoice],
        async (tx, i) => {
          const id = await addInvoice(tx, i);
          await postgresMailWriter(tx, mails);
          added = invoiceFrom((await tx.firstRaw(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ?`, id))!);
          const hooks = await postgresAnnouncer(tx, [i.siteId]);
          if (batchWanted(hooks, [added], 'payment.succeeded', 'payment.failed')) await hooks.write([invoiceMessage(added)]);
          return id;
        },
        invoiceMissing,
      ).catch((error: unknown) => {
        throw storeError(error);
      });
      return added!;
    },
    async createInvoices(invoices) {
      await insertBatch(conn, invoices, addInvoices, addInvoice, invoiceMissing);
    },
    listInvoicesOfMember: async (siteId, memberId) => (await conn.raw(BILLING.invoicesOfMember, siteId, memberId)).map(invoiceFrom),

    // What a processor's events change: each write one statement, atomic without a transaction,
    // but for a refund, which announces the invoices it changed (a paid one; one refunded already
    // was told before) in its transaction.
    async getInvoiceByCharge(siteId, chargeId) {
      const row = await conn.firstRaw(PROCESSOR_EFFECTS.invoiceByCharge, siteId, chargeId);
      return row && invoiceFrom(row);
    },
    markInvoiceRefunded: (siteId, chargeId, refundedCents) =>
      conn.transaction(async (tx) => {
        const changed = (await tx.raw(PROCESSOR_EFFECTS.refund, ...refundInvoiceValues(siteId, chargeId, refundedCents))).map(invoiceFrom);
        const hooks = await postgresAnnouncer(tx, [siteId]);
        if (hooks.wants(siteId, 'payment.refunded')) {
          const at = announcedAt();
          await hooks.write(changed.sort((x, y) => x.id - y.id).map((i) => refundMessage(i, at)), DUE_AT_ONCE);
        }
        const row = await tx.firstRaw(PROCESSOR_EFFECTS.refundable, siteId, chargeId);
        return row && invoiceFrom(row);
      }),
    removePaymentMethodByProcessorId: async (siteId, processorId) =>
      idsAscending(await conn.raw(PROCESSOR_EFFECTS.removeCard, siteId, processorId))[0],
    removePaymentMethodsOfCustomer: async (siteId, customerId) =>
      idsAscending(await conn.raw(PROCESSOR_EFFECTS.removeCustomerCards, siteId, siteId, customerId)),
  };
}
