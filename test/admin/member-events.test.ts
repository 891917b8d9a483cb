/** GET /memberEvents (spec 2.5): every member event of the site, filtered by member and time. */
import { expect, test } from 'vitest';
import { MEMBER_EVENT_TYPES } from '../../src/contract/admin';
import type { MemberEventRecord } from '../../src/service/store/records';
import { DAY, forEachStore, useAdminFixture, type AdminFixture } from '../support/admin-fixture';
import {
  call,
  demoData,
  expectedMemberEvent,
  expectEqualsFilter,
  expectInvalidParameters,
  expectListed,
  expectListsStoredRows,
  expectRangeWindows,
  expectShape,
  ids,
  iso,
  MEMBER_EVENT_SHAPE,
  testMalformedDateTimes,
  testRangeBoundaries,
  walkPages,
  type DateRange,
} from './helpers';

const PATH = '/memberEvents';
const CREATED: DateRange<MemberEventRecord> = { names: ['createdAfter', 'createdBefore'], valueOf: (e) => e.createdAt, subject: 'an event' };

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const events = (fx: AdminFixture, query: Record<string, string>) => call(fx.app, PATH, { key: fx.keys.demo.all, query });

  test('GET /memberEvents lists every member event of the site with the fields of 2.5, in id order', async () => {
    await expectListsStoredRows(fixture(), PATH, {
      sites: ['demo', 'other'],
      shape: MEMBER_EVENT_SHAPE,
      label: 'event',
      expected: (data) => data.events.map(expectedMemberEvent),
      check: (e) => {
        expect(Array.isArray(e.details)).toBe(false);
        expect(MEMBER_EVENT_TYPES).toContain(e.eventType);
      },
    });
  });

  test('an abandonedConversion event details amount, chargeId and invoiceId as strings', async () => {
    const fx = fixture();
    const { items } = await walkPages<any>(fx.app, PATH, { key: fx.keys.demo.all, pageSize: 100 });
    const abandoned = items.filter((e) => e.eventType === 'abandonedConversion');
    expect(abandoned.length).toBeGreaterThan(0);
    for (const e of abandoned) {
      expectShape(e.details, { amount: 'string', chargeId: 'string', invoiceId: 'string' }, `event ${e.id}.details`);
      expect(e.details.amount).toMatch(/\d/);
    }
  });

  test('a planChanged event (decision 0036) is listed with its details as the OpenAPI document describes them', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const member = data.members[0]!;
    const [from, to] = [data.plans[0]!, data.plans[1]!];
    await fx.store.createMemberEvents([
      { siteId: fx.demo.id, memberId: member.id, eventType: 'planChanged', createdAt: Date.now(), details: { membershipId: 1, fromPlanId: from.id, toPlanId: to.id, when: 'periodEnd' } },
      { siteId: fx.demo.id, memberId: member.id, eventType: 'planChanged', createdAt: Date.now(), details: { membershipId: 1, fromPlanId: from.id, toPlanId: to.id, when: 'periodEnd', applied: true, invoiceId: 'in_1' } },
    ]);
    // `call` checks every answer against the OpenAPI document, details by event type included.
    const { items } = await walkPages<any>(fx.app, PATH, { key: fx.keys.demo.all, pageSize: 100, query: { memberId: String(member.id) } });
    expect(items.filter((e) => e.eventType === 'planChanged').map((e) => e.details)).toEqual([
      { membershipId: 1, fromPlanId: from.id, toPlanId: to.id, when: 'periodEnd' },
      { membershipId: 1, fromPlanId: from.id, toPlanId: to.id, when: 'periodEnd', applied: true, invoiceId: 'in_1' },
    ]);
  });

  test('memberId filters by member', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const sample = data.members.filter((_, i) => i % 7 === 0);
    // Every sampled member has events, so no member's answer is empty by accident.
    for (const member of sample) expect(data.events.filter((e) => e.memberId === member.id).length).toBeGreaterThan(0);
    await expectEqualsFilter(fx.app, PATH, fx.keys.demo.all, 'memberId', ids(sample), data.events, (e) => e.memberId);
    await expectListed(fx.app, PATH, fx.keys.demo.all, { memberId: 987654 }, []);
  });

  testRangeBoundaries(fixture, PATH, (data) => data.events, CREATED);

  test('created ranges match the events inside them, alone and together with memberId', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const now = fx.clock();
    const windows = [[now - 30 * DAY, now], [now - 400 * DAY, now - 100 * DAY], [now, now + DAY]] as const;
    await expectRangeWindows(fx.app, PATH, fx.keys.demo.all, CREATED.names, data.events, CREATED.valueOf, windows);
    const member = data.members[3]!;
    const memberEvents = data.events.filter((e) => e.memberId === member.id);
    const t = memberEvents[Math.floor(memberEvents.length / 2)]!.createdAt;
    await expectListed(
      fx.app, PATH, fx.keys.demo.all, { memberId: member.id, createdAfter: iso(t) },
      memberEvents.filter((e) => e.createdAt >= t),
    );
  });

  test('a malformed memberId answers 400 invalidParameter naming memberId', async () => {
    const fx = fixture();
    for (const memberId of ['abc', '0', '-3', '2.0', '', 'one']) expectInvalidParameters(await events(fx, { memberId }), 'memberId');
  });

  testMalformedDateTimes(fixture, PATH, CREATED.names);

  test('malformed memberId and dates are reported together', async () => {
    const fx = fixture();
    expectInvalidParameters(await events(fx, { memberId: 'x', createdAfter: 'y', createdBefore: 'z' }), 'memberId', 'createdAfter', 'createdBefore');
  });
});
