/**
 * The SQL both SQL stores run for the built-in test processor's records (decision 0029): columns,
 * statements and row mappers. The tables: ./sqlite/migrations 11, ./postgres/migrations 4.
 */
import type { TestProcessorCard, TestProcessorCharge, TestProcessorCustomer } from './records';
import { orNull, type Row, type Value } from './sql-rows';

export const CUSTOMER_COLUMNS = 'customer_id, email, name, created_at';
export const CARD_COLUMNS = 'card_id, customer_id, brand, last4, exp_month, exp_year, decline_code, created_at';
export const CHARGE_COLUMNS =
  'invoice_id, charge_id, customer_id, card_id, amount_cents, currency, description, status, decline_code, idempotency_key, created_at';

export const testCustomerFrom = (r: Row): TestProcessorCustomer => ({
  id: r.customer_id as string,
  email: r.email as string,
  ...(r.name !== null && { name: r.name as string }),
  createdAt: r.created_at as number,
});
export const testCardFrom = (r: Row): TestProcessorCard => ({
  id: r.card_id as string,
  customerId: r.customer_id as string,
  brand: r.brand as TestProcessorCard['brand'],
  last4: r.last4 as string,
  expMonth: r.exp_month as number,
  expYear: r.exp_year as number,
  ...(r.decline_code !== null && { declineCode: r.decline_code as NonNullable<TestProcessorCard['declineCode']> }),
  createdAt: r.created_at as number,
});
export const testChargeFrom = (r: Row): TestProcessorCharge => ({
  invoiceId: r.invoice_id as string,
  chargeId: r.charge_id as string,
  customerId: r.customer_id as string,
  cardId: r.card_id as string,
  amountCents: r.amount_cents as number,
  currency: r.currency as string,
  description: r.description as string,
  status: r.status as TestProcessorCharge['status'],
  ...(r.decline_code !== null && { declineCode: r.decline_code as NonNullable<TestProcessorCharge['declineCode']> }),
  ...(r.idempotency_key !== null && { idempotencyKey: r.idempotency_key as string }),
  createdAt: r.created_at as number,
});

/** Each record's values in its table's column order (the COLUMNS above): both SQL stores write them so. */
export const testCustomerValues = (c: TestProcessorCustomer): Value[] => [c.id, c.email, orNull(c.name), c.createdAt];
export const testCardValues = (c: TestProcessorCard): Value[] => [
  c.id, c.customerId, c.brand, c.last4, c.expMonth, c.expYear, orNull(c.declineCode), c.createdAt,
];
export const testChargeValues = (c: TestProcessorCharge): Value[] => [
  c.invoiceId, c.chargeId, c.customerId, c.cardId, c.amountCents, c.currency, c.description, c.status, orNull(c.declineCode),
  orNull(c.idempotencyKey), c.createdAt,
];
export const TEST_PROCESSOR_SQL = {
  insertCustomer: `INSERT INTO test_processor_customers (${CUSTOMER_COLUMNS}) VALUES (?, ?, ?, ?)`,
  insertCard: `INSERT INTO test_processor_cards (${CARD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  insertCharge: `INSERT INTO test_processor_charges (${CHARGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  customer: `SELECT ${CUSTOMER_COLUMNS} FROM test_processor_customers WHERE customer_id = ?`,
  cardsOf: `SELECT ${CARD_COLUMNS} FROM test_processor_cards WHERE customer_id = ? ORDER BY id`,
  chargesOf: `SELECT ${CHARGE_COLUMNS} FROM test_processor_charges WHERE customer_id = ? ORDER BY id`,
  chargeByKey: `SELECT id, ${CHARGE_COLUMNS} FROM test_processor_charges WHERE idempotency_key = ?`,
  forgetKey: 'UPDATE test_processor_charges SET idempotency_key = NULL WHERE id = ?',
};
