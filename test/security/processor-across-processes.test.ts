/**
 * Issue 26, finding 2: the test processor's memory was per process. With `svc serve --workers 2`
 * a card saved through one worker was unknown to the other: UnknownPaymentReferenceError, a 500.
 * Its customers, cards and charges are in the store now (decision 0029). Two apps, each over a
 * connection of its own to one database, stand for two workers (the real thing:
 * test/cli/workers-payments.test.ts), on SQLite and on PostgreSQL; and a charge's idempotency key
 * holds across them, as the billing run's keys must when two processes bill.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { DEMO_FIXTURE, FIXTURES } from '../../mock-server/fixtures';
import { loadFixtures, type LoadedSite } from '../../mock-server/load-fixtures';
import { createServiceApp } from '../../src/service/app';
import { createPasswordHasher, TEST_SCRYPT } from '../../src/service/auth/passwords';
import { portableScrypt } from '../../src/service/auth/portable-scrypt';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { openPostgresStore } from '../../src/service/store/postgres';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';
import { describePostgres, newPostgresSchema } from '../support/postgres';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const ORIGIN = 'http://demo.localhost';
const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
const grace = DEMO_FIXTURE.members.find((m) => m.key === 'grace')!;

const dir = mkdtempSync(join(tmpdir(), 'svc-processor-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new database; what it answers opens a connection (a store) to it. */
type NewDatabase = () => Promise<() => Promise<Store>>;

/** Two stores on one new database, the fixtures loaded through the first. */
async function twoConnections(newDatabase: NewDatabase): Promise<{ stores: [Store, Store]; demo: LoadedSite }> {
  const open = await newDatabase();
  const stores = [await open(), await open()] as [Store, Store];
  for (const store of stores) cleanups.push(() => store.close());
  const [demo] = (await loadFixtures(stores[0], createPasswordHasher(portableScrypt, TEST_SCRYPT), FIXTURES, NOW)) as [LoadedSite];
  return { stores, demo };
}

const send = (app: Hono, method: string, path: string, body: unknown, token?: string) =>
  app.request(`http://svc.test/member/v1/sites/demo${path}`, {
    method,
    headers: { origin: ORIGIN, 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });

function suite(newDatabase: NewDatabase) {
  test('a customer made through one process, a card made and saved through the other, a paid sign-up through the first: 201, one charge', async () => {
    const { stores, demo } = await twoConnections(newDatabase);
    // Each app with the processor svc serve gives it: the built-in one, over its own store.
    const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
    const [a, b] = await Promise.all(stores.map((store) => createServiceApp({ store, passwords, clock: () => NOW, signupRateLimit: 'off' })));
    const session = await send(a!, 'POST', '/sessions', { email: grace.email, password: grace.password });
    const { token } = (await session.json()) as { token: string };
    // The free plan makes the member's processor customer, in b.
    expect((await send(b!, 'POST', '/memberships', { planPublicId: 'community' }, token)).status).toBe(201);
    // The card goes to the test processor's card field through a, and is saved through a.
    const made = await send(a!, 'POST', '/test-payment-methods', GOOD, token);
    expect(made.status, await made.clone().text()).toBe(201);
    const { id: paymentMethodId } = (await made.json()) as { id: string };
    const saved = await send(a!, 'PUT', '/payment-method', { paymentMethodId }, token);
    expect(saved.status, await saved.clone().text()).toBe(200);
    // And charged through b.
    const joined = await send(b!, 'POST', '/memberships', { planPublicId: 'lifetime' }, token);
    expect(joined.status, await joined.clone().text()).toBe(201);
    const { order } = (await joined.json()) as { order: { id: string } };
    const member = (await stores[1].getMember(demo.site.id, demo.memberIds.grace!))!;
    const charges = await stores[0].listTestProcessorCharges(member.processorCustomerId!);
    expect(charges.map((c) => [c.invoiceId, c.status])).toEqual([[order.id, 'paid']]);
  });

  test('10 charges with one idempotency key through two processors on two connections at once: one charge, one answer', async () => {
    const { stores } = await twoConnections(newDatabase);
    const processors = stores.map((store) => new TestPaymentProcessor({ clock: () => NOW, store }));
    const { customerId } = await processors[0]!.createCustomer({ email: 'ann@example.com' });
    const card = await processors[1]!.addPaymentMethod(customerId, GOOD);
    const receipts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        processors[i % 2]!.charge(customerId, card.id, { amountCents: 1200, currency: 'usd', description: 'Monthly', idempotencyKey: 'renewal:1:7:100:1' }),
      ),
    );
    expect(new Set(receipts.map((r) => r.invoiceId)).size).toBe(1);
    for (const processor of processors) expect(await processor.listInvoices(customerId)).toHaveLength(1);
  });
}

describe('SQLite: two connections to one file', () => {
  suite(async () => {
    const file = join(dir, `shared-${++files}.db`);
    return async () => openSqliteStore(file);
  });
});

describePostgres('PostgreSQL: two pools on one database', () => {
  suite(async () => {
    const { url, drop } = await newPostgresSchema();
    cleanups.push(drop);
    return () => openPostgresStore(url);
  });
});
