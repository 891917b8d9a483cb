/**
 * A key of one site never sees another site's data, by any path, filter or cursor. The fixture's
 * `other` site shares e-mails, names and timestamps with `demo`, and their ids interleave.
 */
import { expect, test } from 'vitest';
import { MEMBERSHIP_STATUSES, PLAN_TYPES } from '../../src/contract/admin';
import { forEachStore, readSiteData, useAdminFixture, type AdminFixture, type SiteData } from '../support/admin-fixture';
import { activeMembers, call, cursorOf, expectError, expectListed, ids, inRange, iso, LIST_ENDPOINTS, walkPages } from './helpers';

interface Side {
  name: string;
  key: (fx: AdminFixture) => string;
  site: (fx: AdminFixture) => number;
}

const DEMO: Side = { name: 'demo', key: (fx) => fx.keys.demo.all, site: (fx) => fx.demo.id };
const OTHER: Side = { name: 'other', key: (fx) => fx.keys.other.all, site: (fx) => fx.other.id };
const EMPTY: Side = { name: 'empty', key: (fx) => fx.keys.empty.all, site: (fx) => fx.empty.id };

/** Each reader against each site whose data it must not see. */
const PAIRS: Array<{ reader: Side; foreign: Side }> = [
  { reader: DEMO, foreign: OTHER },
  { reader: OTHER, foreign: DEMO },
  { reader: EMPTY, foreign: DEMO },
  { reader: EMPTY, foreign: OTHER },
];

const setOf = (rows: ReadonlyArray<{ id: number }>) => new Set(ids(rows));

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const both = async (fx: AdminFixture, reader: Side, foreign: Side): Promise<[SiteData, SiteData]> => [
    await readSiteData(fx.store, reader.site(fx)),
    await readSiteData(fx.store, foreign.site(fx)),
  ];

  test('the fixture\'s sites share e-mails, names and timestamps and their ids interleave', async () => {
    const fx = fixture();
    const [demo, other] = await both(fx, DEMO, OTHER);
    expect(other.members.some((o) => demo.members.some((d) => d.email === o.email))).toBe(true);
    expect(other.members.some((o) => demo.members.some((d) => d.createdAt === o.createdAt))).toBe(true);
    expect(other.memberships.some((o) => demo.memberships.some((d) => d.createdAt === o.createdAt))).toBe(true);
    expect(other.events.some((o) => demo.events.some((d) => d.createdAt === o.createdAt))).toBe(true);
    expect(other.views.some((o) => demo.views.some((d) => d.viewedAt === o.viewedAt))).toBe(true);
    expect(Math.max(...ids(demo.members))).toBeGreaterThan(Math.max(...ids(other.members)));
    expect(Math.min(...ids(demo.members))).toBeLessThan(Math.min(...ids(other.members)));
    expect(Math.max(...ids(demo.plans))).toBeGreaterThan(Math.max(...ids(other.plans)));
  });

  test.each(PAIRS)('walking every list endpoint with the $reader.name key shows only its own rows, none of $foreign.name\'s', async ({ reader, foreign }) => {
    const fx = fixture();
    const [own, theirs] = await both(fx, reader, foreign);
    for (const endpoint of LIST_ENDPOINTS) {
      const foreignIds = setOf(endpoint.rows(theirs));
      const walk = await walkPages<any>(fx.app, endpoint.path, { key: reader.key(fx), pageSize: 100 });
      expect(ids(walk.items)).toEqual(ids(endpoint.rows(own)));
      expect(walk.items.filter((item) => foreignIds.has(item.id))).toEqual([]);
      const foreignMembers = setOf(theirs.members);
      const foreignPlans = setOf(theirs.plans);
      const foreignNodes = setOf(theirs.nodes);
      for (const item of walk.items) {
        if ('memberId' in item) expect(foreignMembers.has(item.memberId)).toBe(false);
        if ('planId' in item) expect(foreignPlans.has(item.planId)).toBe(false);
        if ('node' in item) expect(foreignNodes.has(item.node.id)).toBe(false);
      }
    }
  });

  test.each(PAIRS)('/sites, /plans filters and X-Total-Count with the $reader.name key count only its own site, not $foreign.name', async ({ reader, foreign }) => {
    const fx = fixture();
    const [own] = await both(fx, reader, foreign);
    const sites = await call(fx.app, '/sites', { key: reader.key(fx) });
    expect(sites.body.map((s: { id: number }) => s.id)).toEqual([reader.site(fx)]);
    expect(sites.headers.get('x-total-count')).toBe('1');
    const live = own.plans.filter((p) => p.status === 'enabled' || p.status === 'disabled');
    for (const type of PLAN_TYPES) {
      const res = await call(fx.app, '/plans', { key: reader.key(fx), query: { type } });
      expect(ids(res.body)).toEqual(ids(live.filter((p) => p.type === type)));
      expect(res.headers.get('x-total-count')).toBe(String(live.filter((p) => p.type === type).length));
    }
    for (const status of ['enabled', 'disabled', 'deleted']) {
      const res = await call(fx.app, '/plans', { key: reader.key(fx), query: { status } });
      expect(ids(res.body)).toEqual(ids(own.plans.filter((p) => p.status === status)));
      expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
    }
  });

  test.each(PAIRS)('filtering with the $reader.name key by a member, plan or content item of $foreign.name answers an empty array', async ({ reader, foreign }) => {
    const fx = fixture();
    const [, theirs] = await both(fx, reader, foreign);
    const key = reader.key(fx);
    for (const member of theirs.members.filter((_, i) => i % 4 === 0)) {
      for (const path of ['/memberships', '/memberEvents', '/contentLibrary/views']) {
        await expectListed(fx.app, path, key, { memberId: member.id }, []);
      }
    }
    for (const plan of theirs.plans) {
      await expectListed(fx.app, '/memberships', key, { planId: plan.id }, []);
      for (const status of MEMBERSHIP_STATUSES) await expectListed(fx.app, '/memberships', key, { planId: plan.id, status }, []);
    }
    for (const node of theirs.nodes) await expectListed(fx.app, '/contentLibrary/views', key, { nodeId: node.id }, []);
  });

  test.each(PAIRS)('member filters with the $reader.name key match only its own members, even on values $foreign.name shares', async ({ reader, foreign }) => {
    const fx = fixture();
    const [own, theirs] = await both(fx, reader, foreign);
    const key = reader.key(fx);
    for (const member of theirs.members.slice(0, 12)) {
      await expectListed(fx.app, '/members', key, { email: member.email }, own.members.filter((m) => m.email === member.email));
      if (member.firstName !== undefined) {
        await expectListed(fx.app, '/members', key, { firstName: member.firstName }, own.members.filter((m) => m.firstName === member.firstName));
        await expectListed(
          fx.app, '/members', key, { firstName: member.firstName, lastName: member.lastName! },
          own.members.filter((m) => m.firstName === member.firstName && m.lastName === member.lastName),
        );
      }
      await expectListed(fx.app, '/members', key, { status: member.status }, own.members.filter((m) => m.status === member.status));
    }
  });

  test.each(PAIRS)('date filters with the $reader.name key at the exact instants of $foreign.name\'s rows match only its own rows', async ({ reader, foreign }) => {
    const fx = fixture();
    const [own, theirs] = await both(fx, reader, foreign);
    const key = reader.key(fx);
    const window = (after: string, before: string, t: number) => ({ [after]: iso(t), [before]: iso(t + 1) });
    for (const m of theirs.members.slice(0, 6)) {
      await expectListed(fx.app, '/members', key, window('createdAfter', 'createdBefore', m.createdAt), own.members.filter((x) => x.createdAt === m.createdAt));
    }
    for (const m of theirs.memberships.slice(0, 6)) {
      await expectListed(fx.app, '/memberships', key, window('createdAfter', 'createdBefore', m.createdAt), own.memberships.filter((x) => x.createdAt === m.createdAt));
      if (m.expiresAt !== undefined) {
        await expectListed(fx.app, '/memberships', key, window('expiresAfter', 'expiresBefore', m.expiresAt), own.memberships.filter((x) => x.expiresAt === m.expiresAt));
      }
      if (m.billingPeriodEnd !== undefined) {
        await expectListed(
          fx.app, '/memberships', key, window('billingPeriodEndAfter', 'billingPeriodEndBefore', m.billingPeriodEnd),
          own.memberships.filter((x) => x.billingPeriodEnd === m.billingPeriodEnd),
        );
      }
    }
    for (const e of theirs.events.slice(0, 6)) {
      await expectListed(fx.app, '/memberEvents', key, window('createdAfter', 'createdBefore', e.createdAt), own.events.filter((x) => x.createdAt === e.createdAt));
    }
    for (const v of theirs.views.slice(0, 6)) {
      await expectListed(fx.app, '/contentLibrary/views', key, window('viewedAfter', 'viewedBefore', v.viewedAt), own.views.filter((x) => inRange(x.viewedAt, v.viewedAt, v.viewedAt + 1)));
    }
  });

  test.each(PAIRS)('GET /plans/{id} with the $reader.name key answers 404 for every plan of $foreign.name', async ({ reader, foreign }) => {
    const fx = fixture();
    const [, theirs] = await both(fx, reader, foreign);
    for (const plan of theirs.plans) expectError(await call(fx.app, `/plans/${plan.id}`, { key: reader.key(fx) }), 404, 'notFound');
  });

  test.each(PAIRS)('a cursor issued to $foreign.name\'s key is refused for $reader.name\'s key with 400 invalidCursor', async ({ reader, foreign }) => {
    const fx = fixture();
    for (const endpoint of LIST_ENDPOINTS) {
      const cursor = await cursorOf(fx.app, endpoint.path, foreign.key(fx));
      const res = await call(fx.app, endpoint.path, { key: reader.key(fx), headers: { 'x-cursor': cursor } });
      expectError(res, 400, 'invalidCursor');
    }
  });

  test('a cursor issued for a filtered query of one site is refused for the same query by another site', async () => {
    const fx = fixture();
    const first = await call(fx.app, '/memberships', { key: fx.keys.other.all, query: { status: 'active' }, headers: { 'x-items-after': '2' } });
    const cursor = first.headers.get('x-next-cursor')!;
    expectError(
      await call(fx.app, '/memberships', { key: fx.keys.demo.all, query: { status: 'active' }, headers: { 'x-cursor': cursor } }),
      400,
      'invalidCursor',
    );
  });

  test('plan activeMemberCount and site metrics count only the site\'s own memberships', async () => {
    const fx = fixture();
    const [demo, other] = await both(fx, DEMO, OTHER);
    const { body } = await call(fx.app, '/plans', { key: fx.keys.other.all });
    for (const plan of body) {
      expect(plan.activeMemberCount).toBe(activeMembers(other.memberships, (m) => m.planId === plan.id));
    }
    const [site] = (await call(fx.app, '/sites', { key: fx.keys.other.all })).body;
    expect(site.metrics.activeMemberCount).toBe(activeMembers(other.memberships));
    expect(site.metrics.activeMemberCount).not.toBe(activeMembers(demo.memberships));
  });
});
