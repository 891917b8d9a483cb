/** Contract: the site settings the widget reads, and protected content (which plans open a space; items' url and body). */
import { expect, test } from 'vitest';
import { MissingReferenceError } from '../../src/service/store/errors';
import { type Ctx, expectRejects, newPlan, newSite } from './fixtures';

export function contentAccessTests(ctx: Ctx): void {
  test('a new site has no member menu and no after-registration action unless created with them', async () => {
    expect(ctx.a.memberMenu).toBeUndefined();
    expect(ctx.a.afterRegistration).toBeUndefined();
    const input = newSite('gamma', { memberMenu: true, afterRegistration: { action: 'redirect', url: 'https://gamma.example.com/next' } });
    const created = await ctx.store.createSite(input);
    expect(created).toEqual({ ...input, id: created.id });
    expect(await ctx.store.getSite(created.id)).toEqual(created);
  });

  test('updateSite sets and clears the member menu and replaces the after-registration action, touching nothing else', async () => {
    const on = await ctx.store.updateSite(ctx.a.id, { memberMenu: true, afterRegistration: { action: 'plans' } });
    expect(on).toEqual({ ...ctx.a, memberMenu: true, afterRegistration: { action: 'plans' } });
    expect(await ctx.store.getSite(ctx.a.id)).toEqual(on);
    const redirect = { action: 'redirect' as const, url: 'https://alpha.example.com/thanks' };
    expect(await ctx.store.updateSite(ctx.a.id, { afterRegistration: redirect })).toEqual({ ...on, afterRegistration: redirect });
    const off = await ctx.store.updateSite(ctx.a.id, { memberMenu: false });
    expect(off).toEqual({ ...ctx.a, afterRegistration: redirect });
    expect(off).not.toHaveProperty('memberMenu');
    expect(await ctx.store.getSite(ctx.b.id)).toEqual(ctx.b);
  });

  async function library() {
    const gold = (await ctx.store.createPlan(newPlan(ctx.a.id, { name: 'Gold' }))).id;
    const silver = (await ctx.store.createPlan(newPlan(ctx.a.id, { name: 'Silver' }))).id;
    const bPlan = (await ctx.store.createPlan(newPlan(ctx.b.id))).id;
    const space = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Library', planIds: [silver, gold, silver] });
    const closed = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Closed' });
    const article = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: space, name: 'Intro', type: 'article', body: '<p>Hi</p>' });
    const video = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: space, name: 'Talk', type: 'video', url: 'https://cdn.example.com/talk.mp4' });
    const secret = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: closed, name: 'Secret', type: 'file', url: 'https://cdn.example.com/s.pdf' });
    return { gold, silver, bPlan, space, closed, article, video, secret };
  }

  test('getContentItem answers the item with its url or body, its space, and the plans that open the space, each once, ascending', async () => {
    const l = await library();
    expect(await ctx.store.getContentItem(ctx.a.id, l.article)).toEqual({
      id: l.article, siteId: ctx.a.id, key: `item-${l.article}`, spaceId: l.space, name: 'Intro', type: 'article', body: '<p>Hi</p>',
      space: { id: l.space, name: 'Library' }, planIds: [l.gold, l.silver],
    });
    expect(await ctx.store.getContentItem(ctx.a.id, l.video)).toEqual({
      id: l.video, siteId: ctx.a.id, key: `item-${l.video}`, spaceId: l.space, name: 'Talk', type: 'video', url: 'https://cdn.example.com/talk.mp4',
      space: { id: l.space, name: 'Library' }, planIds: [l.gold, l.silver],
    });
    expect((await ctx.store.getContentItem(ctx.a.id, l.secret))?.planIds).toEqual([]);
    // listContentNodes carries url and body too.
    expect((await ctx.store.listContentNodes(ctx.a.id)).map((n) => n.url ?? n.body)).toEqual([
      '<p>Hi</p>', 'https://cdn.example.com/talk.mp4', 'https://cdn.example.com/s.pdf',
    ]);
  });

  test('getContentItem is undefined for an unknown item and for another site’s item', async () => {
    const l = await library();
    expect(await ctx.store.getContentItem(ctx.b.id, l.article)).toBeUndefined();
    expect(await ctx.store.getContentItem(ctx.a.id, l.secret + 1000)).toBeUndefined();
  });

  test('createContentSpace rejects an unknown plan or another site’s plan with MissingReferenceError on planIds, creating no space', async () => {
    const l = await library();
    await expectRejects(
      ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'X', planIds: [l.gold, l.bPlan] }),
      MissingReferenceError,
      'planIds',
    );
    await expectRejects(
      ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Y', planIds: [l.bPlan + 1000] }),
      MissingReferenceError,
      'planIds',
    );
    // No space was left behind: a node naming the next space id finds none.
    await expectRejects(
      ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: l.closed + 1, name: 'Z', type: 'file', url: 'https://x.example/z' }),
      MissingReferenceError,
      'spaceId',
    );
  });
}
