/**
 * Issue 26, finding 1: concurrent plan sign-ups charged more than once. The "already a member"
 * check ran before the charge and the membership was written after it, so ten sign-ups of one
 * member to one plan sent at once all passed the check: 9-10 memberships and charges on
 * PostgreSQL, 2 on SQLite with two workers. Now the sign-up is claimed in the store before the
 * processor is asked (decision 0029): one membership and one charge, whatever the concurrency,
 * in one process or in two (apps over two connections to one database, as `svc serve --workers
 * 2` runs; the real thing: test/cli/workers-payments.test.ts).
 *
 * The processor answers a charge after a few milliseconds, as one over the network does: the
 * time a sign-up spends at it is the window the race had.
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
import type { ChargeRequest, PaymentProcessor } from '../../src/service/payments/processor';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { createMemoryStore } from '../../src/service/store/memory';
import { openPostgresStore } from '../../src/service/store/postgres';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';
import { POSTGRES_URL, describePostgres, newPostgresSchema } from '../support/postgres';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const ORIGIN = 'http://demo.localhost';
const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
const grace = DEMO_FIXTURE.members.find((m) => m.key === 'grace')!;
const ATTEMPTS = 10;

const dir = mkdtempSync(join(tmpdir(), 'svc-plan-signup-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The processor's charges, counted; each answered after a few milliseconds. */
function slowCounting(inner: PaymentProcessor, charges: ChargeRequest[]): PaymentProcessor {
  return {
    createCustomer: (customer) => inner.createCustomer(customer),
    addPaymentMethod: (customerId, card) => inner.addPaymentMethod!(customerId, card),
    attachPaymentMethod: (customerId, paymentMethodId) => inner.attachPaymentMethod(customerId, paymentMethodId),
    listPaymentMethods: (customerId) => inner.listPaymentMethods(customerId),
    listInvoices: (customerId) => inner.listInvoices!(customerId),
    refund: (request) => inner.refund(request),
    deleteCustomer: (customerId) => inner.deleteCustomer(customerId),
    async charge(customerId, paymentMethodId, request) {
      charges.push(request);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return inner.charge(customerId, paymentMethodId, request);
    },
  };
}

/**
 * `processes` apps, each over a store of its own on one database (`open` opens a connection to
 * it), the fixtures loaded through the first, each with its own processor over its own store.
 */
async function installation(open: () => Promise<Store>, processes: number) {
  const stores: Store[] = [];
  for (let i = 0; i < processes; i++) {
    const store = await open();
    cleanups.push(() => store.close());
    stores.push(store);
  }
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const [demo] = (await loadFixtures(stores[0]!, passwords, FIXTURES, NOW)) as [LoadedSite];
  const charges: ChargeRequest[] = [];
  const apps = await Promise.all(
    stores.map((store) =>
      createServiceApp({
        store, passwords, clock: () => NOW, signupRateLimit: 'off',
        processor: slowCounting(new TestPaymentProcessor({ clock: () => NOW, store }), charges),
      }),
    ),
  );
  return { stores, apps, demo, charges };
}

const post = (app: Hono, path: string, body: unknown, token?: string) =>
  app.request(`http://svc.test/member/v1/sites/demo${path}`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });

async function tenSignUpsAtOnce(open: () => Promise<Store>, processes: number) {
  const { stores, apps, demo, charges } = await installation(open, processes);
  const session = await post(apps[0]!, '/sessions', { email: grace.email, password: grace.password });
  expect(session.status).toBe(201);
  const { token } = (await session.json()) as { token: string };
  // The card goes to the test processor's card field once; every sign-up sends the payment method it answers, as a widget clicked ten times does.
  const made = await post(apps[0]!, '/test-payment-methods', GOOD, token);
  expect(made.status, await made.clone().text()).toBe(201);
  const { id: paymentMethodId } = (await made.json()) as { id: string };
  const answers = await Promise.all(
    Array.from({ length: ATTEMPTS }, (_, i) => post(apps[i % apps.length]!, '/memberships', { planPublicId: 'lifetime', paymentMethodId }, token)),
  );
  const statuses = answers.map((a) => a.status).sort();
  const refusals = await Promise.all(answers.filter((a) => a.status !== 201).map((a) => a.json() as Promise<{ errors: Array<{ code: string }> }>));
  const memberId = demo.memberIds.grace!;
  const memberships = (await stores[0]!.listMembershipsOfMember(demo.site.id, memberId)).filter((m) => m.planId === demo.planIds.lifetime);
  const invoices = await stores[0]!.listInvoicesOfMember(demo.site.id, memberId);
  return { statuses, refusals, memberships, invoices, charges };
}

function expectOneOfEach({ statuses, refusals, memberships, invoices, charges }: Awaited<ReturnType<typeof tenSignUpsAtOnce>>) {
  expect(memberships).toHaveLength(1);
  expect(charges).toHaveLength(1);
  expect(invoices).toHaveLength(1);
  expect(statuses).toEqual([201, ...Array(ATTEMPTS - 1).fill(409)]);
  // The others are told the member is on the plan (or joining it): the answer a second sign-up gets.
  for (const refusal of refusals) expect(refusal.errors.map((e) => e.code)).toEqual(['alreadyMember']);
}

describe.each([
  ['memory', 1],
  ['sqlite', 1],
  ['sqlite', 2],
] as const)('%s store, %i process(es)', (kind, processes) => {
  test(`${ATTEMPTS} sign-ups of one member to one paid plan at once: one membership, one charge, one invoice`, async () => {
    const file = join(dir, `race-${++files}.db`);
    const open = async () => (kind === 'memory' ? createMemoryStore() : openSqliteStore(file));
    expectOneOfEach(await tenSignUpsAtOnce(open, processes));
  });
});

describePostgres('postgres store', () => {
  test.each([1, 2])(`${ATTEMPTS} sign-ups of one member to one paid plan at once, %i process(es): one membership, one charge, one invoice`, async (processes) => {
    if (!POSTGRES_URL) return;
    const { url, drop } = await newPostgresSchema();
    cleanups.push(drop);
    expectOneOfEach(await tenSignUpsAtOnce(() => openPostgresStore(url), processes));
  });
});
