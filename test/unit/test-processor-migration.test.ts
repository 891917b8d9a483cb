/**
 * SQLite migration 11 and PostgreSQL migration 4 (issue 26, decision 0029): the built-in test
 * processor's records move into the database. A database from before them holds members'
 * customer ids and saved cards the processor then knew only in memory (or took at their ids'
 * word); the migration takes them over, so the billing run and the member API go on charging
 * them, with no guessing from an id left in the processor. SQLite migration 14 and PostgreSQL
 * migration 7 (issue 28) add the intents its 3-D Secure test cards wait on: a database from
 * before them keeps its processor's records, and intents start empty and work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { openPostgresStore } from '../../src/service/store/postgres';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../src/service/store/postgres/migrations';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/service/store/sqlite/migrations';
import type { Store } from '../../src/service/store/store';
import { describePostgres, newPostgresSchema } from '../support/postgres';

const dir = mkdtempSync(join(tmpdir(), 'svc-test-processor-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 0, 1);
const TABLES = ['test_processor_charges', 'test_processor_cards', 'test_processor_customers'];
const order = { amountCents: 1200, currency: 'usd', description: 'Monthly' };

/** Members as a build before the migration left them: customers and saved cards of the test processor, and one of another processor. */
async function membersWithCards(store: Store) {
  const site = await store.createSite({ name: 'Old', subdomain: 'old', domain: 'old.example.com', defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true, createdAt: T0 });
  const ids = await store.createMembers([
    { siteId: site.id, email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee', status: 'approved', createdAt: T0, processorCustomerId: 'cus_test_ann' },
    { siteId: site.id, email: 'bob@example.com', status: 'approved', createdAt: T0 + 1, processorCustomerId: 'cus_test_bob' },
    { siteId: site.id, email: 'cy@example.com', status: 'approved', createdAt: T0 + 2, processorCustomerId: 'cus_live_cy' },
    { siteId: site.id, email: 'di@example.com', status: 'approved', createdAt: T0 + 3 },
  ]);
  const saved = { brand: 'visa' as const, expMonth: 12, expYear: 2030, createdAt: T0 + 10 };
  await store.savePaymentMethods([
    { siteId: site.id, memberId: ids[0]!, processorId: 'pm_test_ok_ann', last4: '4242', ...saved },
    { siteId: site.id, memberId: ids[1]!, processorId: 'pm_test_declined_bob', last4: '0341', ...saved },
    { siteId: site.id, memberId: ids[2]!, processorId: 'pm_live_cy', last4: '4242', ...saved },
  ]);
}

async function expectTakenOver(store: Store) {
  expect(await store.getTestProcessorCustomer('cus_test_ann')).toStrictEqual({ id: 'cus_test_ann', email: 'ann@example.com', name: 'Ann Lee', createdAt: T0 });
  expect(await store.getTestProcessorCustomer('cus_test_bob')).toStrictEqual({ id: 'cus_test_bob', email: 'bob@example.com', createdAt: T0 + 1 });
  expect(await store.getTestProcessorCustomer('cus_live_cy')).toBeUndefined();
  expect(await store.listTestProcessorCards('cus_test_bob')).toStrictEqual([
    { id: 'pm_test_declined_bob', customerId: 'cus_test_bob', brand: 'visa', last4: '0341', expMonth: 12, expYear: 2030, declineCode: 'card_declined', createdAt: T0 + 10 },
  ]);
  const processor = new TestPaymentProcessor({ clock: () => T0 + DAY, store });
  expect(await processor.charge('cus_test_ann', 'pm_test_ok_ann', order)).toMatchObject({ invoiceId: expect.stringMatching(/^in_test_/) });
  await expect(processor.charge('cus_test_bob', 'pm_test_declined_bob', order)).rejects.toMatchObject({ name: 'PaymentDeclinedError', declineCode: 'card_declined' });
  await expect(processor.charge('cus_live_cy', 'pm_live_cy', order)).rejects.toMatchObject({ name: 'UnknownPaymentReferenceError', resource: 'customer' });
}
const DAY = 86_400_000;
/** What SQLite's migration 13 (PostgreSQL's 6) added: the indexes Stripe's events are found by. */
const DROP_EVENT_INDEXES = 'DROP INDEX invoices_site_charge; DROP INDEX payment_methods_site_processor; DROP INDEX members_site_processor_customer;';
/** What SQLite's migration 18 (PostgreSQL's 11) added: members' pictures (issue 32). */
const DROP_PICTURES = 'DROP INDEX members_site_picture; ALTER TABLE members DROP COLUMN picture_hash; DROP TABLE member_pictures;';
/** What SQLite's migrations 17 and later (PostgreSQL's 10 and later) added: the owner's actions (issue 32), then the rest. */
const DROP_OWNER_ACTIONS = `${DROP_PICTURES} ALTER TABLE memberships DROP COLUMN comp; ALTER TABLE invoices DROP COLUMN refunded_cents;`;
/** What SQLite's migrations 16 and later (PostgreSQL's 9 and later) added: webhooks (issue 31), children first, then the rest. */
const DROP_WEBHOOKS = `${DROP_OWNER_ACTIONS} DROP TABLE webhook_attempts; DROP TABLE webhook_deliveries; DROP TABLE webhook_messages; DROP TABLE webhook_endpoints;`;
/** What SQLite's migrations 15 and later (PostgreSQL's 8 and later) added: a downgrade waiting for its period's end, then the rest. */
const DROP_NEXT_PLAN = `${DROP_WEBHOOKS} ALTER TABLE memberships DROP COLUMN next_plan_id;`;
/** What SQLite's migrations 14 and later (PostgreSQL's 7 and later) added: the test processor's intents, then the rest. */
const DROP_INTENTS = `${DROP_NEXT_PLAN} DROP TABLE test_processor_intents; ALTER TABLE test_processor_cards DROP COLUMN authentication;`;

/** A charge recorded before migration 14 (SQLite's; PostgreSQL's 7). */
const oldCharge = {
  invoiceId: 'in_test_old', chargeId: 'ch_test_old', customerId: 'cus_test_ann', cardId: 'pm_test_ok_ann', amountCents: 1200, currency: 'usd',
  description: 'Monthly', status: 'paid' as const, idempotencyKey: 'renewal:old', createdAt: T0 + 20,
};
/** The test processor's records before migration 14: a customer and a charge. */
async function recordBeforeIntents(store: Store) {
  await store.createTestProcessorCustomers([{ id: 'cus_test_ann', email: 'ann@example.com', createdAt: T0 }]);
  await store.recordTestProcessorCharge(oldCharge, T0);
  await store.addTestProcessorCards([{ id: 'pm_test_ok_ann', customerId: 'cus_test_ann', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, createdAt: T0 + 10 }]);
}
/** After migration 14: the records from before it are there, and intents are recorded, read and settled. */
async function expectIntentsWork(store: Store) {
  expect(await store.getTestProcessorCustomer('cus_test_ann')).toStrictEqual({ id: 'cus_test_ann', email: 'ann@example.com', createdAt: T0 });
  expect(await store.listTestProcessorCharges('cus_test_ann')).toStrictEqual([oldCharge]);
  expect(await store.getTestProcessorIntent('pi_test_1')).toBeUndefined();
  // Cards saved before ask for no authentication; a card saved now keeps when its bank asks.
  expect(await store.listTestProcessorCards('cus_test_ann')).toStrictEqual([{ id: 'pm_test_ok_ann', customerId: 'cus_test_ann', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, createdAt: T0 + 10 }]);
  const asking = { id: 'pm_test_3ds_ann', customerId: 'cus_test_ann', brand: 'visa' as const, last4: '3155', expMonth: 12, expYear: 2034, authentication: 'onSession' as const, createdAt: T0 + 20 };
  await store.addTestProcessorCards([asking]);
  expect((await store.listTestProcessorCards('cus_test_ann')).at(-1)).toStrictEqual(asking);
  const intent = {
    id: 'pi_test_1', clientSecret: 'pi_test_1_secret_abc', customerId: 'cus_test_ann', cardId: 'pm_test_ok_ann', amountCents: 1200,
    currency: 'usd', description: 'Monthly', metadata: { site: '1' }, status: 'requiresAction' as const, idempotencyKey: 'k', createdAt: T0 + 30,
  };
  expect(await store.recordTestProcessorIntent(intent, T0)).toStrictEqual(intent);
  const settled = { ...intent, status: 'succeeded' as const, chargeId: 'ch_test_1', invoiceId: 'in_test_1' };
  expect(await store.settleTestProcessorIntent('pi_test_1', { status: 'succeeded', chargeId: 'ch_test_1', invoiceId: 'in_test_1' })).toStrictEqual(settled);
  expect(await store.getTestProcessorIntent('pi_test_1')).toStrictEqual(settled);
}

/**
 * A store made by `make` at the newest version, set back to `version` as the build before the
 * next migration left it (`undo` takes away what the later migrations made), then opened again,
 * which migrates it: `check` runs on the migrated store.
 */
async function sqliteFrom(version: number, undo: string, make: (store: Store) => Promise<void>, check: (store: Store) => Promise<void>) {
  const file = join(dir, `v${version}.db`);
  const made = openSqliteStore(file);
  await make(made);
  await made.close();
  const old = new Database(file);
  old.exec(undo);
  old.pragma(`user_version = ${version}`);
  old.close();

  const store = openSqliteStore(file);
  try {
    await check(store);
  } finally {
    await store.close();
  }
  const db = new Database(file);
  expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.length);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
}
/** sqliteFrom on a PostgreSQL schema of its own. */
async function postgresFrom(version: number, undo: string, make: (store: Store) => Promise<void>, check: (store: Store) => Promise<void>) {
  const { url, drop } = await newPostgresSchema();
  try {
    const made = await openPostgresStore(url);
    await make(made);
    await made.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(undo);
      await client.query('UPDATE schema_version SET version = $1', [version]);
    } finally {
      await client.end();
    }
    const store = await openPostgresStore(url);
    try {
      await check(store);
    } finally {
      await store.close();
    }
  } finally {
    await drop();
  }
}

/** What migrations 11 to 14 (PostgreSQL's 4 to 7) made: their tables, and those of issue 28 (12, 13, 14; PostgreSQL's 5, 6, 7). */
const BEFORE_TEST_PROCESSOR =
  `${DROP_INTENTS} ${TABLES.map((table) => `DROP TABLE ${table};`).join(' ')} DROP TABLE processor_events; ALTER TABLE sites DROP COLUMN payments; ${DROP_EVENT_INDEXES}`;

test('SQLite: a database at schema version 10 migrates to 11: the test processor takes over its customers and saved cards', async () => {
  expect(SQLITE_MIGRATIONS[10]).toContain('CREATE TABLE test_processor_customers');
  await sqliteFrom(10, BEFORE_TEST_PROCESSOR, membersWithCards, expectTakenOver);
});

test('SQLite: a database at schema version 13 migrates to 14: its test processor records stay, and intents start empty and work', async () => {
  expect(SQLITE_MIGRATIONS[13]).toContain('CREATE TABLE test_processor_intents');
  await sqliteFrom(13, DROP_INTENTS, recordBeforeIntents, expectIntentsWork);
});

describePostgres('PostgreSQL', () => {
  test('a database at schema version 3 migrates to 4: the test processor takes over its customers and saved cards', async () => {
    expect(POSTGRES_MIGRATIONS[3]).toContain('CREATE TABLE test_processor_customers');
    await postgresFrom(3, BEFORE_TEST_PROCESSOR, membersWithCards, expectTakenOver);
  });

  test('a database at schema version 6 migrates to 7: its test processor records stay, and intents start empty and work', async () => {
    expect(POSTGRES_MIGRATIONS[6]).toContain('CREATE TABLE test_processor_intents');
    await postgresFrom(6, DROP_INTENTS, recordBeforeIntents, expectIntentsWork);
  });
});
