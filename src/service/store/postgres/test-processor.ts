/**
 * The PostgreSQL store's records of the built-in test processor (decision 0029; migration 4),
 * ../sqlite/test-processor ported. Batches (the demo seed's customers and cards) are COPY
 * statements in one transaction. A charge is recorded in one SERIALIZABLE transaction that reads
 * its idempotency key first: two at once with one key cannot both insert (the second fails to
 * serialize, or on the key's unique constraint), and the one run again finds the other's charge.
 */
import pg from 'pg';
import { ConflictError } from '../errors';
import type { TestProcessorCharge } from '../records';
import type { Value } from '../sql-rows';
import {
  CARD_COLUMNS,
  CUSTOMER_COLUMNS,
  TEST_PROCESSOR_SQL,
  testCardFrom,
  testCardValues,
  testChargeFrom,
  testChargeValues,
  testCustomerFrom,
  testCustomerValues,
} from '../sql-test-processor';
import type { TestProcessorMethods } from '../store';
import { insertRows, type PostgresConnection } from './connection';

const IDEMPOTENCY_KEY = 'test_processor_charges_idempotency_key';

const uniqueViolation = (error: unknown): error is pg.DatabaseError =>
  error instanceof pg.DatabaseError && error.code === '23505' && (error.constraint ?? '').startsWith('test_processor_');

/** A unique id taken, as the store's ConflictError; any other error as it came. */
const conflict = (error: unknown): unknown =>
  uniqueViolation(error) ? new ConflictError('id', `the test processor has that id already: ${error.detail ?? error.message}`) : error;

export function postgresTestProcessor(conn: PostgresConnection): TestProcessorMethods {
  /** A batch into `table (columns)` in one transaction; a taken id is the store's ConflictError. */
  const insertBatch = async (table: string, rows: Value[][]): Promise<void> => {
    if (rows.length === 0) return;
    await conn.transaction((tx) => insertRows(tx, table, rows)).catch((error: unknown) => {
      throw conflict(error);
    });
  };
  const record = (charge: TestProcessorCharge, keptAfter: number) =>
    conn.transaction(async (tx): Promise<TestProcessorCharge> => {
      if (charge.idempotencyKey !== undefined) {
        const earlier = await tx.first(TEST_PROCESSOR_SQL.chargeByKey, charge.idempotencyKey);
        if (earlier && (earlier.created_at as number) > keptAfter) return testChargeFrom(earlier);
        if (earlier) await tx.run(TEST_PROCESSOR_SQL.forgetKey, earlier.id as number);
      }
      await tx.run(TEST_PROCESSOR_SQL.insertCharge, ...testChargeValues(charge));
      return { ...charge };
    });

  return {
    createTestProcessorCustomers: (batch) => insertBatch(`test_processor_customers (${CUSTOMER_COLUMNS})`, batch.map(testCustomerValues)),
    async getTestProcessorCustomer(id) {
      const row = await conn.first(TEST_PROCESSOR_SQL.customer, id);
      return row && testCustomerFrom(row);
    },
    addTestProcessorCards: (batch) => insertBatch(`test_processor_cards (${CARD_COLUMNS})`, batch.map(testCardValues)),
    listTestProcessorCards: async (customerId) => (await conn.all(TEST_PROCESSOR_SQL.cardsOf, customerId)).map(testCardFrom),
    async recordTestProcessorCharge(charge, keptAfter) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await record(charge, keptAfter);
        } catch (error) {
          // Another transaction took the key after this one read it (and PostgreSQL said so as a
          // unique violation, not a failure to serialize): read again, and find its charge.
          if (uniqueViolation(error) && error.constraint === IDEMPOTENCY_KEY && attempt < 3) continue;
          throw conflict(error);
        }
      }
    },
    listTestProcessorCharges: async (customerId) => (await conn.all(TEST_PROCESSOR_SQL.chargesOf, customerId)).map(testChargeFrom),
  };
}
