import { expect, test } from 'vitest';
import { MEMBER_EVENT_TYPES } from '../../src/contract/admin';
import { DAY, forEachStore, readSiteData, useAdminFixture, type AdminFixture } from '../support/admin-fixture';
import {
  BAD_DATE_TIMES,
  call,
  expectedMemberEvent,
  expectInvalidParameters,
  expectListed,
  expectNoNulls,
  expectRangeBoundaries,
  expectShape,
  inRange,
  iso,
  MEMBER_EVENT_SHAPE,
  sameInstants,
  sampleValues,
  walkPages,
} from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const demoData = (fx: AdminFixture) => readSiteData(fx.store, fx.demo.id);
  const events = (fx: AdminFixture, query: Record<string, string>) => call(fx.app, '/memberEvents', { key: fx.keys.demo.all, query });

  test('GET /memberEvents lists every member event of the site with the fields of 2.5, in id order', async () => {
    const fx = fixture();
    for (const [site, key] of [[fx.demo, fx.keys.demo.all], [fx.other, fx.keys.other.all]] as const) {
      const data = await readSiteData(fx.store, site.id);
      const walk = await walkPages<any>(fx.app, '/memberEvents', { key, pageSize: 100 });
      for (const e of walk.items) {
        expectShape(e, MEMBER_EVENT_SHAPE, `event ${e.id}`);
        expect(Array.isArray(e.details)).toBe(false);
        expect(MEMBER_EVENT_TYPES).toContain(e.eventType);
      }
      expectNoNulls(walk.items);
      expect(sameInstants(walk.items)).toStrictEqual(sameInstants(data.events.map(expectedMemberEvent)));
    }
  });

  test('an abandonedConversion event details amount, chargeId and invoiceId as strings', async () => {
    const fx = fixture();
    const { items } = await walkPages<any>(fx.app, '/memberEvents', { key: fx.keys.demo.all, pageSize: 100 });
    const abandoned = items.filter((e) => e.eventType === 'abandonedConversion');
    expect(abandoned.length).toBeGreaterThan(0);
    for (const e of abandoned) {
      expectShape(e.details, { amount: 'string', chargeId: 'string', invoiceId: 'string' }, `event ${e.id}.details`);
      expect(e.details.amount).toMatch(/\d/);
    }
  });

  test('memberId filters by member', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    for (const member of data.members.filter((_, i) => i % 7 === 0)) {
      const expected = data.events.filter((e) => e.memberId === member.id);
      expect(expected.length).toBeGreaterThan(0);
      await expectListed(fx.app, '/memberEvents', fx.keys.demo.all, { memberId: member.id }, expected);
    }
    await expectListed(fx.app, '/memberEvents', fx.keys.demo.all, { memberId: 987654 }, []);
  });

  test('createdAfter is inclusive and createdBefore exclusive at the exact instant of an event', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    await expectRangeBoundaries(
      fx.app, '/memberEvents', fx.keys.demo.all, ['createdAfter', 'createdBefore'],
      data.events, (e) => e.createdAt, sampleValues(data.events, (e) => e.createdAt, 4),
    );
  });

  test('created ranges match the events inside them, alone and together with memberId', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const now = fx.clock();
    for (const [from, to] of [[now - 30 * DAY, now], [now - 400 * DAY, now - 100 * DAY], [now, now + DAY]] as const) {
      await expectListed(fx.app, '/memberEvents', fx.keys.demo.all, { createdAfter: iso(from), createdBefore: iso(to) }, data.events.filter((e) => inRange(e.createdAt, from, to)));
      await expectListed(fx.app, '/memberEvents', fx.keys.demo.all, { createdAfter: iso(from) }, data.events.filter((e) => inRange(e.createdAt, from)));
      await expectListed(fx.app, '/memberEvents', fx.keys.demo.all, { createdBefore: iso(to) }, data.events.filter((e) => inRange(e.createdAt, undefined, to)));
    }
    const member = data.members[3]!;
    const memberEvents = data.events.filter((e) => e.memberId === member.id);
    const t = memberEvents[Math.floor(memberEvents.length / 2)]!.createdAt;
    await expectListed(
      fx.app, '/memberEvents', fx.keys.demo.all, { memberId: member.id, createdAfter: iso(t) },
      memberEvents.filter((e) => e.createdAt >= t),
    );
  });

  test('a malformed memberId answers 400 invalidParameter naming memberId', async () => {
    const fx = fixture();
    for (const memberId of ['abc', '0', '-3', '2.0', '', 'one']) expectInvalidParameters(await events(fx, { memberId }), 'memberId');
  });

  test.each(['createdAfter', 'createdBefore'])('a malformed %s answers 400 naming it', async (name) => {
    const fx = fixture();
    for (const value of BAD_DATE_TIMES) expectInvalidParameters(await events(fx, { [name]: value }), name);
  });

  test('malformed memberId and dates are reported together', async () => {
    const fx = fixture();
    expectInvalidParameters(await events(fx, { memberId: 'x', createdAfter: 'y', createdBefore: 'z' }), 'memberId', 'createdAfter', 'createdBefore');
  });
});
