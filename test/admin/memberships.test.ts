/**
 * GET /memberships (spec 2.3): every membership of the site, filtered by plan, member, status and
 * three date-time ranges: creation, billing period end and expiry.
 */
import { expect, test } from 'vitest';
import { MEMBERSHIP_STATUSES, PLAN_TYPES } from '../../src/contract/admin';
import type { MembershipRecord } from '../../src/service/store/records';
import { DAY, forEachStore, useAdminFixture, type AdminFixture } from '../support/admin-fixture';
import {
  call,
  demoData,
  expectedMembership,
  expectEqualsFilter,
  expectInvalidParameters,
  expectListed,
  expectListsStoredRows,
  expectRangeWindows,
  expectShape,
  ids,
  inRange,
  iso,
  MEMBERSHIP_SHAPE,
  testMalformedDateTimes,
  testRangeBoundaries,
  walkPages,
  type DateRange,
} from './helpers';

const PATH = '/memberships';

const RANGES: Array<DateRange<MembershipRecord>> = [
  { names: ['createdAfter', 'createdBefore'], valueOf: (m) => m.createdAt, subject: 'a membership\'s creation' },
  { names: ['billingPeriodEndAfter', 'billingPeriodEndBefore'], valueOf: (m) => m.billingPeriodEnd, subject: 'a billing period\'s end' },
  { names: ['expiresAfter', 'expiresBefore'], valueOf: (m) => m.expiresAt, subject: 'a membership\'s expiry' },
];

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const memberships = (fx: AdminFixture, query: Record<string, string>) => call(fx.app, PATH, { key: fx.keys.demo.all, query });

  test('the demo memberships cover every status and type, with and without expiry, billing and cancellation', async () => {
    const { memberships: rows } = await demoData(fixture());
    expect(new Set(rows.map((m) => m.status))).toEqual(new Set(MEMBERSHIP_STATUSES));
    expect(new Set(rows.map((m) => m.type))).toEqual(new Set(PLAN_TYPES));
    for (const field of ['expiresAt', 'billingPeriodEnd', 'cancelsAt'] as const) {
      expect(rows.some((m) => m[field] !== undefined), field).toBe(true);
      expect(rows.some((m) => m[field] === undefined), field).toBe(true);
    }
  });

  test('GET /memberships lists every membership of the site with the fields of 2.3, in id order', async () => {
    await expectListsStoredRows(fixture(), PATH, {
      sites: ['demo', 'other'],
      shape: MEMBERSHIP_SHAPE,
      label: 'membership',
      expected: (data) => data.memberships.map((m) => expectedMembership(m, data)),
      check: (m) => {
        if (m.billing) expectShape(m.billing, { billingPeriodEnd: 'date-time' }, `membership ${m.id}.billing`);
        expect(MEMBERSHIP_STATUSES).toContain(m.status);
        expect(PLAN_TYPES).toContain(m.type);
      },
    });
  });

  test('a membership names its plan\'s public id and type', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const { items } = await walkPages<any>(fx.app, PATH, { key: fx.keys.demo.all, pageSize: 100 });
    for (const m of items) {
      const plan = data.plans.find((p) => p.id === m.planId)!;
      expect(m.planPublicId).toBe(plan.publicId);
      expect(m.type).toBe(plan.type);
    }
  });

  test('expiresOn, cancelsOn and billing appear only on memberships that have them', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const { items } = await walkPages<any>(fx.app, PATH, { key: fx.keys.demo.all, pageSize: 100 });
    for (const m of items) {
      const record = data.memberships.find((r) => r.id === m.id)!;
      expect('expiresOn' in m).toBe(record.expiresAt !== undefined);
      expect('cancelsOn' in m).toBe(record.cancelsAt !== undefined);
      expect('billing' in m).toBe(record.billingPeriodEnd !== undefined);
    }
  });

  test('planId filters by plan, for every plan of the site including archived and deleted ones', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    await expectEqualsFilter(fx.app, PATH, fx.keys.demo.all, 'planId', ids(data.plans), data.memberships, (m) => m.planId);
    const archived = data.plans.find((p) => p.status === 'archived')!;
    expect(data.memberships.some((m) => m.planId === archived.id)).toBe(true);
  });

  test('memberId filters by member', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const sample = data.members.filter((_, i) => i % 9 === 0);
    const withTwo = data.members.find((mem) => data.memberships.filter((m) => m.memberId === mem.id).length >= 2)!;
    expect(withTwo).toBeDefined();
    await expectEqualsFilter(fx.app, PATH, fx.keys.demo.all, 'memberId', ids([...sample, withTwo]), data.memberships, (m) => m.memberId);
  });

  test('a planId or memberId that does not exist matches nothing', async () => {
    const fx = fixture();
    const queries: Array<Record<string, string>> = [{ planId: '999999' }, { memberId: '999999' }, { planId: '999999999999999' }];
    for (const query of queries) {
      await expectListed(fx.app, PATH, fx.keys.demo.all, query, []);
    }
  });

  test.each(MEMBERSHIP_STATUSES)('GET /memberships?status=%s lists exactly the memberships in that status', async (status) => {
    const fx = fixture();
    const data = await demoData(fx);
    await expectListed(fx.app, PATH, fx.keys.demo.all, { status }, data.memberships.filter((m) => m.status === status));
  });

  for (const range of RANGES) testRangeBoundaries(fixture, PATH, (data) => data.memberships, range);

  test.each(RANGES)('$names.0 / $names.1 over wide windows match the memberships inside, never those without the value', async ({ names, valueOf }) => {
    const fx = fixture();
    const data = await demoData(fx);
    const now = fx.clock();
    const windows = [[now - 3650 * DAY, now + 3650 * DAY], [now - 90 * DAY, now], [now, now + 90 * DAY]] as const;
    await expectRangeWindows(fx.app, PATH, fx.keys.demo.all, names, data.memberships, valueOf, windows);
  });

  test('every membership filter combines with the others', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const now = fx.clock();
    for (const plan of data.plans) {
      for (const status of MEMBERSHIP_STATUSES) {
        const query = {
          planId: String(plan.id),
          status,
          createdAfter: iso(now - 500 * DAY),
          createdBefore: iso(now),
          billingPeriodEndAfter: iso(now - 3650 * DAY),
        };
        const expected = data.memberships.filter(
          (m) =>
            m.planId === plan.id && m.status === status && inRange(m.createdAt, now - 500 * DAY, now) &&
            inRange(m.billingPeriodEnd, now - 3650 * DAY),
        );
        await expectListed(fx.app, PATH, fx.keys.demo.all, query, expected);
      }
    }
    const m = data.memberships.find((x) => x.expiresAt !== undefined)!;
    await expectListed(
      fx.app, PATH, fx.keys.demo.all,
      { memberId: String(m.memberId), planId: String(m.planId), expiresAfter: iso(m.expiresAt!), expiresBefore: iso(m.expiresAt! + 1) },
      data.memberships.filter((x) => x.memberId === m.memberId && x.planId === m.planId && x.expiresAt === m.expiresAt),
    );
  });

  test('a subscription changed to a cheaper plan names the plan it moves to when its period ends (nextPlanId)', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const running = data.memberships.find((m) => m.status === 'active' && m.type === 'subscription' && m.cancelsAt === undefined)!;
    const cheaper = data.plans.find((p) => p.type === 'subscription' && p.id !== running.planId)!;
    const query = { memberId: String(running.memberId), planId: String(running.planId) };
    try {
      await fx.store.updateMembership(fx.demo.id, running.id, { nextPlanId: cheaper.id });
      const listed = (await memberships(fx, query)).body.find((m: { id: number }) => m.id === running.id);
      expect(listed).toMatchObject({ id: running.id, planId: running.planId, nextPlanId: cheaper.id });
    } finally {
      await fx.store.updateMembership(fx.demo.id, running.id, { nextPlanId: null });
    }
    expect((await memberships(fx, query)).body.find((m: { id: number }) => m.id === running.id)).not.toHaveProperty('nextPlanId');
  });

  test('a malformed planId or memberId answers 400 invalidParameter naming it', async () => {
    const fx = fixture();
    for (const value of ['abc', '0', '-1', '1.5', '1e3', '', ' 1', '0x10', '9999999999999999', 'null']) {
      expectInvalidParameters(await memberships(fx, { planId: value }), 'planId');
      expectInvalidParameters(await memberships(fx, { memberId: value }), 'memberId');
    }
  });

  test('a malformed status answers 400 naming status', async () => {
    const fx = fixture();
    for (const status of ['approved', 'Active', 'pending', '']) expectInvalidParameters(await memberships(fx, { status }), 'status');
  });

  testMalformedDateTimes(fixture, PATH, RANGES.flatMap((r) => r.names));

  test('every malformed membership filter is named in one 400', async () => {
    const fx = fixture();
    const query = {
      planId: 'x', memberId: 'y', status: 'z', createdAfter: 'a', createdBefore: 'b',
      billingPeriodEndAfter: 'c', billingPeriodEndBefore: 'd', expiresAfter: 'e', expiresBefore: 'f',
    };
    expectInvalidParameters(await memberships(fx, query), ...Object.keys(query));
  });
});
