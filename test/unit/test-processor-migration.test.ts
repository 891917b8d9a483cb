/**
 * SQLite migration 11 and PostgreSQL migration 4 (issue 26, decision 0029): the built-in test
 * processor's records move into the database. A database from before them holds members'
 * customer ids and saved cards the processor then knew only in memory (or took at their ids'
 * word); the migration takes them over, so the billing run and the member API go on charging
 * them, with no guessing from an id left in the processor.
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

test('SQLite: a database at schema version 10 migrates to 11: the test processor takes over its customers and saved cards', async () => {
  const file = join(dir, 'v10.db');
  const made = openSqliteStore(file);
  await membersWithCards(made);
  await made.close();
  // As the build before migration 11 left it.
  const old = new Database(file);
  for (const table of TABLES) old.exec(`DROP TABLE ${table}`);
  // And before migrations 12 and 13 (issue 28).
  old.exec(`DROP TABLE processor_events; ALTER TABLE sites DROP COLUMN payments; ${DROP_EVENT_INDEXES}`);
  old.pragma('user_version = 10');
  old.close();
  expect(SQLITE_MIGRATIONS[10]).toContain('CREATE TABLE test_processor_customers');

  const store = openSqliteStore(file);
  try {
    await expectTakenOver(store);
  } finally {
    await store.close();
  }
  const db = new Database(file);
  expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.length);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
});

describePostgres('PostgreSQL', () => {
  test('a database at schema version 3 migrates to 4: the test processor takes over its customers and saved cards', async () => {
    const { url, drop } = await newPostgresSchema();
    try {
      const made = await openPostgresStore(url);
      await membersWithCards(made);
      await made.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP TABLE ${TABLES.join(', ')}`);
        // And before migrations 5 and 6 (issue 28).
        await client.query(`DROP TABLE processor_events; ALTER TABLE sites DROP COLUMN payments; ${DROP_EVENT_INDEXES}`);
        await client.query('UPDATE schema_version SET version = 3');
      } finally {
        await client.end();
      }
      expect(POSTGRES_MIGRATIONS[3]).toContain('CREATE TABLE test_processor_customers');
      const store = await openPostgresStore(url);
      try {
        await expectTakenOver(store);
      } finally {
        await store.close();
      }
    } finally {
      await drop();
    }
  });
});
