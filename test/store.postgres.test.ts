/**
 * The PostgreSQL store: the shared contract, and what only a server with many connections (and
 * many processes) has to get right: migrations run once, by one opener, and never on a newer
 * schema; transactions that run at once lose nothing; the batch path writes and refuses as the
 * one-row path does.
 */
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { ConflictError, MissingReferenceError, SchemaVersionError } from '../src/service/store/errors';
import { openPostgresStore, openPostgresStoreOver } from '../src/service/store/postgres';
import { ROWS_PER_STATEMENT, connectPostgres } from '../src/service/store/postgres/connection';
import { shareDefinitionListener } from '../src/service/store/postgres/definition-listener';
import { MIGRATIONS, migratePostgres } from '../src/service/store/postgres/migrations';
import type { NewMembership } from '../src/service/store/records';
import type { SiteChangeSet } from '../src/service/store/site-definition';
import type { Store } from '../src/service/store/store';
import { runStoreContract } from './store-contract';
import { T0, addMembers, expectRejects, newMember, newPlan, newSite } from './store-contract/fixtures';
import { describePostgres, newPostgresSchema, newPostgresStore } from './support/postgres';

describePostgres('postgres store', () => {
  runStoreContract('contract', () => newPostgresStore());

  /** What a test opened, closed (and its schema dropped) after it. */
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function schema() {
    const created = await newPostgresSchema();
    cleanups.push(created.drop);
    return created.url;
  }
  async function client(url: string) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    cleanups.push(() => c.end());
    return c;
  }
  async function open(url: string, options: { max?: number } = {}) {
    const store = await openPostgresStore(url, options);
    cleanups.push(() => store.close());
    return store;
  }
  async function fresh(options: { max?: number } = {}): Promise<Store> {
    const store = await newPostgresStore(options);
    cleanups.push(() => store.close());
    return store;
  }
  const version = async (c: pg.Client) => (await c.query('SELECT version FROM schema_version')).rows.map((r) => r.version as number);

  test('a new database gets every migration; opening it again runs none, and keeps its rows and secrets', async () => {
    const url = await schema();
    const first = await openPostgresStore(url);
    const site = await first.createSite(newSite('alpha'));
    const secret = await first.secret('cursor-key', () => 'original');
    await first.close();

    const c = await client(url);
    expect(await version(c)).toEqual([MIGRATIONS.length]);
    expect(await migratePostgres(c)).toBe(0);
    const second = await open(url);
    expect(await second.getSite(site.id)).toEqual(site);
    expect(await second.secret('cursor-key', () => 'replacement')).toBe(secret);
    expect(await version(c)).toEqual([MIGRATIONS.length]);
  });

  test('a database with a newer schema version is refused with SchemaVersionError and left untouched', async () => {
    const url = await schema();
    const store = await openPostgresStore(url);
    await store.createSite(newSite('alpha'));
    await store.close();
    const c = await client(url);
    await c.query('UPDATE schema_version SET version = $1', [MIGRATIONS.length + 1]);

    await expect(openPostgresStore(url)).rejects.toBeInstanceOf(SchemaVersionError);
    await expect(openPostgresStore(url)).rejects.toThrow(/newer/);
    expect(await version(c)).toEqual([MIGRATIONS.length + 1]);
    expect((await c.query('SELECT subdomain FROM sites')).rows).toEqual([{ subdomain: 'alpha' }]);
  });

  test('openers starting at once migrate once between them, and each can use the store', async () => {
    const url = await schema();
    const clients = await Promise.all(Array.from({ length: 4 }, () => client(url)));
    const steps = await Promise.all(clients.map((c) => migratePostgres(c)));
    expect(steps.reduce((a, b) => a + b, 0)).toBe(MIGRATIONS.length);
    expect(await version(clients[0]!)).toEqual([MIGRATIONS.length]);

    const again = await schema();
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(again, { max: 2 })));
    await stores[0]!.createSite(newSite('alpha'));
    for (const store of stores) expect((await store.listSites()).map((s) => s.subdomain)).toEqual(['alpha']);
  });

  test('20 concurrent metadata updates of one member, each adding a key, all survive', async () => {
    const store = await fresh({ max: 10 });
    const site = await store.createSite(newSite('alpha'));
    const [member] = await addMembers(store, site.id, 1);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.updateMemberMetadata(site.id, member!, (current) => ({ ...current, [`k${i}`]: i }))),
    );
    const metadata = (await store.getMemberMetadata(site.id, member!))!;
    expect(Object.keys(metadata)).toHaveLength(20);
    for (let i = 0; i < 20; i++) expect(metadata[`k${i}`]).toBe(i);
  });

  test('site changes computed from the same revision at once: exactly one applies, the others are refused on revision', async () => {
    const store = await fresh({ max: 10 });
    const site = await store.createSite(newSite('alpha'));
    const { revision } = (await store.getSiteDefinition(site.id))!;
    const change = (i: number): SiteChangeSet => ({
      site: { id: site.id, revision, patch: { name: `Name ${i}` } },
      at: T0,
      createPlans: [{ ...newPlan(site.id, { key: `plan-${i}`, publicId: `pln_race_${i}` }), key: `plan-${i}` }],
      updatePlans: [], createSignupFields: [], updateSignupFields: [], createSpaces: [], updateSpaces: [], createItems: [], updateItems: [],
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.applySiteChanges(change(i))));
    const applied = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    expect(applied).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toMatchObject({ name: 'ConflictError', field: 'revision' });
    }
    const after = (await store.getSiteDefinition(site.id))!;
    expect(after.revision).toBe(revision + 1);
    expect(after.site.name).toBe(`Name ${applied[0]}`);
    expect(after.plans.map((p) => p.key)).toEqual([`plan-${applied[0]}`]);
  });

  test('a batch of more rows than one COPY statement takes keeps input order and copies each plan\'s type; a bad last row writes none', async () => {
    const store = await fresh();
    const site = await store.createSite(newSite('alpha'));
    const free = await store.createPlan(newPlan(site.id));
    const paid = await store.createPlan(newPlan(site.id, {}, { type: 'subscription', billing: { price: 5, currency: 'usd', interval: { count: 1, unit: 'month' } } }));
    const members = await addMembers(store, site.id, 3);
    const count = ROWS_PER_STATEMENT * 2 + 7;
    const rows: NewMembership[] = Array.from({ length: count }, (_, i) => ({
      siteId: site.id, memberId: members[i % 3]!, planId: i % 2 === 0 ? free.id : paid.id, status: 'active', createdAt: T0 + i,
      paymentFailure: false,
    }));

    const bad = [...rows, { ...rows[0]!, planId: paid.id + 1000 }];
    await expectRejects(store.createMemberships(bad), MissingReferenceError, 'planId');
    await expectRejects(store.createMemberships([...rows, { ...rows[0]!, memberId: -1 }]), MissingReferenceError, 'memberId');
    expect((await store.listMemberships(site.id, {}, { limit: 1 })).items).toEqual([]);

    const ids = await store.createMemberships(rows);
    expect(ids).toHaveLength(count);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    const page = await store.listMemberships(site.id, {}, { afterId: ids[ROWS_PER_STATEMENT - 2]! - 1, limit: 3 });
    expect(page.items.map((m) => [m.id, m.createdAt, m.type])).toEqual([
      [ids[ROWS_PER_STATEMENT - 2], T0 + ROWS_PER_STATEMENT - 2, 'free'],
      [ids[ROWS_PER_STATEMENT - 1], T0 + ROWS_PER_STATEMENT - 1, 'subscription'],
      [ids[ROWS_PER_STATEMENT], T0 + ROWS_PER_STATEMENT, 'free'],
    ]);
    expect(await store.siteMetrics(site.id)).toEqual({ activeMemberCount: 3, freeMemberCount: 3, paidMemberCount: 3 });
    expect(await store.planActiveMemberCounts(site.id, [free.id, paid.id, paid.id + 1])).toEqual(
      new Map([[free.id, 3], [paid.id, 3], [paid.id + 1, 0]]),
    );
  });

  test('COPY on the pool (not in a transaction of the caller\'s) writes its rows; a broken rule writes none of them', async () => {
    const conn = await connectPostgres(await schema());
    cleanups.push(() => conn.close());
    await conn.copy('secrets (name, value)', [['one', 'a\tb'], ['two', '']]);
    expect(await conn.all('SELECT name, value FROM secrets ORDER BY name')).toEqual([{ name: 'one', value: 'a\tb' }, { name: 'two', value: '' }]);
    await expect(conn.copy('secrets (name, value)', [['three', 'c'], ['one', 'again']])).rejects.toMatchObject({ code: '23505' });
    expect((await conn.all('SELECT name FROM secrets ORDER BY name')).map((r) => r.name)).toEqual(['one', 'two']);
  });

  test("a batch's text goes through COPY as written: tabs, newlines, carriage returns, backslashes, a literal \\N, empty and absent values", async () => {
    const store = await fresh();
    const site = await store.createSite(newSite('alpha'));
    const awkward = ['tab\there', 'line\nbreak', 'cr\rlf\r\n', 'back\\slash \\N \\t', '\\N', '', ' ', 'naïve ✓ 𝄞', '"quoted", {braced}'];
    const rows = awkward.map((text, i) => newMember(site.id, `m${i}@example.com`, { firstName: text, lastName: i % 2 === 0 ? text : undefined }));
    const ids = await store.createMembers(rows);
    for (const [i, id] of ids.entries()) {
      const member = (await store.getMember(site.id, id))!;
      expect(member.firstName, JSON.stringify(awkward[i])).toBe(awkward[i]);
      expect(member.lastName, JSON.stringify(awkward[i])).toBe(i % 2 === 0 ? awkward[i] : undefined);
    }
    const events = awkward.map((text, i) => ({ siteId: site.id, memberId: ids[i]!, eventType: 'login' as const, details: { text }, createdAt: T0 }));
    await store.createMemberEvents(events);
    const read = await store.listMemberEvents(site.id, {}, { limit: 20 });
    expect(read.items.map((e) => e.details)).toEqual(awkward.map((text) => ({ text })));
  });

  test('member events and content views in big batches: ids in input order; a bad row is named as the one-row method names it', async () => {
    const store = await fresh();
    const site = await store.createSite(newSite('alpha'));
    const other = await store.createSite(newSite('beta'));
    const [ann] = await addMembers(store, site.id, 1);
    const [stranger] = await addMembers(store, other.id, 1);
    const space = await store.createContentSpace({ siteId: site.id, name: 'Library' });
    const node = await store.createContentNode({ siteId: site.id, spaceId: space, name: 'Intro', type: 'article' });
    const count = ROWS_PER_STATEMENT + 1;
    const events = Array.from({ length: count }, (_, i) => ({
      siteId: site.id, memberId: ann!, eventType: 'login' as const, details: { n: i, text: 'a "quoted", {braced} \\ value' }, createdAt: T0 + i,
    }));
    await expectRejects(store.createMemberEvents([...events, { ...events[0]!, memberId: stranger! }]), MissingReferenceError, 'memberId');
    const eventIds = await store.createMemberEvents(events);
    const last = await store.listMemberEvents(site.id, {}, { afterId: eventIds[count - 2], limit: 5 });
    expect(last.items).toEqual([{ ...events[count - 1], id: eventIds[count - 1] }]);

    const views = Array.from({ length: count }, (_, i) => ({ siteId: site.id, memberId: ann!, nodeId: node, viewedAt: T0 + i }));
    await expectRejects(store.createContentViews([...views, { ...views[0]!, nodeId: node + 1 }]), MissingReferenceError, 'nodeId');
    const viewIds = await store.createContentViews(views);
    expect(viewIds.every((id, i) => i === 0 || id > viewIds[i - 1]!)).toBe(true);
    expect((await store.listContentViews(site.id, {}, { afterId: viewIds[count - 2], limit: 5 })).items.map((v) => v.viewedAt)).toEqual([
      T0 + count - 1,
    ]);
  });

  test('a unique value taken between two sites at once: one wins, the other gets ConflictError', async () => {
    const store = await fresh({ max: 4 });
    const outcomes = await Promise.allSettled([store.createSite(newSite('same')), store.createSite(newSite('same'))]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [refused] = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ field: 'subdomain' });
  });
  /** Polls `check` until it passes or `ms` run out (another process's change is told by NOTIFY, a moment after its commit). */
  async function eventually(check: () => Promise<void>, ms = 5000) {
    const until = Date.now() + ms;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > until) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  test('what one process keeps of a site\'s definition follows another process\'s writes (a key revoked by svc keys, say)', async () => {
    const url = await schema();
    const server = await open(url);
    const tool = await open(url);
    const site = await tool.createSite(newSite('kept'));
    const hash = 'c'.repeat(64);
    await tool.createApiKey({ siteId: site.id, hash, scopes: ['read.members'], createdAt: T0 });
    await eventually(async () => expect((await server.findApiKeyByHash(hash))?.revokedAt).toBeUndefined());
    expect((await server.getSiteBySubdomain('kept'))?.name).toBe(site.name);

    await tool.revokeApiKey(hash, T0 + 1);
    await tool.updateSite(site.id, { name: 'Renamed elsewhere' });
    await eventually(async () => {
      expect((await server.findApiKeyByHash(hash))?.revokedAt).toBe(T0 + 1);
      expect((await server.getSiteBySubdomain('kept'))?.name).toBe('Renamed elsewhere');
    });

    // A write made with plain SQL (an operator's psql session) is told too.
    const c = await client(url);
    await c.query("UPDATE sites SET name = 'By hand' WHERE id = $1", [site.id]);
    await eventually(async () => expect((await server.getSite(site.id))?.name).toBe('By hand'));
  });

  test('while the definition listener\'s connection is down nothing is kept, and it comes back by itself', async () => {
    const url = await schema();
    const server = await open(url);
    const c = await client(url);
    const site = await server.createSite(newSite('listener'));
    expect((await server.getSite(site.id))?.name).toBe(site.name);
    const ended = await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE application_name = 'svc definition listener' AND datname = current_database() AND query LIKE 'LISTEN%'`);
    expect(ended.rowCount).toBeGreaterThan(0);
    // Changed at once after the listener is cut: a kept answer would be stale.
    await c.query("UPDATE sites SET name = 'While deaf' WHERE id = $1", [site.id]);
    await eventually(async () => expect((await server.getSite(site.id))?.name).toBe('While deaf'));
    // Listening again (a reconnect within a second or so), a change is told once more.
    await eventually(async () => {
      const { rows } = await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'svc definition listener' AND query LIKE 'LISTEN%'`);
      expect(rows[0].n).toBeGreaterThan(0);
    });
    await c.query("UPDATE sites SET name = 'Heard again' WHERE id = $1", [site.id]);
    await eventually(async () => expect((await server.getSite(site.id))?.name).toBe('Heard again'));
  });

  test('stores over one shared definition listener: each is told of a change made elsewhere; a closed one leaves the listener to the next', async () => {
    const url = await schema();
    const pool = await connectPostgres(url);
    cleanups.push(() => pool.close());
    const listener = await shareDefinitionListener(url);
    cleanups.push(() => listener.close());
    const first = await openPostgresStoreOver(pool, listener);
    const second = await openPostgresStoreOver(pool, listener);
    const c = await client(url);
    const site = await first.createSite(newSite('shared'));
    // Both keep the site, then both are told it changed.
    expect((await first.getSite(site.id))?.name).toBe(site.name);
    expect((await second.getSite(site.id))?.name).toBe(site.name);
    await c.query("UPDATE sites SET name = 'Told to both' WHERE id = $1", [site.id]);
    await eventually(async () => {
      expect((await first.getSite(site.id))?.name).toBe('Told to both');
      expect((await second.getSite(site.id))?.name).toBe('Told to both');
    });
    // Closing a store closes neither the pool nor the listener: the next store on them is told too.
    await first.close();
    const third = await openPostgresStoreOver(pool, listener);
    expect((await third.getSite(site.id))?.name).toBe('Told to both');
    // Still listening, so it keeps what it read: a change made with the triggers off is not told.
    await c.query('SET session_replication_role = replica');
    await c.query("UPDATE sites SET name = 'Never told' WHERE id = $1", [site.id]);
    await c.query('SET session_replication_role = DEFAULT');
    expect((await third.getSite(site.id))?.name).toBe('Told to both');
    await c.query("UPDATE sites SET name = 'Told after a close' WHERE id = $1", [site.id]);
    await eventually(async () => {
      expect((await second.getSite(site.id))?.name).toBe('Told after a close');
      expect((await third.getSite(site.id))?.name).toBe('Told after a close');
    });
    await Promise.all([second.close(), third.close()]);
  });
});
