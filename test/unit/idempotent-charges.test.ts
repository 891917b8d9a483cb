/**
 * The test processor honours a charge's idempotency key as Stripe does, for a day (billing, issue
 * 16), whichever processor over the store charged first (decision 0029).
 */
import { expect, test } from 'vitest';
import { PaymentDeclinedError } from '../../src/service/payments/processor';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { createMemoryStore } from '../../src/service/store/memory';

const DAY = 86_400_000;

async function customerWith(cardNumber: string) {
  let now = Date.UTC(2027, 0, 1);
  const processor = new TestPaymentProcessor({ clock: () => now, store: createMemoryStore() });
  const { customerId } = await processor.createCustomer({ email: 'ann@example.com' });
  const card = await processor.addPaymentMethod(customerId, { cardNumber, cardExpiry: '12/30', cardCvc: '123' });
  const charge = (idempotencyKey?: string) =>
    processor.charge(customerId, card.id, { amountCents: 1200, currency: 'usd', description: 'Monthly: renewal', ...(idempotencyKey && { idempotencyKey }) });
  const invoices = async () => (await processor.listInvoices(customerId)).length;
  return { charge, invoices, advance: (ms: number) => (now += ms) };
}

test('the same key twice, at once or later, is one charge with one answer; another key or none is another charge', async () => {
  const { charge, invoices } = await customerWith('4242424242424242');
  const [first, again] = await Promise.all([charge('renewal:1:7:100:1'), charge('renewal:1:7:100:1')]);
  expect(again).toEqual(first);
  expect(await charge('renewal:1:7:100:1')).toEqual(first);
  expect(await invoices()).toBe(1);
  expect(await charge('renewal:1:7:100:2')).not.toEqual(first);
  await charge();
  await charge();
  expect(await invoices()).toBe(4);
});

test('a declined charge is declined again under its key, with the same ids, and no new attempt', async () => {
  const { charge, invoices } = await customerWith('4000000000000341');
  const first = await charge('k').catch((error: unknown) => error);
  expect(first).toBeInstanceOf(PaymentDeclinedError);
  // The same decline, with the same ids (another process answers it from the store: an equal error, not the same object).
  const { declineCode, chargeId, invoiceId, amountCents, currency } = first as PaymentDeclinedError;
  await expect(charge('k')).rejects.toMatchObject({ name: 'PaymentDeclinedError', declineCode, chargeId, invoiceId, amountCents, currency });
  expect(await invoices()).toBe(1);
});

test('a key is kept a day, then forgotten', async () => {
  const { charge, invoices, advance } = await customerWith('4242424242424242');
  const first = await charge('k');
  advance(DAY - 1);
  expect(await charge('k')).toEqual(first);
  advance(1);
  expect(await charge('k')).not.toEqual(first);
  expect(await invoices()).toBe(2);
});
