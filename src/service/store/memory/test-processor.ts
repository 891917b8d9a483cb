/**
 * The memory store's records of the built-in test processor (decision 0029): one process, so
 * Maps and arrays in insertion order. Every check runs before any change: a rejected batch
 * changes nothing.
 */
import { ConflictError } from '../errors';
import { copy } from './table';
import type { TestProcessorCard, TestProcessorCharge, TestProcessorCustomer, TestProcessorIntent } from '../records';
import type { TestProcessorMethods } from '../store';

/** Throws ConflictError when an id is taken in `taken` or earlier in the batch. */
function checkNew(ids: readonly string[], taken: (id: string) => boolean): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (taken(id) || seen.has(id)) throw new ConflictError('id', `the test processor has ${id} already`);
    seen.add(id);
  }
}

/**
 * Records of a kind a caller's idempotency key names while it is kept (charges, intents):
 * `check` throws for one that may not be recorded, `keep` keeps it (the object the key names).
 */
function recordKept<T extends { idempotencyKey?: string; createdAt: number }>(check: (record: T) => void, keep: (record: T) => void) {
  /** The record each idempotency key names now. */
  const byKey = new Map<string, T>();
  return async (record: T, keptAfter: number): Promise<T> => {
    const key = record.idempotencyKey;
    const earlier = key === undefined ? undefined : byKey.get(key);
    if (earlier && earlier.createdAt > keptAfter) return copy(earlier);
    check(record);
    if (earlier) delete earlier.idempotencyKey;
    const recorded = copy(record);
    keep(recorded);
    if (key !== undefined) byKey.set(key, recorded);
    return copy(recorded);
  };
}

export function memoryTestProcessor(): TestProcessorMethods {
  const customers = new Map<string, TestProcessorCustomer>();
  const cards = new Map<string, TestProcessorCard>();
  const charges: TestProcessorCharge[] = [];
  const invoiceIds = new Set<string>();
  const chargeIds = new Set<string>();
  const intents = new Map<string, TestProcessorIntent>();

  return {
    async createTestProcessorCustomers(batch) {
      checkNew(batch.map((c) => c.id), (id) => customers.has(id));
      for (const customer of batch) customers.set(customer.id, copy(customer));
    },
    async getTestProcessorCustomer(id) {
      const customer = customers.get(id);
      return customer && copy(customer);
    },
    async addTestProcessorCards(batch) {
      checkNew(batch.map((c) => c.id), (id) => cards.has(id));
      for (const card of batch) cards.set(card.id, copy(card));
    },
    async addTestProcessorCharges(batch) {
      checkNew(batch.map((c) => c.invoiceId), (id) => invoiceIds.has(id));
      checkNew(batch.map((c) => c.chargeId), (id) => chargeIds.has(id));
      for (const charge of batch) {
        charges.push(copy(charge));
        invoiceIds.add(charge.invoiceId);
        chargeIds.add(charge.chargeId);
      }
    },
    async deleteTestProcessorCustomer(id) {
      for (const [cardId, card] of cards) if (card.customerId === id) cards.delete(cardId);
      return customers.delete(id);
    },
    async listTestProcessorCards(customerId) {
      return [...cards.values()].filter((c) => c.customerId === customerId).map(copy);
    },
    recordTestProcessorCharge: recordKept<TestProcessorCharge>(
      (charge) => {
        checkNew([charge.invoiceId], (id) => invoiceIds.has(id));
        checkNew([charge.chargeId], (id) => chargeIds.has(id));
      },
      (charge) => {
        charges.push(charge);
        invoiceIds.add(charge.invoiceId);
        chargeIds.add(charge.chargeId);
      },
    ),
    async listTestProcessorCharges(customerId) {
      return charges.filter((c) => c.customerId === customerId).map(copy);
    },
    recordTestProcessorIntent: recordKept<TestProcessorIntent>(
      (intent) => checkNew([intent.id], (id) => intents.has(id)),
      (intent) => intents.set(intent.id, intent),
    ),
    async getTestProcessorIntent(id) {
      const intent = intents.get(id);
      return intent && copy(intent);
    },
    async settleTestProcessorIntent(id, outcome) {
      const intent = intents.get(id);
      if (!intent) return undefined;
      if (intent.status === 'requiresAction') {
        intent.status = outcome.status;
        if (outcome.status === 'succeeded') {
          intent.chargeId = outcome.chargeId;
          intent.invoiceId = outcome.invoiceId;
        }
      }
      return copy(intent);
    },
  };
}
