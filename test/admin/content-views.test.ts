/** GET /contentLibrary/views (spec 2.6): every view of the site, filtered by member, content item and time. */
import { expect, test } from 'vitest';
import { CONTENT_NODE_TYPES } from '../../src/contract/admin';
import type { ContentViewRecord } from '../../src/service/store/records';
import { DAY, forEachStore, useAdminFixture, type AdminFixture } from '../support/admin-fixture';
import {
  call,
  CONTENT_VIEW_SHAPE,
  demoData,
  expectedContentView,
  expectEqualsFilter,
  expectInvalidParameters,
  expectListed,
  expectListsStoredRows,
  ids,
  inRange,
  iso,
  testMalformedDateTimes,
  testRangeBoundaries,
  walkPages,
  type DateRange,
} from './helpers';

const PATH = '/contentLibrary/views';
const VIEWED: DateRange<ContentViewRecord> = { names: ['viewedAfter', 'viewedBefore'], valueOf: (v) => v.viewedAt, subject: 'a view' };

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const views = (fx: AdminFixture, query: Record<string, string>) => call(fx.app, PATH, { key: fx.keys.demo.all, query });

  test('GET /contentLibrary/views lists every view of the site with the fields of 2.6, in id order', async () => {
    await expectListsStoredRows(fixture(), PATH, {
      sites: ['demo', 'other'],
      shape: CONTENT_VIEW_SHAPE,
      label: 'view',
      expected: (data) => data.views.map((v) => expectedContentView(v, data)),
      check: (v) => expect(CONTENT_NODE_TYPES).toContain(v.node.type),
    });
  });

  test('a view\'s node and space are the site\'s content item and the space holding it', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const { items } = await walkPages<any>(fx.app, PATH, { key: fx.keys.demo.all, pageSize: 100 });
    for (const v of items) {
      const node = data.nodes.find((n) => n.id === v.node.id);
      expect(node, `node ${v.node.id}`).toBeDefined();
      expect(v.node).toStrictEqual({ id: node!.id, name: node!.name, type: node!.type });
      expect(v.spaceNode.id).toBe(node!.spaceId);
    }
  });

  test('memberId filters by member', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const sample = data.members.filter((_, i) => i % 6 === 0);
    await expectEqualsFilter(fx.app, PATH, fx.keys.demo.all, 'memberId', ids(sample), data.views, (v) => v.memberId);
  });

  test('nodeId filters by content item, for every item of the site', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    await expectEqualsFilter(fx.app, PATH, fx.keys.demo.all, 'nodeId', ids(data.nodes), data.views, (v) => v.nodeId);
    await expectListed(fx.app, PATH, fx.keys.demo.all, { nodeId: 424242 }, []);
  });

  testRangeBoundaries(fixture, PATH, (data) => data.views, VIEWED);

  test('viewed ranges, memberId and nodeId combine', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const now = fx.clock();
    for (const [from, to] of [[now - 60 * DAY, now], [now - 500 * DAY, now - 200 * DAY], [now + 1, now + DAY]] as const) {
      await expectListed(fx.app, PATH, fx.keys.demo.all, { viewedAfter: iso(from), viewedBefore: iso(to) }, data.views.filter((v) => inRange(v.viewedAt, from, to)));
      for (const node of data.nodes.slice(0, 4)) {
        await expectListed(
          fx.app, PATH, fx.keys.demo.all, { nodeId: node.id, viewedAfter: iso(from) },
          data.views.filter((v) => v.nodeId === node.id && inRange(v.viewedAt, from)),
        );
      }
    }
    const v = data.views[10]!;
    await expectListed(
      fx.app, PATH, fx.keys.demo.all, { memberId: v.memberId, nodeId: v.nodeId, viewedBefore: iso(v.viewedAt + 1) },
      data.views.filter((x) => x.memberId === v.memberId && x.nodeId === v.nodeId && x.viewedAt <= v.viewedAt),
    );
  });

  test('a malformed memberId or nodeId answers 400 invalidParameter naming it', async () => {
    const fx = fixture();
    for (const value of ['abc', '0', '-1', '3.14', '', '1,2']) {
      expectInvalidParameters(await views(fx, { memberId: value }), 'memberId');
      expectInvalidParameters(await views(fx, { nodeId: value }), 'nodeId');
    }
  });

  testMalformedDateTimes(fixture, PATH, VIEWED.names);

  test('every malformed view filter is named in one 400', async () => {
    const fx = fixture();
    expectInvalidParameters(
      await views(fx, { memberId: 'a', nodeId: 'b', viewedAfter: 'c', viewedBefore: 'd' }),
      'memberId', 'nodeId', 'viewedAfter', 'viewedBefore',
    );
  });
});
