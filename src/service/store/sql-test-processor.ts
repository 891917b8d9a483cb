/**
 * The SQL both SQL stores run for the built-in test processor's records (decision 0029): columns,
 * statements and row mappers. The tables: ./sqlite/migrations 11, ./postgres/migrations 4; the
 * intents (payments waiting for the member's authorization): ./sqlite/migrations 14, ./postgres/migrations 7.
 */
import type { TestProcessorCard, TestProcessorCharge, TestProcessorCustomer, TestProcessorIntent, TestProcessorIntentOutcome } from './records';
import { orNull, type Row, type Value } from './sql-rows';

export const CUSTOMER_COLUMNS = 'customer_id, email, name, created_at';
export const CARD_COLUMNS = 'card_id, customer_id, brand, last4, exp_month, exp_year, decline_code, authentication, created_at';
export const CHARGE_COLUMNS =
  'invoice_id, charge_id, customer_id, card_id, amount_cents, currency, description, status, decline_code, idempotency_key, created_at';
export const INTENT_COLUMNS =
  'intent_id, client_secret, customer_id, card_id, amount_cents, currency, description, metadata, status, charge_id, invoice_id, ' +
  'idempotency_key, created_at';

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
  ...(r.authentication !== null && { authentication: r.authentication as NonNullable<TestProcessorCard['authentication']> }),
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
export const testIntentFrom = (r: Row): TestProcessorIntent => ({
  id: r.intent_id as string,
  clientSecret: r.client_secret as string,
  customerId: r.customer_id as string,
  cardId: r.card_id as string,
  amountCents: r.amount_cents as number,
  currency: r.currency as string,
  description: r.description as string,
  metadata: JSON.parse(r.metadata as string) as Record<string, string>,
  status: r.status as TestProcessorIntent['status'],
  ...(r.charge_id !== null && { chargeId: r.charge_id as string }),
  ...(r.invoice_id !== null && { invoiceId: r.invoice_id as string }),
  ...(r.idempotency_key !== null && { idempotencyKey: r.idempotency_key as string }),
  createdAt: r.created_at as number,
});

/** Each record's values in its table's column order (the COLUMNS above): both SQL stores write them so. */
export const testCustomerValues = (c: TestProcessorCustomer): Value[] => [c.id, c.email, orNull(c.name), c.createdAt];
export const testCardValues = (c: TestProcessorCard): Value[] => [
  c.id, c.customerId, c.brand, c.last4, c.expMonth, c.expYear, orNull(c.declineCode), orNull(c.authentication), c.createdAt,
];
export const testChargeValues = (c: TestProcessorCharge): Value[] => [
  c.invoiceId, c.chargeId, c.customerId, c.cardId, c.amountCents, c.currency, c.description, c.status, orNull(c.declineCode),
  orNull(c.idempotencyKey), c.createdAt,
];
export const testIntentValues = (i: TestProcessorIntent): Value[] => [
  i.id, i.clientSecret, i.customerId, i.cardId, i.amountCents, i.currency, i.description, JSON.stringify(i.metadata), i.status,
  orNull(i.chargeId), orNull(i.invoiceId), orNull(i.idempotencyKey), i.createdAt,
];
/** TEST_PROCESSOR_SQL.settleIntent's values: the outcome's status and charge (NULL for a failed one), then the intent's id. */
export const settleIntentValues = (id: string, outcome: TestProcessorIntentOutcome): Value[] =>
  outcome.status === 'succeeded' ? [outcome.status, outcome.chargeId, outcome.invoiceId, id] : [outcome.status, null, null, id];
export const TEST_PROCESSOR_SQL = {
  insertCustomer: `INSERT INTO test_processor_customers (${CUSTOMER_COLUMNS}) VALUES (?, ?, ?, ?)`,
  insertCard: `INSERT INTO test_processor_cards (${CARD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  insertCharge: `INSERT INTO test_processor_charges (${CHARGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  customer: `SELECT ${CUSTOMER_COLUMNS} FROM test_processor_customers WHERE customer_id = ?`,
  cardsOf: `SELECT ${CARD_COLUMNS} FROM test_processor_cards WHERE customer_id = ? ORDER BY id`,
  chargesOf: `SELECT ${CHARGE_COLUMNS} FROM test_processor_charges WHERE customer_id = ? ORDER BY id`,
  /** deleteTestProcessorCustomer: its cards, then itself (its charges stay, a processor's ledger). Values: customer id. */
  deleteCards: 'DELETE FROM test_processor_cards WHERE customer_id = ?',
  deleteCustomer: 'DELETE FROM test_processor_customers WHERE customer_id = ?',
  chargeByKey: `SELECT id, ${CHARGE_COLUMNS} FROM test_processor_charges WHERE idempotency_key = ?`,
  forgetKey: 'UPDATE test_processor_charges SET idempotency_key = NULL WHERE id = ?',
  insertIntent: `INSERT INTO test_processor_intents (${INTENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  intent: `SELECT ${INTENT_COLUMNS} FROM test_processor_intents WHERE intent_id = ?`,
  intentByKey: `SELECT id, ${INTENT_COLUMNS} FROM test_processor_intents WHERE idempotency_key = ?`,
  forgetIntentKey: 'UPDATE test_processor_intents SET idempotency_key = NULL WHERE id = ?',
  /** A compare-and-set: only an intent still waiting changes; one settled stays as it is. */
  settleIntent: `UPDATE test_processor_intents SET status = ?, charge_id = ?, invoice_id = ?
    WHERE intent_id = ? AND status = 'requiresAction'`,
};

/** A kind of record a caller's idempotency key names while it is kept (charges, intents): how both SQL stores record one. */
export interface KeyedRecords<T extends { idempotencyKey?: string }> {
  /** Its table: PostgreSQL's constraint on the key is `<table>_idempotency_key`. */
  table: string;
  insert: string;
  /** The row holding a key, its `id` first. */
  byKey: string;
  /** Takes the key off the row of that `id`. */
  forgetKey: string;
  from: (r: Row) => T;
  values: (record: T) => Value[];
}
export const KEYED_CHARGES: KeyedRecords<TestProcessorCharge> = {
  table: 'test_processor_charges',
  insert: TEST_PROCESSOR_SQL.insertCharge,
  byKey: TEST_PROCESSOR_SQL.chargeByKey,
  forgetKey: TEST_PROCESSOR_SQL.forgetKey,
  from: testChargeFrom,
  values: testChargeValues,
};
export const KEYED_INTENTS: KeyedRecords<TestProcessorIntent> = {
  table: 'test_processor_intents',
  insert: TEST_PROCESSOR_SQL.insertIntent,
  byKey: TEST_PROCESSOR_SQL.intentByKey,
  forgetKey: TEST_PROCESSOR_SQL.forgetIntentKey,
  from: testIntentFrom,
  values: testIntentValues,
};
