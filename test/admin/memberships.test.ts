import { expect, test } from 'vitest';
import { MEMBERSHIP_STATUSES, PLAN_TYPES } from '../../src/contract/admin';
import type { MembershipRecord } from '../../src/service/store/records';
import { DAY, forEachStore, readSiteData, useAdminFixture, type AdminFixture } from '../support/admin-fixture';
import {
  BAD_DATE_TIMES,
  call,
  expectedMembership,
  expectInvalidParameters,
  expectListed,
  expectNoNulls,
  expectRangeBoundaries,
  expectShape,
  inRange,
  iso,
  MEMBERSHIP_SHAPE,
  sameInstants,
  sampleValues,
  walkPages,
} from './helpers';

const RANGES: Array<{ names: [string, string]; valueOf: (m: MembershipRecord) => number | undefined }> = [
  { names: ['createdAfter', 'createdBefore'], valueOf: (m) => m.createdAt },
  { names: ['billingPeriodEndAfter', 'billingPeriodEndBefore'], valueOf: (m) => m.billingPeriodEnd },
  { names: ['expiresAfter', 'expiresBefore'], valueOf: (m) => m.expiresAt },
];

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const demoData = (fx: AdminFixture) => readSiteData(fx.store, fx.demo.id);
  const memberships = (fx: AdminFixture, query: Record<string, string>) =>
    call(fx.app, '/memberships', { key: fx.keys.demo.all, query });

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
    const fx = fixture();
    for (const [site, key] of [[fx.demo, fx.keys.demo.all], [fx.other, fx.keys.other.all]] as const) {
      const data = await readSiteData(fx.store, site.id);
      const walk = await walkPages(fx.app, '/memberships', { key, pageSize: 100 });
      for (const m of walk.items) {
        expectShape(m, MEMBERSHIP_SHAPE, `membership ${m.id}`);
        if (m.billing) expectShape(m.billing, { billingPeriodEnd: 'date-time' }, `membership ${m.id}.billing`);
        expect(MEMBERSHIP_STATUSES).toContain(m.status);
        expect(PLAN_TYPES).toContain(m.type);
      }
      expectNoNulls(walk.items);
      expect(sameInstants(walk.items)).toStrictEqual(sameInstants(data.memberships.map((m) => expectedMembership(m, data))));
    }
  });

  test('a membership names its plan\'s public id and type', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const { items } = await walkPages<any>(fx.app, '/memberships', { key: fx.keys.demo.all, pageSize: 100 });
    for (const m of items) {
      const plan = data.plans.find((p) => p.id === m.planId)!;
      expect(m.planPublicId).toBe(plan.publicId);
      expect(m.type).toBe(plan.type);
    }
  });

  test('expiresOn, cancelsOn and billing appear only on memberships that have them', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const { items } = await walkPages<any>(fx.app, '/memberships', { key: fx.keys.demo.all, pageSize: 100 });
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
    for (const plan of data.plans) {
      await expectListed(fx.app, '/memberships', fx.keys.demo.all, { planId: plan.id }, data.memberships.filter((m) => m.planId === plan.id));
    }
    const archived = data.plans.find((p) => p.status === 'archived')!;
    expect(data.memberships.some((m) => m.planId === archived.id)).toBe(true);
  });

  test('memberId filters by member', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const sample = data.members.filter((_, i) => i % 9 === 0);
    const withTwo = data.members.find((mem) => data.memberships.filter((m) => m.memberId === mem.id).length >= 2)!;
    expect(withTwo).toBeDefined();
    for (const member of [...sample, withTwo]) {
      await expectListed(fx.app, '/memberships', fx.keys.demo.all, { memberId: member.id }, data.memberships.filter((m) => m.memberId === member.id));
    }
  });

  test('a planId or memberId that does not exist matches nothing', async () => {
    const fx = fixture();
    const queries: Array<Record<string, string>> = [{ planId: '999999' }, { memberId: '999999' }, { planId: '999999999999999' }];
    for (const query of queries) {
      await expectListed(fx.app, '/memberships', fx.keys.demo.all, query, []);
    }
  });

  test.each(MEMBERSHIP_STATUSES)('GET /memberships?status=%s lists exactly the memberships in that status', async (status) => {
    const fx = fixture();
    const data = await demoData(fx);
    await expectListed(fx.app, '/memberships', fx.keys.demo.all, { status }, data.memberships.filter((m) => m.status === status));
  });

  test.each(RANGES)('$names.0 is inclusive and $names.1 exclusive at exact instants', async ({ names, valueOf }) => {
    const fx = fixture();
    const data = await demoData(fx);
    await expectRangeBoundaries(
      fx.app, '/memberships', fx.keys.demo.all, names, data.memberships, valueOf, sampleValues(data.memberships, valueOf, 4),
    );
  });

  test.each(RANGES)('$names.0 / $names.1 over wide windows match the memberships inside, never those without the value', async ({ names, valueOf }) => {
    const fx = fixture();
    const data = await demoData(fx);
    const now = fx.clock();
    for (const [from, to] of [[now - 3650 * DAY, now + 3650 * DAY], [now - 90 * DAY, now], [now, now + 90 * DAY]] as const) {
      await expectListed(
        fx.app, '/memberships', fx.keys.demo.all, { [names[0]]: iso(from), [names[1]]: iso(to) },
        data.memberships.filter((m) => inRange(valueOf(m), from, to)),
      );
      await expectListed(fx.app, '/memberships', fx.keys.demo.all, { [names[0]]: iso(from) }, data.memberships.filter((m) => inRange(valueOf(m), from)));
      await expectListed(fx.app, '/memberships', fx.keys.demo.all, { [names[1]]: iso(to) }, data.memberships.filter((m) => inRange(valueOf(m), undefined, to)));
    }
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
        await expectListed(fx.app, '/memberships', fx.keys.demo.all, query, expected);
      }
    }
    const m = data.memberships.find((x) => x.expiresAt !== undefined)!;
    await expectListed(
      fx.app, '/memberships', fx.keys.demo.all,
      { memberId: String(m.memberId), planId: String(m.planId), expiresAfter: iso(m.expiresAt!), expiresBefore: iso(m.expiresAt! + 1) },
      data.memberships.filter((x) => x.memberId === m.memberId && x.planId === m.planId && x.expiresAt === m.expiresAt),
    );
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

  test.each(RANGES.flatMap((r) => r.names))('a malformed %s answers 400 naming it', async (name) => {
    const fx = fixture();
    for (const value of BAD_DATE_TIMES) expectInvalidParameters(await memberships(fx, { [name]: value }), name);
  });

  test('every malformed membership filter is named in one 400', async () => {
    const fx = fixture();
    const query = {
      planId: 'x', memberId: 'y', status: 'z', createdAfter: 'a', createdBefore: 'b',
      billingPeriodEndAfter: 'c', billingPeriodEndBefore: 'd', expiresAfter: 'e', expiresBefore: 'f',
    };
    expectInvalidParameters(await memberships(fx, query), ...Object.keys(query));
  });
});
