/**
 * The SQLite store's records of the built-in test processor (decision 0029; migration 11). A
 * charge is recorded in one immediate transaction (write-locked from its start), so a charge with
 * the same idempotency key from another connection or process waits, then finds this one.
 */
import { ConflictError } from '../errors';
import { isConstraint, type Row, type Value } from '../sql-rows';
import { TEST_PROCESSOR_SQL, testCardFrom, testCardValues, testChargeFrom, testChargeValues, testCustomerFrom, testCustomerValues } from '../sql-test-processor';
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
  const insertCharge = db.prepare(TEST_PROCESSOR_SQL.insertCharge);
  const record = db.transaction((charge: TestProcessorCharge, keptAfter: number): TestProcessorCharge => {
    if (charge.idempotencyKey !== undefined) {
      const earlier = first(TEST_PROCESSOR_SQL.chargeByKey, charge.idempotencyKey);
      if (earlier && (earlier.created_at as number) > keptAfter) return testChargeFrom(earlier);
      if (earlier) sql(TEST_PROCESSOR_SQL.forgetKey).run(earlier.id as number);
    }
    insertCharge.run(testChargeValues(charge));
    return { ...charge };
  });
  const attempt = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw conflict(error);
    }
  };

  return {
    createTestProcessorCustomers: async (batch) => attempt(() => customers(batch)),
    async getTestProcessorCustomer(id) {
      const row = first(TEST_PROCESSOR_SQL.customer, id);
      return row && testCustomerFrom(row);
    },
    addTestProcessorCards: async (batch) => attempt(() => cards(batch)),
    listTestProcessorCards: async (customerId) => (sql(TEST_PROCESSOR_SQL.cardsOf).all(customerId) as Row[]).map(testCardFrom),
    recordTestProcessorCharge: async (charge, keptAfter) => attempt(() => record.immediate(charge, keptAfter)),
    listTestProcessorCharges: async (customerId) => (sql(TEST_PROCESSOR_SQL.chargesOf).all(customerId) as Row[]).map(testChargeFrom),
  };
}
