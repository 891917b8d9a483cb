import { expect, test } from 'vitest';
import { CONTENT_NODE_TYPES } from '../../src/contract/admin';
import { DAY, forEachStore, readSiteData, useAdminFixture, type AdminFixture } from '../support/admin-fixture';
import {
  BAD_DATE_TIMES,
  call,
  CONTENT_VIEW_SHAPE,
  expectedContentView,
  expectInvalidParameters,
  expectListed,
  expectNoNulls,
  expectRangeBoundaries,
  expectShape,
  inRange,
  iso,
  sameInstants,
  sampleValues,
  walkPages,
} from './helpers';

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);
  const demoData = (fx: AdminFixture) => readSiteData(fx.store, fx.demo.id);
  const views = (fx: AdminFixture, query: Record<string, string>) => call(fx.app, '/contentLibrary/views', { key: fx.keys.demo.all, query });

  test('GET /contentLibrary/views lists every view of the site with the fields of 2.6, in id order', async () => {
    const fx = fixture();
    for (const [site, key] of [[fx.demo, fx.keys.demo.all], [fx.other, fx.keys.other.all]] as const) {
      const data = await readSiteData(fx.store, site.id);
      const walk = await walkPages<any>(fx.app, '/contentLibrary/views', { key, pageSize: 100 });
      for (const v of walk.items) {
        expectShape(v, CONTENT_VIEW_SHAPE, `view ${v.id}`);
        expect(CONTENT_NODE_TYPES).toContain(v.node.type);
      }
      expectNoNulls(walk.items);
      expect(sameInstants(walk.items)).toStrictEqual(sameInstants(data.views.map((v) => expectedContentView(v, data))));
    }
  });

  test('a view\'s node and space are the site\'s content item and the space holding it', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const { items } = await walkPages<any>(fx.app, '/contentLibrary/views', { key: fx.keys.demo.all, pageSize: 100 });
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
    for (const member of data.members.filter((_, i) => i % 6 === 0)) {
      await expectListed(fx.app, '/contentLibrary/views', fx.keys.demo.all, { memberId: member.id }, data.views.filter((v) => v.memberId === member.id));
    }
  });

  test('nodeId filters by content item, for every item of the site', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    for (const node of data.nodes) {
      await expectListed(fx.app, '/contentLibrary/views', fx.keys.demo.all, { nodeId: node.id }, data.views.filter((v) => v.nodeId === node.id));
    }
    await expectListed(fx.app, '/contentLibrary/views', fx.keys.demo.all, { nodeId: 424242 }, []);
  });

  test('viewedAfter is inclusive and viewedBefore exclusive at the exact instant of a view', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    await expectRangeBoundaries(
      fx.app, '/contentLibrary/views', fx.keys.demo.all, ['viewedAfter', 'viewedBefore'],
      data.views, (v) => v.viewedAt, sampleValues(data.views, (v) => v.viewedAt, 4),
    );
  });

  test('viewed ranges, memberId and nodeId combine', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const now = fx.clock();
    for (const [from, to] of [[now - 60 * DAY, now], [now - 500 * DAY, now - 200 * DAY], [now + 1, now + DAY]] as const) {
      await expectListed(fx.app, '/contentLibrary/views', fx.keys.demo.all, { viewedAfter: iso(from), viewedBefore: iso(to) }, data.views.filter((v) => inRange(v.viewedAt, from, to)));
      for (const node of data.nodes.slice(0, 4)) {
        await expectListed(
          fx.app, '/contentLibrary/views', fx.keys.demo.all, { nodeId: node.id, viewedAfter: iso(from) },
          data.views.filter((v) => v.nodeId === node.id && inRange(v.viewedAt, from)),
        );
      }
    }
    const v = data.views[10]!;
    await expectListed(
      fx.app, '/contentLibrary/views', fx.keys.demo.all, { memberId: v.memberId, nodeId: v.nodeId, viewedBefore: iso(v.viewedAt + 1) },
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

  test.each(['viewedAfter', 'viewedBefore'])('a malformed %s answers 400 naming it', async (name) => {
    const fx = fixture();
    for (const value of BAD_DATE_TIMES) expectInvalidParameters(await views(fx, { [name]: value }), name);
  });

  test('every malformed view filter is named in one 400', async () => {
    const fx = fixture();
    expectInvalidParameters(
      await views(fx, { memberId: 'a', nodeId: 'b', viewedAfter: 'c', viewedBefore: 'd' }),
      'memberId', 'nodeId', 'viewedAfter', 'viewedBefore',
    );
  });
});
