/**
 * The built-in payment processor (src/service/payments/test-processor.ts): the test cards of
 * DESIGN.md and docs/test-cards.md (declined when saved, declined when charged), card checks with a
 * field path each, invoices for paid and failed charges; its records in the store it is given
 * (decision 0029), so another processor over the same store knows them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import {
  InvalidCardError,
  PaymentDeclinedError,
  UnknownPaymentReferenceError,
  type CardDetails,
  type PaymentProcessor,
} from '../../src/service/payments/processor';
import { brandOf, passesLuhn, TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { createMemoryStore } from '../../src/service/store/memory';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';

const dir = mkdtempSync(join(tmpdir(), 'svc-test-processor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let now = Date.parse('2026-11-23T12:00:00Z');
let store: Store;
let processor: TestPaymentProcessor;
let customerId: string;
beforeEach(async () => {
  now = Date.parse('2026-11-23T12:00:00Z');
  let next = 0;
  store = createMemoryStore();
  processor = new TestPaymentProcessor({ clock: () => now, store, randomPart: () => `${++next}` });
  customerId = (await processor.createCustomer({ email: 'ada@example.com', name: 'Ada Lovelace' })).customerId;
});

const card = (cardNumber: string, more: Partial<CardDetails> = {}): CardDetails => ({ cardNumber, cardExpiry: '12/30', cardCvc: '123', ...more });
const order = { amountCents: 2149, currency: 'usd', description: 'Monthly' };

async function invalid(details: CardDetails) {
  const before = await processor.listPaymentMethods(customerId);
  const error = await processor.addPaymentMethod(customerId, details).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidCardError);
  expect(await processor.listPaymentMethods(customerId)).toEqual(before);
  return (error as InvalidCardError).issues;
}

test('ids look like a processor\'s, with a random part from randomId by default', async () => {
  expect(customerId).toBe('cus_test_1');
  const real = new TestPaymentProcessor({ clock: () => now, store });
  const ids = await Promise.all([1, 2, 3].map(() => real.createCustomer({ email: 'a@example.com' })));
  for (const { customerId: id } of ids) expect(id).toMatch(/^cus_test_[A-Za-z0-9]{14}$/);
  expect(new Set(ids.map((i) => i.customerId)).size).toBe(3);
});

test('the success cards are stored as brand, last four digits and expiry, and charged', async () => {
  const visa = await processor.addPaymentMethod(customerId, card('4242 4242 4242 4242', { cardExpiry: '04/29' }));
  expect(visa).toEqual({ id: 'pm_test_ok_2', brand: 'visa', last4: '4242', expMonth: 4, expYear: 2029 });
  const mastercard = await processor.addPaymentMethod(customerId, card('5555555555554444'));
  expect(mastercard).toMatchObject({ brand: 'mastercard', last4: '4444', expMonth: 12, expYear: 2030 });
  expect(await processor.listPaymentMethods(customerId)).toEqual([visa, mastercard]);

  for (const method of [visa, mastercard]) {
    const receipt = await processor.charge(customerId, method.id, order);
    expect(receipt).toEqual({ chargeId: expect.stringMatching(/^ch_test_/), invoiceId: expect.stringMatching(/^in_test_/) });
  }
  const invoices = await processor.listInvoices(customerId);
  expect(invoices).toHaveLength(2);
  expect(invoices[0]).toEqual({ id: 'in_test_4', chargeId: 'ch_test_5', amountCents: 2149, currency: 'usd', description: 'Monthly', status: 'paid', createdAt: now });
});

describe('cards declined when saved (0002, 9995): verified as they are saved, as Stripe does, whatever follows', () => {
  test.each([
    ['4000 0000 0000 0002', 'card_declined', /declined/],
    ['4000 0000 0000 9995', 'insufficient_funds', /insufficient funds/],
  ])('%s: CardDeclinedError %s; nothing kept, nothing charged', async (number, code, message) => {
    const saved = await processor.addPaymentMethod(customerId, card('4242424242424242'));
    const error = await processor.addPaymentMethod(customerId, card(number)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CardDeclinedError', declineCode: code });
    expect((error as Error).message).toMatch(message);
    // Not a charge: no ids, no amount, no invoice; the card saved before is the only one.
    expect(error).not.toBeInstanceOf(PaymentDeclinedError);
    expect(await processor.listPaymentMethods(customerId)).toEqual([saved]);
    expect(await processor.listInvoices(customerId)).toEqual([]);
  });

  test('the checks come first: an expired 0002 is an InvalidCardError on cardExpiry, not a decline', async () => {
    expect(await invalid(card('4000 0000 0000 0002', { cardExpiry: '10/26' }))).toEqual([{ path: 'cardExpiry', message: expect.stringMatching(/expired/) }]);
  });
});

describe('a card declined when charged (0341): saved like any card, and every charge on it fails with an invoice', () => {
  test('4000 0000 0000 0341: card_declined on each charge', async () => {
    const method = await processor.addPaymentMethod(customerId, card('4000 0000 0000 0341'));
    expect(method).toMatchObject({ id: expect.stringMatching(/^pm_test_declined_/), brand: 'visa', last4: '0341', expMonth: 12, expYear: 2030 });
    expect(await processor.listPaymentMethods(customerId)).toEqual([method]);
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await processor.charge(customerId, method.id, { ...order, currency: 'USD' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentDeclinedError);
      const declined = error as PaymentDeclinedError;
      expect(declined).toMatchObject({ declineCode: 'card_declined', amountCents: 2149, currency: 'usd' });
      expect(declined.message).toMatch(/declined/);
      const invoices = await processor.listInvoices(customerId);
      // The failed attempt's ids are the invoice's: what an abandonedConversion event records.
      expect(invoices.at(-1)).toMatchObject({ id: declined.invoiceId, chargeId: declined.chargeId, status: 'failed', amountCents: 2149, currency: 'usd' });
    }
    expect(await processor.listInvoices(customerId)).toHaveLength(2);
  });
});

describe('card checks name the field and say what is wrong', () => {
  test.each([
    ['letters in the number', card('4242 4242 4242 424x'), 'cardNumber', /only digits/],
    ['dashes in the number', card('4242-4242-4242-4242'), 'cardNumber', /only digits/],
    ['an empty number', card(''), 'cardNumber', /only digits/],
    ['11 digits', card('42424242424'), 'cardNumber', /12 to 19 digits/],
    ['20 digits', card('42424242424242424242'), 'cardNumber', /12 to 19 digits/],
    ['a failed checksum', card('4242 4242 4242 4241'), 'cardNumber', /not a valid card number/],
    ['expiry without a slash', card('4242424242424242', { cardExpiry: '1230' }), 'cardExpiry', /MM\/YY/],
    ['expiry with a four-digit year', card('4242424242424242', { cardExpiry: '12/2030' }), 'cardExpiry', /MM\/YY/],
    ['month 13', card('4242424242424242', { cardExpiry: '13/30' }), 'cardExpiry', /MM\/YY/],
    ['month 00', card('4242424242424242', { cardExpiry: '00/30' }), 'cardExpiry', /MM\/YY/],
    ['last month', card('4242424242424242', { cardExpiry: '10/26' }), 'cardExpiry', /expired/],
    ['a CVC of 2 digits', card('4242424242424242', { cardCvc: '12' }), 'cardCvc', /3 or 4 digits/],
    ['a CVC of 5 digits', card('4242424242424242', { cardCvc: '12345' }), 'cardCvc', /3 or 4 digits/],
    ['a CVC with letters', card('4242424242424242', { cardCvc: '12a' }), 'cardCvc', /3 or 4 digits/],
  ])('%s', async (_name, details, path, message) => {
    const issues = await invalid(details);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
    expect(issues[0]!.message).toMatch(message);
  });

  test('every bad field is named at once', async () => {
    const issues = await invalid({ cardNumber: '1234', cardExpiry: 'soon', cardCvc: '' });
    expect(issues.map((i) => i.path)).toEqual(['cardNumber', 'cardExpiry', 'cardCvc']);
  });

  test('a card is good through the last instant of its expiry month, by the injected clock', async () => {
    now = Date.parse('2026-11-30T23:59:59.999Z');
    await expect(processor.addPaymentMethod(customerId, card('4242424242424242', { cardExpiry: '11/26' }))).resolves.toMatchObject({ expMonth: 11, expYear: 2026 });
    now = Date.parse('2026-12-01T00:00:00Z');
    expect(await invalid(card('4242424242424242', { cardExpiry: '11/26' }))).toEqual([{ path: 'cardExpiry', message: expect.stringMatching(/expired/) }]);
  });

  test('spaces are allowed in the number and around the expiry slash; a 4-digit CVC is fine', async () => {
    await expect(processor.addPaymentMethod(customerId, card(' 3782 822463 10005 ', { cardExpiry: ' 01 / 31 ', cardCvc: '1234' }))).resolves.toMatchObject({
      brand: 'amex', last4: '0005', expMonth: 1, expYear: 2031,
    });
  });
});

test('the full card number and the CVC are never kept, of a card saved or of one declined: not in the processor, not in the database file', async () => {
  const file = join(dir, 'never-kept.db');
  const sqlite = openSqliteStore(file);
  const kept = new TestPaymentProcessor({ clock: () => now, store: sqlite });
  const { customerId: id } = await kept.createCustomer({ email: 'ada@example.com' });
  await kept.addPaymentMethod(id, card('4242 4242 4242 4242', { cardCvc: '7319' }));
  await kept.addPaymentMethod(id, card('4000000000000341', { cardCvc: '8642' }));
  await kept.addPaymentMethod(id, card('4000000000000002', { cardCvc: '9753' })).catch(() => undefined);
  const dump = inspect(kept, { depth: Infinity, showHidden: true });
  // The database file and its write-ahead log, as bytes: everything the store wrote.
  const files = readdirSync(dir).filter((name) => name.startsWith('never-kept.db')).map((name) => readFileSync(join(dir, name)).toString('latin1'));
  await sqlite.close();
  const everything = [dump, ...files].join('\n');
  expect(everything).toContain('4242'); // the last four are kept, so the dump does show the cards
  for (const secret of ['4242424242424242', '4242 4242', '4000000000000341', '4000000000000002', '7319', '8642', '9753']) expect(everything).not.toContain(secret);
});

describe('unknown references', () => {
  test('an unknown customer', async () => {
    const checks: Array<(p: PaymentProcessor) => Promise<unknown>> = [
      (p) => p.addPaymentMethod!('cus_live_nope', card('4242424242424242')),
      (p) => p.listPaymentMethods('cus_live_nope'),
      (p) => p.charge('cus_live_nope', 'pm_test_x', order),
      (p) => p.listInvoices!('cus_live_nope'),
    ];
    for (const check of checks) {
      await expect(check(processor)).rejects.toEqual(expect.objectContaining({ name: 'UnknownPaymentReferenceError', resource: 'customer' }));
    }
  });

  test('another customer\'s payment method', async () => {
    const other = (await processor.createCustomer({ email: 'bob@example.com' })).customerId;
    const method = await processor.addPaymentMethod(other, card('4242424242424242'));
    const error = await processor.charge(customerId, method.id, order).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownPaymentReferenceError);
    expect(error).toMatchObject({ resource: 'paymentMethod', id: method.id });
    expect(await processor.listInvoices(customerId)).toEqual([]);
  });
});

test('another processor over the same store (another process, a restart) knows the customers, cards, charges and keys; ids it never issued are unknown', async () => {
  const ok = await processor.addPaymentMethod(customerId, card('4242424242424242'));
  const failsOnCharge = await processor.addPaymentMethod(customerId, card('4000000000000341'));
  const first = await processor.charge(customerId, ok.id, { ...order, idempotencyKey: 'renewal:1' });

  const other = new TestPaymentProcessor({ clock: () => now, store });
  expect(await other.listPaymentMethods(customerId)).toEqual([ok, failsOnCharge]);
  expect(await other.charge(customerId, ok.id, { ...order, idempotencyKey: 'renewal:1' })).toEqual(first);
  await expect(other.charge(customerId, failsOnCharge.id, order)).rejects.toMatchObject({ name: 'PaymentDeclinedError', declineCode: 'card_declined' });
  expect((await other.listInvoices(customerId)).map((i) => [i.id, i.status])).toEqual([[first.invoiceId, 'paid'], [expect.any(String), 'failed']]);
  expect(await processor.listInvoices(customerId)).toEqual(await other.listInvoices(customerId));
  // Nothing is taken at an id's word any more: ids of its form that it never issued are unknown.
  await expect(other.charge(customerId, 'pm_test_ok_neverIssued', order)).rejects.toMatchObject({ name: 'UnknownPaymentReferenceError', resource: 'paymentMethod' });
  await expect(other.charge('cus_test_neverIssued', ok.id, order)).rejects.toMatchObject({ name: 'UnknownPaymentReferenceError', resource: 'customer' });
  await expect(other.listPaymentMethods('cus_test_neverIssued')).rejects.toMatchObject({ name: 'UnknownPaymentReferenceError', resource: 'customer' });
  // A card saved through the other is charged through the first.
  const fresh = await other.addPaymentMethod(customerId, card('5555555555554444'));
  expect(await processor.charge(customerId, fresh.id, order)).toMatchObject({ chargeId: expect.stringMatching(/^ch_test_/) });
});

test('a charge needs a positive whole amount and a currency code', async () => {
  const method = await processor.addPaymentMethod(customerId, card('4242424242424242'));
  for (const amountCents of [0, -100, 12.5, NaN]) {
    await expect(processor.charge(customerId, method.id, { ...order, amountCents })).rejects.toThrow(RangeError);
  }
  await expect(processor.charge(customerId, method.id, { ...order, currency: 'dollars' })).rejects.toThrow(RangeError);
  expect(await processor.listInvoices(customerId)).toEqual([]);
});

test('what the processor returns is a copy: changing it changes nothing stored', async () => {
  const method = await processor.addPaymentMethod(customerId, card('4242424242424242'));
  method.last4 = '0000';
  (await processor.listPaymentMethods(customerId))[0]!.brand = 'amex';
  await processor.charge(customerId, method.id, order);
  (await processor.listInvoices(customerId))[0]!.status = 'failed';
  expect(await processor.listPaymentMethods(customerId)).toMatchObject([{ brand: 'visa', last4: '4242' }]);
  expect(await processor.listInvoices(customerId)).toMatchObject([{ status: 'paid' }]);
});

describe('brandOf', () => {
  test.each([
    ['4242424242424242', 'visa'],
    ['4000000000000002', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720999999999996', 'mastercard'],
    ['2220999999999999', 'unknown'],
    ['2721000000000000', 'unknown'],
    ['5000000000000000', 'unknown'],
    ['5600000000000000', 'unknown'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['6011111111111117', 'unknown'],
    ['3530111333300000', 'unknown'],
  ])('%s is %s', (number, brand) => {
    expect(brandOf(number)).toBe(brand);
  });
});

describe('passesLuhn', () => {
  test.each([
    ['4242424242424242', true],
    ['5555555555554444', true],
    ['4000000000009995', true],
    ['378282246310005', true],
    ['79927398713', true],
    ['79927398710', false],
    ['4242424242424241', false],
  ])('%s: %s', (number, valid) => {
    expect(passesLuhn(number)).toBe(valid);
  });

  test('changing any one digit breaks the checksum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const digits = '4242424242424242'.split('').map(Number);
        digits[position] = (digits[position]! + delta) % 10;
        expect(passesLuhn(digits.join(''))).toBe(false);
      }),
    );
  });
});
