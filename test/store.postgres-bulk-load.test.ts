/**
 * The PostgreSQL bulk load (./postgres/bulk-load): the member tables' foreign keys and non-unique
 * indexes are set aside for the load and made again before it commits. What must hold: they come
 * back exactly as they were, whatever way the load ends; a row that breaks a key fails the whole
 * load and leaves nothing; nobody outside sees the tables half-loaded; the load's writes at once
 * take turns on its one connection.
 */
import pg from 'pg';
import { afterEach, expect, test, vi } from 'vitest';
import { BulkLoadReferenceError } from '../src/service/store/postgres/bulk-load';
import type { Store } from '../src/service/store/store';
import { T0, addMembers, newMember, newPlan, newSite } from './store-contract/fixtures';
import { describePostgres, keysAndIndexes, newPostgresSchema } from './support/postgres';
import { openPostgresStore } from '../src/service/store/postgres';

describePostgres('postgres bulk load', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const schema = await newPostgresSchema();
    cleanups.push(schema.drop);
    const store = await openPostgresStore(schema.url);
    cleanups.push(() => store.close());
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    cleanups.push(() => client.end());
    const site = await store.createSite(newSite('alpha'));
    const plan = await store.createPlan(newPlan(site.id));
    return { store, client, site, plan };
  }

  const memberships = (siteId: number, planId: number, memberIds: readonly number[]) =>
    memberIds.map((memberId) => ({ siteId, memberId, planId, status: 'active' as const, createdAt: T0, paymentFailure: false }));

  test('the keys and indexes set aside come back as they were, after a load that commits and after one that throws', async () => {
    const { store, client, site, plan } = await setUp();
    const before = await keysAndIndexes(client);
    expect(before.keys.length).toBeGreaterThan(20);
    expect(before.indexes.length).toBeGreaterThan(50);

    await store.bulkLoad(async (load) => {
      const ids = await addMembers(load, site.id, 10);
      await load.createMemberships(memberships(site.id, plan.id, ids));
    });
    expect(await keysAndIndexes(client)).toEqual(before);

    await expect(store.bulkLoad(async (load) => {
      await addMembers(load, site.id, 5, 'x');
      throw new Error('the work failed');
    })).rejects.toThrow('the work failed');
    expect(await keysAndIndexes(client)).toEqual(before);
    expect((await client.query('SELECT count(*)::int AS n FROM members')).rows[0].n).toBe(10);
  });

  test('a row that breaks a foreign key fails the whole load at its end, naming the key, and leaves nothing of it', async () => {
    const { store, client, site, plan } = await setUp();
    const before = await keysAndIndexes(client);
    const error = await store.bulkLoad(async (load) => {
      const ids = await addMembers(load, site.id, 3);
      // Member 999999 does not exist: nothing checks it until the load ends.
      await load.createMemberships(memberships(site.id, plan.id, [...ids, 999_999]));
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BulkLoadReferenceError);
    expect((error as Error).message).toMatch(/memberships_member.*999999/);
    expect((await client.query('SELECT count(*)::int AS n FROM members')).rows[0].n).toBe(0);
    expect((await client.query('SELECT count(*)::int AS n FROM memberships')).rows[0].n).toBe(0);
    expect(await keysAndIndexes(client)).toEqual(before);
  });

  test('another connection reading the member tables waits for the load, then sees all of it', async () => {
    const { store, client, site } = await setUp();
    let outside: Promise<number> | undefined;
    let loaded = false;
    await store.bulkLoad(async (load) => {
      await addMembers(load, site.id, 50);
      outside = client.query('SELECT count(*)::int AS n FROM members').then((r) => {
        expect(loaded).toBe(true);
        return r.rows[0].n as number;
      });
      // Long enough for the read to have run, were it not waiting.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await addMembers(load, site.id, 50, 'y');
      loaded = true;
    });
    expect(await outside).toBe(100);
  });

  test('a write the work left under way when it returned is committed with the load; a call on its store after the load is refused', async () => {
    const { store, client, site } = await setUp();
    let kept: Store | undefined;
    await store.bulkLoad(async (load) => {
      kept = load;
      void addMembers(load, site.id, 30);
    });
    expect((await client.query('SELECT count(*)::int AS n FROM members')).rows[0].n).toBe(30);
    await expect(kept!.createMembers([newMember(site.id, 'late@example.com')])).rejects.toThrow(/has ended/);
    await expect(kept!.listMembers(site.id, {}, { limit: 1 })).rejects.toThrow(/has ended/);
    expect((await client.query('SELECT count(*)::int AS n FROM members')).rows[0].n).toBe(30);
  });

  test("the load's writes sent at once take turns on its connection: no client is sent a query while another runs on it", async () => {
    const { store, site, plan } = await setUp();
    // Queries under way per client, and the most any client had.
    const running = new WeakMap<object, number>();
    let most = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      running.set(this, (running.get(this) ?? 0) + 1);
      most = Math.max(most, running.get(this)!);
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      const done = () => running.set(this, running.get(this)! - 1);
      if (result instanceof Promise) result.then(done, done);
      else done();
      return result;
    } as typeof query);
    cleanups.push(async () => spy.mockRestore());
    await store.bulkLoad(async (load) => {
      const ids = await addMembers(load, site.id, 40);
      await Promise.all([
        load.createMemberships(memberships(site.id, plan.id, ids.slice(0, 20))),
        load.createMemberships(memberships(site.id, plan.id, ids.slice(20))),
        load.createMemberEvents(ids.map((memberId) => ({ siteId: site.id, memberId, eventType: 'login' as const, details: {}, createdAt: T0 }))),
        load.getMember(site.id, ids[0]!),
        load.listMembers(site.id, {}, { limit: 5 }),
      ]);
    });
    expect(spy).toHaveBeenCalled();
    expect(most).toBe(1);
    expect((await store.listMemberships(site.id, {}, { limit: 100 })).items).toHaveLength(40);
  });
});
