/** Contract: member events, content spaces, nodes and views. */
import { expect, test } from 'vitest';
import { MissingReferenceError } from '../../src/service/store/errors';
import type { NewContentView, NewMemberEvent } from '../../src/service/store/records';
import { type Ctx, T0, addMembers, expectKeysetPaging, expectRangeFilter, expectRejects } from './fixtures';

export function activityTests(ctx: Ctx): void {
  const event = (memberId: number, extra: Partial<NewMemberEvent> = {}): NewMemberEvent => ({
    siteId: ctx.a.id,
    memberId,
    eventType: 'login',
    details: {},
    createdAt: T0,
    ...extra,
  });
  const eventIds = async (memberId?: number, siteId = ctx.a.id) =>
    (await ctx.store.listMemberEvents(siteId, { memberId }, { limit: 1000 })).items.map((e) => e.id);

  test('createMemberEvents returns ids in input order and listMemberEvents reads events back with details', async () => {
    const [m0, m1] = await addMembers(ctx.store, ctx.a.id, 2);
    const input = [
      event(m0!, {
        eventType: 'abandonedConversion',
        details: { amount: '$12.00', chargeId: 'ch_1', invoiceId: 'in_1' },
        createdAt: T0 + 7,
      }),
      event(m1!, { eventType: 'signup', details: { nested: { list: [1, 'two', null, true] }, n: 1.5 } }),
      event(m0!),
    ];
    const ids = await ctx.store.createMemberEvents(input);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    expect(await ctx.store.listMemberEvents(ctx.a.id, {}, { limit: 10 })).toEqual({
      items: input.map((e, i) => ({ ...e, id: ids[i] })),
      hasMore: false,
    });
  });

  test('createMemberEvents rejects an unknown or another site’s member with MissingReferenceError on memberId, inserting nothing', async () => {
    const [m0] = await addMembers(ctx.store, ctx.a.id, 1);
    const [foreign] = await addMembers(ctx.store, ctx.b.id, 1);
    await expectRejects(ctx.store.createMemberEvents([event(m0!), event(foreign!)]), MissingReferenceError, 'memberId');
    await expectRejects(
      ctx.store.createMemberEvents([event(m0!), event(foreign! + 1000)]),
      MissingReferenceError,
      'memberId',
    );
    expect(await eventIds()).toEqual([]);
    expect(await eventIds(undefined, ctx.b.id)).toEqual([]);
  });

  test('listMemberEvents filters by memberId and by created (from inclusive, to exclusive)', async () => {
    const [m0, m1] = await addMembers(ctx.store, ctx.a.id, 2);
    const [foreign] = await addMembers(ctx.store, ctx.b.id, 1);
    const ids = await ctx.store.createMemberEvents([
      event(m0!, { createdAt: T0 }),
      event(m1!, { createdAt: T0 + 1000 }),
      event(m0!, { createdAt: T0 + 2000 }),
    ]);
    await ctx.store.createMemberEvents([{ ...event(foreign!), siteId: ctx.b.id, createdAt: T0 + 1000 }]);
    expect(await eventIds(m0)).toEqual([ids[0], ids[2]]);
    expect(await eventIds(m1)).toEqual([ids[1]]);
    expect(await eventIds(foreign)).toEqual([]);
    await expectRangeFilter(
      (created) => ctx.store.listMemberEvents(ctx.a.id, { created }, { limit: 100 }),
      ids as [number, number, number],
    );
    const both = await ctx.store.listMemberEvents(ctx.a.id, { memberId: m0, created: { from: T0 + 1 } }, { limit: 9 });
    expect(both.items.map((e) => e.id)).toEqual([ids[2]]);
  });

  test('listMemberEvents pages by id and never shows another site’s events', async () => {
    const [m0, m1] = await addMembers(ctx.store, ctx.a.id, 2);
    const [foreign] = await addMembers(ctx.store, ctx.b.id, 1);
    const mine: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < 6; i++) {
      mine.push(...(await ctx.store.createMemberEvents([event(i % 2 ? m1! : m0!)])));
      others.push(...(await ctx.store.createMemberEvents([{ ...event(foreign!), siteId: ctx.b.id }])));
    }
    await expectKeysetPaging((page) => ctx.store.listMemberEvents(ctx.a.id, {}, page), mine, others[0]);
    await expectKeysetPaging((page) => ctx.store.listMemberEvents(ctx.b.id, {}, page), others, mine[5]);
    const ofM1 = mine.filter((_, i) => i % 2 === 1);
    await expectKeysetPaging((page) => ctx.store.listMemberEvents(ctx.a.id, { memberId: m1 }, page), ofM1, mine[2]);
  });

  /** Site a: spaces "Library" (nodes article, video) and "Extras" (node file); site b: one of each. */
  async function library() {
    const library = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Library' });
    const extras = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Extras' });
    const article = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: library, name: 'Intro', type: 'article' });
    const video = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: library, name: 'Talk', type: 'video' });
    const file = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: extras, name: 'Slides', type: 'file' });
    const bSpace = await ctx.store.createContentSpace({ siteId: ctx.b.id, name: 'B' });
    const bNode = await ctx.store.createContentNode({ siteId: ctx.b.id, spaceId: bSpace, name: 'B1', type: 'link' });
    const [m0, m1] = (await addMembers(ctx.store, ctx.a.id, 2)) as [number, number];
    const [bMember] = (await addMembers(ctx.store, ctx.b.id, 1)) as [number];
    return { library, extras, article, video, file, bSpace, bNode, m0, m1, bMember };
  }
  const view = (memberId: number, nodeId: number, viewedAt = T0): NewContentView => ({
    siteId: ctx.a.id,
    memberId,
    nodeId,
    viewedAt,
  });

  test('createContentViews returns ids in input order; views carry their node and space', async () => {
    const l = await library();
    const input = [view(l.m0, l.video, T0 + 3), view(l.m1, l.file), view(l.m0, l.article)];
    const ids = await ctx.store.createContentViews(input);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    expect(await ctx.store.listContentViews(ctx.a.id, {}, { limit: 10 })).toEqual({
      items: [
        { ...input[0], id: ids[0], node: { id: l.video, name: 'Talk', type: 'video' }, space: { id: l.library, name: 'Library' } },
        { ...input[1], id: ids[1], node: { id: l.file, name: 'Slides', type: 'file' }, space: { id: l.extras, name: 'Extras' } },
        { ...input[2], id: ids[2], node: { id: l.article, name: 'Intro', type: 'article' }, space: { id: l.library, name: 'Library' } },
      ],
      hasMore: false,
    });
  });

  test('listContentNodes returns the site’s content nodes ascending by id', async () => {
    const l = await library();
    expect(await ctx.store.listContentNodes(ctx.a.id)).toEqual([
      // Items made without a key are keyed `item-<id>`.
      { id: l.article, siteId: ctx.a.id, key: `item-${l.article}`, spaceId: l.library, name: 'Intro', type: 'article' },
      { id: l.video, siteId: ctx.a.id, key: `item-${l.video}`, spaceId: l.library, name: 'Talk', type: 'video' },
      { id: l.file, siteId: ctx.a.id, key: `item-${l.file}`, spaceId: l.extras, name: 'Slides', type: 'file' },
    ]);
    expect(await ctx.store.listContentNodes(ctx.b.id)).toEqual([
      { id: l.bNode, siteId: ctx.b.id, key: `item-${l.bNode}`, spaceId: l.bSpace, name: 'B1', type: 'link' },
    ]);
    expect(await ctx.store.listContentNodes(ctx.b.id + 1000)).toEqual([]);
  });

  test('createContentSpace rejects an unknown site with MissingReferenceError on siteId', async () => {
    await expectRejects(ctx.store.createContentSpace({ siteId: ctx.b.id + 1000, name: 'X' }), MissingReferenceError, 'siteId');
  });

  test('createContentNode rejects an unknown or another site’s space with MissingReferenceError on spaceId', async () => {
    const l = await library();
    await expectRejects(
      ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: l.bSpace, name: 'X', type: 'audio' }),
      MissingReferenceError,
      'spaceId',
    );
    await expectRejects(
      ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: l.bSpace + 1000, name: 'X', type: 'audio' }),
      MissingReferenceError,
      'spaceId',
    );
  });

  test('createContentViews rejects a bad member or node with MissingReferenceError on that field, inserting nothing', async () => {
    const l = await library();
    const ok = view(l.m0, l.article);
    const reject = (bad: NewContentView, field: string) =>
      expectRejects(ctx.store.createContentViews([ok, bad]), MissingReferenceError, field);
    await reject(view(l.bMember, l.article), 'memberId');
    await reject(view(l.bMember + 1000, l.article), 'memberId');
    await reject(view(l.m0, l.bNode), 'nodeId');
    await reject(view(l.m0, l.bNode + 1000), 'nodeId');
    expect(await ctx.store.listContentViews(ctx.a.id, {}, { limit: 10 })).toEqual({ items: [], hasMore: false });
  });

  test('listContentViews filters by memberId, nodeId and viewed (from inclusive, to exclusive)', async () => {
    const l = await library();
    const ids = await ctx.store.createContentViews([
      view(l.m0, l.article, T0),
      view(l.m1, l.article, T0 + 1000),
      view(l.m0, l.video, T0 + 2000),
    ]);
    await ctx.store.createContentViews([{ siteId: ctx.b.id, memberId: l.bMember, nodeId: l.bNode, viewedAt: T0 + 1000 }]);
    const find = async (f: Parameters<typeof ctx.store.listContentViews>[1]) =>
      (await ctx.store.listContentViews(ctx.a.id, f, { limit: 100 })).items.map((v) => v.id);
    expect(await find({ memberId: l.m0 })).toEqual([ids[0], ids[2]]);
    expect(await find({ nodeId: l.article })).toEqual([ids[0], ids[1]]);
    expect(await find({ memberId: l.m0, nodeId: l.article })).toEqual([ids[0]]);
    expect(await find({ nodeId: l.bNode })).toEqual([]);
    expect(await find({ memberId: l.bMember })).toEqual([]);
    expect(await find({ nodeId: l.file })).toEqual([]);
    expect(await find({ memberId: l.m0, viewed: { to: T0 + 2000 } })).toEqual([ids[0]]);
    await expectRangeFilter(
      (viewed) => ctx.store.listContentViews(ctx.a.id, { viewed }, { limit: 100 }),
      ids as [number, number, number],
    );
  });

  test('listContentViews pages by id and never shows another site’s views', async () => {
    const l = await library();
    const mine: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < 6; i++) {
      mine.push(...(await ctx.store.createContentViews([view(i % 2 ? l.m1 : l.m0, i < 3 ? l.article : l.file)])));
      others.push(
        ...(await ctx.store.createContentViews([{ siteId: ctx.b.id, memberId: l.bMember, nodeId: l.bNode, viewedAt: T0 }])),
      );
    }
    await expectKeysetPaging((page) => ctx.store.listContentViews(ctx.a.id, {}, page), mine, others[3]);
    await expectKeysetPaging((page) => ctx.store.listContentViews(ctx.b.id, {}, page), others, mine[1]);
    await expectKeysetPaging((page) => ctx.store.listContentViews(ctx.a.id, { memberId: l.m0 }, page), [mine[0]!, mine[2]!, mine[4]!], mine[1]);
    await expectKeysetPaging((page) => ctx.store.listContentViews(ctx.a.id, { nodeId: l.file }, page), mine.slice(3), mine[2]);
  });
}
