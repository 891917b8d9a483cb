/**
 * The SQLite store's records of the built-in test processor (decision 0029; migrations 11 and
 * 14). A charge or an intent is recorded in one immediate transaction (write-locked from its
 * start), so one with the same idempotency key from another connection or process waits, then
 * finds this one. An intent is settled by one UPDATE that changes it only while it waits.
 */
import { ConflictError } from '../errors';
import { isConstraint, type Row, type Value } from '../sql-rows';
import {
  KEYED_CHARGES,
  KEYED_INTENTS,
  type KeyedRecords,
  settleIntentValues,
  TEST_PROCESSOR_SQL,
  testCardFrom,
  testCardValues,
  testChargeFrom,
  testChargeValues,
  testCustomerFrom,
  testCustomerValues,
  testIntentFrom,
} from '../sql-test-processor';
import type { TestProcessorCard, TestProcessorCharge, TestProcessorCustomer } from '../records';
import type { TestProcessorMethods } from '../store';
import type { SqliteConnection } from './connection';

/** A unique id taken, as the store's ConflictError; any other error as it came. */
const conflict = (error: unknown): unknown =>
  isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY')
    ? new ConflictError('id', `the test processor has that id already: ${error.message}`)
    : error;

export function sqliteTestProcessor({ db, sql, first }: SqliteConnection): TestProcessorMethods {
  /** A batch of rows through one statement, in one transaction. */
  const batchOf = <T>(text: string, values: (row: T) => Value[]) => {
    const insert = db.prepare(text);
    return db.transaction((batch: readonly T[]) => {
      for (const row of batch) insert.run(values(row));
    });
  };
  const customers = batchOf<TestProcessorCustomer>(TEST_PROCESSOR_SQL.insertCustomer, testCustomerValues);
  const cards = batchOf<TestProcessorCard>(TEST_PROCESSOR_SQL.insertCard, testCardValues);
  const charges = batchOf<TestProcessorCharge>(TEST_PROCESSOR_SQL.insertCharge, testChargeValues);
  const attempt = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw conflict(error);
    }
  };
  /** Records one of `kind` unless a record kept after `keptAfter` carries its key (then that one is the answer). */
  const recordKept = <T extends { idempotencyKey?: string }>(kind: KeyedRecords<T>) => {
    const insert = db.prepare(kind.insert);
    const record = db.transaction((row: T, keptAfter: number): T => {
      if (row.idempotencyKey !== undefined) {
        const earlier = first(kind.byKey, row.idempotencyKey);
        if (earlier && (earlier.created_at as number) > keptAfter) return kind.from(earlier);
        if (earlier) sql(kind.forgetKey).run(earlier.id as number);
      }
      insert.run(kind.values(row));
      return structuredClone(row);
    });
    return async (row: T, keptAfter: number): Promise<T> => attempt(() => record.immediate(row, keptAfter));
  };
  const getIntent = (id: string) => {
    const row = first(TEST_PROCESSOR_SQL.intent, id);
    return row && testIntentFrom(row);
  };

  return {
    createTestProcessorCustomers: async (batch) => attempt(() => customers(batch)),
    async getTestProcessorCustomer(id) {
      const row = first(TEST_PROCESSOR_SQL.customer, id);
      return row && testCustomerFrom(row);
    },
    deleteTestProcessorCustomer: async (id) =>
      db.transaction(() => {
        sql(TEST_PROCESSOR_SQL.deleteCards).run(id);
        return sql(TEST_PROCESSOR_SQL.deleteCustomer).run(id).changes > 0;
      }).immediate(),
    addTestProcessorCards: async (batch) => attempt(() => cards(batch)),
    addTestProcessorCharges: async (batch) => attempt(() => charges(batch)),
    listTestProcessorCards: async (customerId) => (sql(TEST_PROCESSOR_SQL.cardsOf).all(customerId) as Row[]).map(testCardFrom),
    recordTestProcessorCharge: recordKept(KEYED_CHARGES),
    listTestProcessorCharges: async (customerId) => (sql(TEST_PROCESSOR_SQL.chargesOf).all(customerId) as Row[]).map(testChargeFrom),
    recordTestProcessorIntent: recordKept(KEYED_INTENTS),
    getTestProcessorIntent: async (id) => getIntent(id),
    async settleTestProcessorIntent(id, outcome) {
      // Once settled an intent never changes again, so what is read after the UPDATE is its final state.
      sql(TEST_PROCESSOR_SQL.settleIntent).run(settleIntentValues(id, outcome));
      return getIntent(id);
    },
  };
}
