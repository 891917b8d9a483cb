/**
 * Billing runs in several processes over one database (issue 16, decision 0025): `svc serve`'s
 * timer beside `svc billing run`, or two hosts. Each run here has a store connection of its own
 * to one SQLite file and a module instance of its own (vi.resetModules), as a process would, and
 * both charge through one processor: the payment service they share. The second run starts
 * once the first is at the processor with its first charge, and charges wait until every run is
 * at the processor or done: the runs overlap as far as they can, with no timer deciding it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import { definePlan } from '../../src/service/domain/plans';
import type { CardDetails, ChargeReceipt, ChargeRequest, PaymentProcessor, RefundRequest } from '../../src/service/payments/processor';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { createMemoryStore } from '../../src/service/store/memory';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';

type Renewals = typeof import('../../src/service/billing/renewals');

const DAY = 86_400_000;
const T = Date.UTC(2027, 0, 15, 12);
const MEMBERS = 3;

const dir = mkdtempSync(join(tmpdir(), 'svc-billing-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** renewals.ts as a process of its own loads it: its module state (if it had any) its own. */
async function loadRenewals(): Promise<Renewals> {
  vi.resetModules();
  return import('../../src/service/billing/renewals');
}

/**
 * One processor for every run (the payment service is shared), whose charges are held until
 * each of `runs` runs waits at it or has finished.
 */
class SharedProcessor implements PaymentProcessor {
  /** Its records in a store of its own: the payment service's, apart from any run's database. */
  readonly inner = new TestPaymentProcessor({ clock: () => T, store: createMemoryStore() });
  private waiting: Array<() => void> = [];
  private finished = 0;
  private open = false;
  private charging!: () => void;
  /** Resolves when the first charge has come. */
  readonly firstCharge = new Promise<void>((resolve) => (this.charging = resolve));

  constructor(private readonly runs: number) {}

  createCustomer = (customer: { email: string }) => this.inner.createCustomer(customer);
  addPaymentMethod = (customerId: string, card: CardDetails) => this.inner.addPaymentMethod(customerId, card);
  attachPaymentMethod = (customerId: string, paymentMethodId: string) => this.inner.attachPaymentMethod(customerId, paymentMethodId);
  refund = (request: RefundRequest) => this.inner.refund(request);
  deleteCustomer = (customerId: string) => this.inner.deleteCustomer(customerId);
  listPaymentMethods = (customerId: string) => this.inner.listPaymentMethods(customerId);
  listInvoices = (customerId: string) => this.inner.listInvoices(customerId);

  async charge(customerId: string, paymentMethodId: string, request: ChargeRequest): Promise<ChargeReceipt> {
    if (!this.open) {
      const turn = new Promise<void>((resolve) => this.waiting.push(resolve));
      this.charging();
      this.check();
      await turn;
    }
    return this.inner.charge(customerId, paymentMethodId, request);
  }

  /** Runs a billing run as one of the `runs`, counting it done when it settles. */
  async run<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } finally {
      this.finished++;
      this.check();
    }
  }

  private check(): void {
    if (this.waiting.length + this.finished < this.runs) return;
    this.open = true;
    this.waiting.splice(0).forEach((go) => { go(); });
  }
}

/** A SQLite file with MEMBERS paying members whose monthly renewal is due at T. */
async function dueRenewals(processor: SharedProcessor): Promise<{ file: string; customers: string[] }> {
  const file = join(dir, `billing-${++files}.db`);
  const store = openSqliteStore(file);
  try {
    const created = T - 40 * DAY;
    const site = await store.createSite({ name: 'Shop', subdomain: 'shop', domain: 'shop.example', defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true, createdAt: created });
    const plan = await definePlan(store, () => created, site.id, { name: 'Monthly', type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' } } });
    const customers: string[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const email = `member${i}@shop.example`;
      const { customerId } = await processor.createCustomer({ email });
      const card = await processor.addPaymentMethod(customerId, { cardNumber: '4242424242424242', cardExpiry: '12/30', cardCvc: '123' });
      const [memberId] = await store.createMembers([{ siteId: site.id, email, status: 'approved', createdAt: created, processorCustomerId: customerId }]);
      await store.savePaymentMethod({ siteId: site.id, memberId: memberId!, processorId: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear, createdAt: created });
      await store.createMemberships([{ siteId: site.id, memberId: memberId!, planId: plan.id, status: 'active', createdAt: created, paymentFailure: false, billingPeriodEnd: T - 1 }]);
      customers.push(customerId);
    }
    return { file, customers };
  } finally {
    await store.close();
  }
}

/** Charges the processor took per customer, and renewal invoices the store recorded per member. */
async function chargesAndInvoices(processor: SharedProcessor, file: string, customers: string[]) {
  const store = openSqliteStore(file);
  try {
    const charged = await Promise.all(customers.map(async (c) => (await processor.listInvoices(c)).length));
    const members = (await store.listMembers(1, {}, { limit: 100 })).items;
    const invoices = await Promise.all(members.map(async (m) => (await store.listInvoicesOfMember(1, m.id)).length));
    const periodEnds = (await store.listMemberships(1, {}, { limit: 100 })).items.map((m) => m.billingPeriodEnd);
    return { charged, invoices, periodEnds };
  } finally {
    await store.close();
  }
}

async function twoRuns(clocks: [number, number]) {
  const processor = new SharedProcessor(2);
  const { file, customers } = await dueRenewals(processor);
  const [first, second] = [await loadRenewals(), await loadRenewals()];
  const stores: Store[] = [openSqliteStore(file), openSqliteStore(file)];
  try {
    const firstRun = processor.run(first.runRenewals({ store: stores[0]!, clock: () => clocks[0], processor }));
    await processor.firstCharge;
    const secondRun = processor.run(second.runRenewals({ store: stores[1]!, clock: () => clocks[1], processor }));
    const reports = await Promise.all([firstRun, secondRun]);
    return { reports, ...(await chargesAndInvoices(processor, file, customers)), renewals: first };
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
}

const once = Array<number>(MEMBERS).fill(1);

test('two runs at once on two connections: the one holding the billing lease charges each renewal once, the other does nothing', async () => {
  const { reports, charged, invoices, periodEnds } = await twoRuns([T, T]);
  expect(charged).toEqual(once);
  expect(invoices).toEqual(once);
  expect(periodEnds.every((end) => end !== undefined && end > T)).toBe(true);
  expect(reports.map((r) => [r.busy, r.charged, r.errors])).toEqual([[false, MEMBERS, 0], [true, 0, 0]]);
});

test('a run whose lease lapsed mid-run, and the run that took it over: the memberships\' claims still charge each renewal once', async () => {
  const { RUN_LEASE_MS, CLAIM_MS } = await loadRenewals();
  // The second run's clock is past the first's lease, within the claims the first takes.
  expect(RUN_LEASE_MS + 1).toBeLessThan(CLAIM_MS);
  const { reports, charged, invoices } = await twoRuns([T, T + RUN_LEASE_MS + 1]);
  expect(reports.map((r) => r.busy)).toEqual([false, false]);
  expect(charged).toEqual(once);
  expect(invoices).toEqual(once);
  expect(reports[0]!.charged + reports[1]!.charged).toBe(MEMBERS);
  // The second left the membership the first was charging (claimed): it waited.
  expect(reports[1]!.charged).toBeLessThan(MEMBERS);
  expect(reports[1]!.waiting).toBeGreaterThanOrEqual(1);
});

test('a biller whose claim lapsed while it was charging: the charge\'s idempotency key makes the second biller\'s charge the same one, recorded once', async () => {
  const { CLAIM_MS } = await loadRenewals();
  const { reports, charged, invoices } = await twoRuns([T, T + CLAIM_MS + 1]);
  expect(charged).toEqual(once);
  expect(invoices).toEqual(once);
  expect(reports[0]!.charged + reports[1]!.charged).toBe(MEMBERS);
});
