/**
 * Seeded invoices and cards written to a SQLite database in one transaction per batch, for
 * `svc seed`. The store takes them one at a time (createInvoice, savePaymentMethod: the member
 * API and the billing run write one), each in a transaction of its own; at 100,000 members, some
 * 270,000 invoices and 60,000 cards, that made the seed seven times slower (64 s against 9 s).
 *
 * It opens its own connection to the store's database file and inserts the rows the store's
 * SQLite payments (store/sqlite-payments.ts) would, column for column; the schema's foreign keys
 * and unique indexes check them as they check the store's. A store method taking a batch would
 * make this file unnecessary; until then, test/unit/demo-consistency.test.ts checks that both
 * ways write the same rows.
 */
import Database from 'better-sqlite3';
import type { NewInvoice, NewPaymentMethod } from '../store/records';
import type { BillingRowsWriter } from './batch-rows';

export interface SqliteBillingRows extends BillingRowsWriter {
  close(): void;
}

/** For a database file the store has open (and migrated); not for `:memory:`, which is the store's alone. */
export function sqliteBillingRows(path: string): SqliteBillingRows {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  // The store's page cache size (sqlite-connection.ts): the foreign keys' lookups of members and
  // memberships miss the default 2 MiB at this size and took half the writing time.
  db.pragma('cache_size = -65536');
  // Many rows per statement: one call into SQLite per ROWS rows rather than per row.
  const ROWS = 100;
  const values = (columns: number, rows: number) => Array.from({ length: rows }, () => `(${Array(columns).fill('?').join(', ')})`).join(', ');
  const invoiceSql = (rows: number) =>
    db.prepare(
      `INSERT INTO invoices (site_id, member_id, plan_id, membership_id, processor_invoice_id, processor_charge_id,
         sub_total_cents, tax_cents, total_cents, currency, status, description, created_at)
       VALUES ${values(13, rows)}`,
    );
  const cardSql = (rows: number) =>
    db.prepare(`INSERT INTO payment_methods (site_id, member_id, processor_id, brand, last4, exp_month, exp_year, created_at) VALUES ${values(8, rows)}`);
  const invoiceRow = (i: NewInvoice, p: unknown[], at: number) => {
    p[at] = i.siteId; p[at + 1] = i.memberId; p[at + 2] = i.planId; p[at + 3] = i.membershipId ?? null;
    p[at + 4] = i.processorInvoiceId; p[at + 5] = i.processorChargeId; p[at + 6] = i.subTotalCents; p[at + 7] = i.taxCents;
    p[at + 8] = i.totalCents; p[at + 9] = i.currency; p[at + 10] = i.status; p[at + 11] = i.description; p[at + 12] = i.createdAt;
  };
  const cardRow = (c: NewPaymentMethod, p: unknown[], at: number) => {
    p[at] = c.siteId; p[at + 1] = c.memberId; p[at + 2] = c.processorId; p[at + 3] = c.brand;
    p[at + 4] = c.last4; p[at + 5] = c.expMonth; p[at + 6] = c.expYear; p[at + 7] = c.createdAt;
  };
  /** Inserts with ROWS rows to a statement, the rest with one statement of their own. */
  const inserts = <T>(columns: number, sql: (rows: number) => Database.Statement, row: (item: T, params: unknown[], at: number) => void) => {
    const full = sql(ROWS);
    const params = new Array<unknown>(ROWS * columns);
    return (items: readonly T[]) => {
      let start = 0;
      for (; start + ROWS <= items.length; start += ROWS) {
        for (let k = 0; k < ROWS; k++) row(items[start + k]!, params, k * columns);
        full.run(params);
      }
      const rest = items.length - start;
      if (rest === 0) return;
      const last = new Array<unknown>(rest * columns);
      for (let k = 0; k < rest; k++) row(items[start + k]!, last, k * columns);
      sql(rest).run(last);
    };
  };
  const insertInvoices = inserts(13, invoiceSql, invoiceRow);
  const insertCards = inserts(8, cardSql, cardRow);
  const writeAll = db.transaction((invoices: readonly NewInvoice[], cards: readonly NewPaymentMethod[]) => {
    insertInvoices(invoices);
    insertCards(cards);
  });
  return {
    async write(invoices, cards) {
      writeAll(invoices, cards);
    },
    close: () => db.close(),
  };
}
