import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import type { PlanChange } from '../src/service/store/site-definition';
import { openSqliteStore } from '../src/service/store/sqlite';
import { MIGRATIONS, migrate } from '../src/service/store/sqlite/migrations';
import { runStoreContract } from './store-contract';
import { T0, addMembers, newPlan, newSite } from './store-contract/fixtures';

const dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreContract('sqlite store in memory', () => openSqliteStore(':memory:'));
runStoreContract('sqlite store in a file', () => openSqliteStore(newFile()));

describe('sqlite store files', () => {
  test('site metrics and plan counts follow writes made through another connection', async () => {
    const file = newFile();
    const reader = openSqliteStore(file);
    const writer = openSqliteStore(file);
    const site = await writer.createSite(newSite('shared'));
    const plan = await writer.createPlan(newPlan(site.id));
    const [a, b] = await addMembers(writer, site.id, 2);
    const active = (memberId: number) => ({ siteId: site.id, memberId, planId: plan.id, status: 'active' as const, createdAt: T0, paymentFailure: false });

    await writer.createMemberships([active(a!)]);
    expect((await reader.siteMetrics(site.id)).activeMemberCount).toBe(1);
    expect((await reader.planActiveMemberCounts(site.id, [plan.id])).get(plan.id)).toBe(1);
    // Asked again with nothing changed: the same answer.
    expect((await reader.siteMetrics(site.id)).activeMemberCount).toBe(1);

    await writer.createMemberships([active(b!)]);
    expect((await reader.siteMetrics(site.id)).activeMemberCount).toBe(2);
    expect((await reader.planActiveMemberCounts(site.id, [plan.id])).get(plan.id)).toBe(2);

    // And through the same connection.
    const [c] = await addMembers(reader, site.id, 1, 'own');
    await reader.createMemberships([active(c!)]);
    expect((await reader.siteMetrics(site.id)).activeMemberCount).toBe(3);
    expect((await reader.planActiveMemberCounts(site.id, [plan.id])).get(plan.id)).toBe(3);
    await reader.close();
    await writer.close();
  });

  test('the definition one connection keeps follows writes made through another at once (a key revoked by svc keys, say)', async () => {
    const file = newFile();
    const server = openSqliteStore(file);
    const tool = openSqliteStore(file);
    const site = await tool.createSite(newSite('kept'));
    const hash = 'b'.repeat(64);
    await tool.createApiKey({ siteId: site.id, hash, scopes: ['read.members'], createdAt: T0 });
    for (let i = 0; i < 2; i++) {
      expect((await server.findApiKeyByHash(hash))?.revokedAt).toBeUndefined();
      expect((await server.getSiteBySubdomain('kept'))?.name).toBe(site.name);
    }
    await tool.revokeApiKey(hash, T0 + 1);
    await tool.updateSite(site.id, { name: 'Renamed elsewhere' });
    expect((await server.findApiKeyByHash(hash))?.revokedAt).toBe(T0 + 1);
    expect((await server.getSiteBySubdomain('kept'))?.name).toBe('Renamed elsewhere');
    expect((await server.getSite(site.id))?.name).toBe('Renamed elsewhere');
    await server.close();
    await tool.close();
  });

  test('a caller changing returned metrics does not change what the store answers next', async () => {
    const store = openSqliteStore(':memory:');
    const site = await store.createSite(newSite('mutable'));
    const metrics = await store.siteMetrics(site.id);
    metrics.activeMemberCount = 99;
    (await store.planActiveMemberCounts(site.id, [1])).set(1, 99);
    expect((await store.siteMetrics(site.id)).activeMemberCount).toBe(0);
    expect((await store.planActiveMemberCounts(site.id, [1])).get(1)).toBe(0);
    await store.close();
  });

  test('each in-memory store is a new database of its own, whatever the one before it holds', async () => {
    // In-memory databases are copies of one migrated once per process (open-database.ts).
    const first = openSqliteStore(':memory:');
    const site = await first.createSite(newSite('first'));
    await addMembers(first, site.id, 2);
    await first.secret('cursor-key', () => 'first');
    const second = openSqliteStore(':memory:');
    expect(await second.listSites()).toEqual([]);
    expect(await second.secret('cursor-key', () => 'second')).toBe('second');
    expect((await second.createSite(newSite('second'))).id).toBe(site.id); // ids start afresh
    await expect(second.createPlan(newPlan(site.id + 100))).rejects.toThrow(/does not exist/);
    expect((await first.listSites()).map((s) => s.subdomain)).toEqual(['first']);
    await first.close();
    await second.close();
  });

  test('reopening a file database keeps its rows and its secrets', async () => {
    const file = newFile();
    const first = openSqliteStore(file);
    const site = await first.createSite(newSite('alpha'));
    const members = await addMembers(first, site.id, 3);
    const secret = await first.secret('cursor-key', () => 'original');
    await first.close();

    const second = openSqliteStore(file);
    expect(await second.getSite(site.id)).toEqual(site);
    expect((await second.listMembers(site.id, {}, { limit: 10 })).items.map((m) => m.id)).toEqual(members);
    expect(await second.secret('cursor-key', () => 'replacement')).toBe(secret);
    const [next] = await addMembers(second, site.id, 1, 'later');
    expect(next).toBeGreaterThan(members.at(-1)!);
    await second.close();
  });

  test('opening an up-to-date database applies no migration', async () => {
    const file = newFile();
    await openSqliteStore(file).close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(migrate(db)).toBe(0);
    db.close();
    const store = openSqliteStore(file); // would fail creating the tables again
    expect(await store.listSites()).toEqual([]);
    await store.close();
  });

  test('a new database gets every migration, and a file database runs in WAL mode', async () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
    const file = newFile();
    await openSqliteStore(file).close();
    const raw = new Database(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  test('a database at schema version 1 migrates to the newest (2 or later), keeping its rows', async () => {
    const file = newFile();
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare(`INSERT INTO sites (id, name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at)
      VALUES (1, 'Old', 'old', 'old.example.com', 'usd', 'en', 1, ?)`).run(T0);
    old.prepare(`INSERT INTO members (id, site_id, email, first_name, last_name, status, created_at)
      VALUES (1, 1, 'ann@example.com', 'Ann', NULL, 'approved', ?), (2, 1, 'bob@example.com', NULL, NULL, 'pending', ?)`)
      .run(T0, T0 + 1);
    old.close();

    const before = Date.now();
    const store = openSqliteStore(file);
    // Members from before migration 8 count as confirmed from the migration (decision 0024).
    const confirmed = (await store.getMember(1, 1))!.emailConfirmedAt!;
    expect(confirmed).toBeGreaterThanOrEqual(before - 1);
    expect(confirmed).toBeLessThanOrEqual(Date.now() + 1);
    expect((await store.listMembers(1, {}, { limit: 10 })).items).toStrictEqual([
      { id: 1, siteId: 1, email: 'ann@example.com', firstName: 'Ann', status: 'approved', createdAt: T0, emailConfirmedAt: confirmed },
      { id: 2, siteId: 1, email: 'bob@example.com', status: 'pending', createdAt: T0 + 1, emailConfirmedAt: confirmed },
    ]);
    expect(await store.getSite(1)).toMatchObject({ subdomain: 'old', adminApiEnabled: true });
    // Old members have no password, no sign-up values, no metadata, no sessions.
    expect(await store.findMemberLogin(1, 'ann@example.com')).toStrictEqual({ memberId: 1, status: 'approved', emailConfirmedAt: confirmed });
    expect(await store.listSignupValues(1, 1)).toEqual([]);
    expect(await store.getMemberMetadata(1, 1)).toStrictEqual({});
    expect(await store.listSignupFields(1)).toEqual([]);
    // And the new tables work with them.
    const [field] = await store.createSignupFields([{ siteId: 1, type: 'checkbox', label: 'Agree', required: true, position: 0 }]);
    const [cy] = await store.createMembers([
      { siteId: 1, email: 'cy@example.com', status: 'approved', createdAt: T0, passwordHash: 'h', signupValues: [{ fieldId: field!, value: true }] },
    ]);
    expect(cy).toBe(3);
    expect(await store.listSignupValues(1, 3)).toEqual([{ fieldId: field, value: true }]);
    expect(await store.updateMemberMetadata(1, 1, () => ({ migrated: true }))).toStrictEqual({ migrated: true });
    expect((await store.createSession({ siteId: 1, memberId: 2, tokenHash: 't', createdAt: T0, lastUsedAt: T0, expiresAt: T0 + 1 })).memberId).toBe(2);
    await store.close();

    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(migrate(db)).toBe(0);
    db.close();
  });

  test('a database at schema version 2 migrates to the newest (3 or later): old rows have no payment data, and take it', async () => {
    const file = newFile();
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.exec(MIGRATIONS[1]!);
    old.pragma('user_version = 2');
    old.prepare(`INSERT INTO sites (id, name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at)
      VALUES (1, 'Old', 'old', 'old.example.com', 'usd', 'en', 1, ?)`).run(T0);
    old.prepare(`INSERT INTO plans (id, site_id, public_id, name, status, is_public, color_code, created_at, type, terms)
      VALUES (1, 1, 'pln_old', 'Old', 'enabled', 1, '#000000', ?, 'multiPayment', ?)`).run(
      T0, JSON.stringify({ expiration: { mode: 'none' }, billing: { price: 10, currency: 'usd', interval: { count: 1, unit: 'month' }, paymentCountRequired: 3 } }));
    old.prepare(`INSERT INTO members (id, site_id, email, status, created_at, password_hash)
      VALUES (1, 1, 'ann@example.com', 'approved', ?, 'h'), (2, 1, 'bob@example.com', 'approved', ?, NULL)`).run(T0, T0);
    old.prepare(`INSERT INTO memberships (id, site_id, member_id, plan_id, type, status, created_at, billing_period_end, payment_failure)
      VALUES (1, 1, 1, 1, 'multiPayment', 'active', ?, ?, 0)`).run(T0, T0 + 100);
    old.close();

    const store = openSqliteStore(file);
    expect(await store.getMember(1, 1)).toStrictEqual({ id: 1, siteId: 1, email: 'ann@example.com', status: 'approved', createdAt: T0, emailConfirmedAt: expect.any(Number) });
    const [membership] = await store.listMembershipsOfMember(1, 1);
    expect(membership).toStrictEqual({
      id: 1, siteId: 1, memberId: 1, planId: 1, planPublicId: 'pln_old', type: 'multiPayment', status: 'active',
      createdAt: T0, billingPeriodEnd: T0 + 100, paymentFailure: false,
    });
    expect(await store.getPaymentMethod(1, 1)).toBeUndefined();
    expect(await store.listInvoicesOfMember(1, 1)).toEqual([]);
    // The old rows take the new data, and the new tables check references to them.
    expect(await store.updateMember(1, 1, { processorCustomerId: 'cus_1' })).toMatchObject({ processorCustomerId: 'cus_1' });
    const { billingPeriodEnd: _cleared, ...unscheduled } = membership!;
    expect(await store.updateMembership(1, 1, { paymentsMade: 2, billingPeriodEnd: null })).toStrictEqual({ ...unscheduled, paymentsMade: 2 });
    const card = await store.savePaymentMethod({
      siteId: 1, memberId: 1, processorId: 'pm_1', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030, createdAt: T0,
    });
    expect(await store.getPaymentMethod(1, 1)).toStrictEqual(card);
    const invoice = {
      siteId: 1, memberId: 1, planId: 1, membershipId: 1, processorInvoiceId: 'in_1', processorChargeId: 'ch_1',
      subTotalCents: 1000, taxCents: 0, totalCents: 1000, currency: 'usd', status: 'paid' as const, description: 'Old', createdAt: T0,
    };
    expect(await store.createInvoice(invoice)).toStrictEqual({ ...invoice, id: 1 });
    await expect(store.createInvoice({ ...invoice, memberId: 2, processorInvoiceId: 'in_2' })).rejects.toMatchObject({
      name: 'MissingReferenceError', field: 'membershipId',
    });
    await store.close();

    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  test('a database at schema version 4 migrates: its sessions, expired or not, are swept by the expiry index in batches', async () => {
    const file = newFile();
    const old = new Database(file);
    for (const step of MIGRATIONS.slice(0, 4)) old.exec(step);
    old.pragma('user_version = 4');
    old.prepare(`INSERT INTO sites (id, name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at)
      VALUES (1, 'Old', 'old', 'old.example.com', 'usd', 'en', 1, ?)`).run(T0);
    old.prepare(`INSERT INTO members (id, site_id, email, status, created_at) VALUES (1, 1, 'ann@example.com', 'approved', ?)`).run(T0);
    // Years of sign-ins, more than one batch of them expired, and one live session.
    const insert = old.prepare(`INSERT INTO sessions (site_id, member_id, token_hash, created_at, last_used_at, expires_at, revoked_at)
      VALUES (1, 1, ?, ?, ?, ?, ?)`);
    old.transaction(() => {
      for (let i = 0; i < 12_345; i++) insert.run(`old-${i}`, T0, T0, T0 + i, i % 3 === 0 ? T0 : null);
      insert.run('live', T0, T0, T0 + 1_000_000, null);
    })();
    old.close();

    const store = openSqliteStore(file);
    expect(await store.deleteExpiredSessions(T0 + 12_344)).toBe(12_345);
    expect(await store.findSessionByHash('old-0')).toBeUndefined();
    expect(await store.findSessionByHash('old-12344')).toBeUndefined();
    expect(await store.findSessionByHash('live')).toMatchObject({ memberId: 1, expiresAt: T0 + 1_000_000 });
    await store.close();

    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE expires_at <= ? LIMIT 10').all(T0) as { detail: string }[];
    expect(plan.map((step) => step.detail).join('\n')).toMatch(/USING COVERING INDEX sessions_expires_at/);
    db.close();
  });

  test('a database at schema version 5 migrates: old plans are keyed by their public id, fields and items `field-<id>` / `item-<id>`; nothing is archived, no membership keeps a billing, the revision is 0', async () => {
    const file = newFile();
    const old = new Database(file);
    for (const step of MIGRATIONS.slice(0, 5)) old.exec(step);
    old.pragma('user_version = 5');
    old.prepare(`INSERT INTO sites (id, name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at)
      VALUES (1, 'Old', 'old', 'old.example.com', 'usd', 'en', 1, ?)`).run(T0);
    const billing = { price: 10, currency: 'usd', interval: { count: 1, unit: 'month' } };
    old.prepare(`INSERT INTO plans (id, site_id, public_id, name, status, is_public, color_code, created_at, type, terms)
      VALUES (1, 1, 'pln_old', 'Old', 'enabled', 1, '#000000', ?, 'subscription', ?), (2, 1, 'pln_free', 'Free', 'enabled', 1, '#000000', ?, 'free', ?)`)
      .run(T0, JSON.stringify({ billing }), T0, JSON.stringify({ expiration: { mode: 'none' } }));
    old.prepare(`INSERT INTO signup_fields (id, site_id, type, label, required, options, position)
      VALUES (1, 1, 'text', 'Company', 0, NULL, 1), (7, 1, 'checkbox', 'Agree', 1, NULL, 2)`).run();
    old.prepare(`INSERT INTO content_spaces (id, site_id, name) VALUES (1, 1, 'Library')`).run();
    old.prepare(`INSERT INTO content_nodes (id, site_id, space_id, name, type) VALUES (1, 1, 1, 'Intro', 'article'), (3, 1, 1, 'Talk', 'video')`).run();
    old.prepare(`INSERT INTO members (id, site_id, email, status, created_at) VALUES (1, 1, 'ann@example.com', 'approved', ?)`).run(T0);
    old.prepare(`INSERT INTO memberships (id, site_id, member_id, plan_id, type, status, created_at, payment_failure)
      VALUES (1, 1, 1, 1, 'subscription', 'active', ?, 0)`).run(T0);
    old.close();

    const store = openSqliteStore(file);
    const def = (await store.getSiteDefinition(1))!;
    expect(def.revision).toBe(0);
    expect(def.site).toStrictEqual({
      id: 1, name: 'Old', subdomain: 'old', domain: 'old.example.com', defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true, createdAt: T0,
    });
    expect(def.plans.map((p) => [p.id, p.key, p.membershipCount, p.activeMemberCount])).toEqual([[1, 'pln_old', 1, 1], [2, 'pln_free', 0, 0]]);
    expect(await store.getPlan(1, 1)).toMatchObject({ key: 'pln_old', billing });
    expect(def.signupFields).toStrictEqual([
      { id: 1, siteId: 1, key: 'field-1', type: 'text', label: 'Company', required: false, position: 1 },
      { id: 7, siteId: 1, key: 'field-7', type: 'checkbox', label: 'Agree', required: true, position: 2 },
    ]);
    expect(await store.listSignupFields(1)).toStrictEqual(def.signupFields);
    expect(def.spaces).toStrictEqual([{ id: 1, siteId: 1, name: 'Library', planIds: [] }]);
    expect(def.items).toStrictEqual([
      { id: 1, siteId: 1, key: 'item-1', spaceId: 1, name: 'Intro', type: 'article' },
      { id: 3, siteId: 1, key: 'item-3', spaceId: 1, name: 'Talk', type: 'video' },
    ]);
    expect(await store.listContentNodes(1)).toStrictEqual(def.items);
    expect((await store.listMembershipsOfMember(1, 1))[0]).not.toHaveProperty('billing');

    // New rows take default keys after the old ones', and the old keys are taken.
    expect(await store.createSignupFields([{ siteId: 1, type: 'text', label: 'New', required: false, position: 3 }])).toEqual([8]);
    expect((await store.listSignupFields(1)).at(-1)?.key).toBe('field-8');
    const node = await store.createContentNode({ siteId: 1, spaceId: 1, name: 'New', type: 'link' });
    expect((await store.getContentItem(1, node))?.key).toBe(`item-${node}`);
    await expect(store.createPlan(newPlan(1, { key: 'pln_old' }))).rejects.toMatchObject({ name: 'ConflictError', field: 'key' });
    expect((await store.createPlan(newPlan(1, { publicId: 'pln_new' }))).key).toBe('pln_new');

    // The old membership keeps the old price when the plan's billing changes.
    const current = (await store.getPlan(1, 1))!;
    if (current.type !== 'subscription') throw new Error('plan 1 is the subscription plan');
    const { siteId: _siteId, key: _key, publicId: _publicId, colorCode: _colorCode, createdAt: _createdAt, ...fields } = current;
    // PlanChange's type leaves out the terms (see site-definition.ts), so the change is cast.
    const raise = { ...fields, billing: { ...current.billing, price: 12 } } as PlanChange;
    await store.applySiteChanges({
      site: { id: 1, revision: 0, patch: {} }, at: T0 + 1,
      createPlans: [], updatePlans: [raise],
      createSignupFields: [], updateSignupFields: [], createSpaces: [], updateSpaces: [], createItems: [], updateItems: [],
    });
    expect((await store.listMembershipsOfMember(1, 1))[0]?.billing).toStrictEqual(billing);
    expect((await store.getSiteDefinition(1))?.revision).toBe(1);
    await store.close();

    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  test('opening a database written by a newer version throws', async () => {
    const file = newFile();
    await openSqliteStore(file).close();
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openSqliteStore(file)).toThrow(/newer/);
  });

  test('openSqliteStore creates missing parent directories', async () => {
    const file = join(dir, 'nested', 'deeper', 'store.db');
    const store = openSqliteStore(file);
    await store.createSite(newSite('alpha', { createdAt: T0 }));
    await store.close();
    const again = openSqliteStore(file);
    expect(await again.listSites()).toHaveLength(1);
    await again.close();
  });
});
