/**
 * The memory store's records of the built-in test processor (decision 0029): one process, so
 * Maps and arrays in insertion order. Every check runs before any change: a rejected batch
 * changes nothing.
 */
import { ConflictError } from '../errors';
import { copy } from './table';
import type { TestProcessorCard, TestProcessorCharge, TestProcessorCustomer } from '../records';
import type { TestProcessorMethods } from '../store';

export function memoryTestProcessor(): TestProcessorMethods {
  const customers = new Map<string, TestProcessorCustomer>();
  const cards = new Map<string, TestProcessorCard>();
  const charges: TestProcessorCharge[] = [];
  const invoiceIds = new Set<string>();
  const chargeIds = new Set<string>();
  /** The charge each idempotency key names now. */
  const byKey = new Map<string, TestProcessorCharge>();

  /** Throws ConflictError when an id is taken in `taken` or earlier in the batch. */
  function checkNew(ids: readonly string[], taken: (id: string) => boolean): void {
    const seen = new Set<string>();
    for (const id of ids) {
      if (taken(id) || seen.has(id)) throw new ConflictError('id', `the test processor has ${id} already`);
      seen.add(id);
    }
  }

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
    async listTestProcessorCards(customerId) {
      return [...cards.values()].filter((c) => c.customerId === customerId).map(copy);
    },
    async recordTestProcessorCharge(charge, keptAfter) {
      const key = charge.idempotencyKey;
      const earlier = key === undefined ? undefined : byKey.get(key);
      if (earlier && earlier.createdAt > keptAfter) return copy(earlier);
      checkNew([charge.invoiceId], (id) => invoiceIds.has(id));
      checkNew([charge.chargeId], (id) => chargeIds.has(id));
      if (earlier) delete earlier.idempotencyKey;
      const recorded = copy(charge);
      charges.push(recorded);
      invoiceIds.add(charge.invoiceId);
      chargeIds.add(charge.chargeId);
      if (key !== undefined) byKey.set(key, recorded);
      return copy(recorded);
    },
    async listTestProcessorCharges(customerId) {
      return charges.filter((c) => c.customerId === customerId).map(copy);
    },
  };
}
