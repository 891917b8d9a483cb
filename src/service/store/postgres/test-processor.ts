/**
 * The PostgreSQL store's records of the built-in test processor (decision 0029; migrations 4 and
 * 7), ../sqlite/test-processor ported. Batches (the demo seed's customers and cards) are COPY
 * statements in one transaction. A charge or an intent is recorded in one SERIALIZABLE
 * transaction that reads its idempotency key first: two at once with one key cannot both insert
 * (the second fails to serialize, or on the key's unique constraint), and the one run again finds
 * the other's. An intent is settled by one UPDATE that changes it only while it waits: of two at
 * once, the second waits for the first's row lock, then finds the intent settled and changes nothing.
 */
import pg from 'pg';
import { ConflictError } from '../errors';
import type { Value } from '../sql-rows';
import {
  CARD_COLUMNS,
  CHARGE_COLUMNS,
  CUSTOMER_COLUMNS,
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
import type { TestProcessorMethods } from '../store';
import { insertRows, type PostgresConnection } from './connection';

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
  /** Records one of `kind` unless a record kept after `keptAfter` carries its key (then that one is the answer). */
  const recordKept = <T extends { idempotencyKey?: string }>(kind: KeyedRecords<T>) => {
    const record = (row: T, keptAfter: number) =>
      conn.transaction(async (tx): Promise<T> => {
        if (row.idempotencyKey !== undefined) {
          const earlier = await tx.first(kind.byKey, row.idempotencyKey);
          if (earlier && (earlier.created_at as number) > keptAfter) return kind.from(earlier);
          if (earlier) await tx.run(kind.forgetKey, earlier.id as number);
        }
        await tx.run(kind.insert, ...kind.values(row));
        return structuredClone(row);
      });
    return async (row: T, keptAfter: number): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await record(row, keptAfter);
        } catch (error) {
          // Another transaction took the key after this one read it, and PostgreSQL said so as a
          // unique violation (of the key, or of an id first when the other carries the same ids:
          // the same record asked for twice): read again, and find its record by the key. An id
          // taken by a record of another key stays a ConflictError.
          if (uniqueViolation(error) && row.idempotencyKey !== undefined && attempt < 3) continue;
          throw conflict(error);
        }
      }
    };
  };
  const getIntent = async (id: string) => {
    const row = await conn.first(TEST_PROCESSOR_SQL.intent, id);
    return row && testIntentFrom(row);
  };

  return {
    createTestProcessorCustomers: (batch) => insertBatch(`test_processor_customers (${CUSTOMER_COLUMNS})`, batch.map(testCustomerValues)),
    async getTestProcessorCustomer(id) {
      const row = await conn.first(TEST_PROCESSOR_SQL.customer, id);
      return row && testCustomerFrom(row);
    },
    addTestProcessorCharges: (batch) => insertBatch(`test_processor_charges (${CHARGE_COLUMNS})`, batch.map(testChargeValues)),
    deleteTestProcessorCustomer: (id) =>
      conn.transaction(async (tx) => {
        await tx.run(TEST_PROCESSOR_SQL.deleteCards, id);
        return (await tx.run(TEST_PROCESSOR_SQL.deleteCustomer, id)) > 0;
      }),
    addTestProcessorCards: (batch) => insertBatch(`test_processor_cards (${CARD_COLUMNS})`, batch.map(testCardValues)),
    listTestProcessorCards: async (customerId) => (await conn.all(TEST_PROCESSOR_SQL.cardsOf, customerId)).map(testCardFrom),
    recordTestProcessorCharge: recordKept(KEYED_CHARGES),
    listTestProcessorCharges: async (customerId) => (await conn.all(TEST_PROCESSOR_SQL.chargesOf, customerId)).map(testChargeFrom),
    recordTestProcessorIntent: recordKept(KEYED_INTENTS),
    getTestProcessorIntent: getIntent,
    async settleTestProcessorIntent(id, outcome) {
      // Once settled an intent never changes again, so what is read after the UPDATE is its final state.
      await conn.run(TEST_PROCESSOR_SQL.settleIntent, ...settleIntentValues(id, outcome));
      return getIntent(id);
    },
  };
}
