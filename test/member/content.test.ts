/**
 * Protected content (spec 4.1 "Protected content", 2.6): GET /content/{id} checks the member's
 * plans in the service, answers the item in the view its type supports, and records the viewing
 * for the Admin API; GET /content/{id}/plans names the public plans that open it.
 */
import { expect, test } from 'vitest';
import type { ContentAccessPlans, ContentItem, PlanOffer } from '../../src/contract/member';
import { ADA, BASE, DAY, GRACE, OTHER_BASE, OTTO, expectError, forEachStore, jsonOf, type MemberCtx } from './support';

const content = (ctx: MemberCtx, token: string, id: number | string, query = '', sub = '') => ctx.authed(token, `${BASE}/content/${id}${sub}${query}`);
const views = async (ctx: MemberCtx, memberId: number) =>
  (await ctx.store.listContentViews(ctx.demo.site.id, { memberId }, { limit: 100 })).items;

forEachStore((fresh) => {
  test('a member whose plan opens the space gets the article, in the dialog, sanitized, and the viewing is recorded once per request', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const c = ctx.demo.contentIds;
    const item = await jsonOf<ContentItem>(await content(ctx, token, c.welcome!), 200);
    expect(item).toStrictEqual({
      id: c.welcome,
      name: 'Welcome',
      type: 'article',
      space: { id: expect.any(Number), name: 'Getting started' },
      view: 'popup', // an article has nothing to download
      body: '<h3>Welcome</h3><p>Start with the <strong>tour</strong>.</p>',
    });
    const recorded = await views(ctx, ctx.demo.memberIds.ada!);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ nodeId: c.welcome, viewedAt: ctx.now(), node: { name: 'Welcome', type: 'article' }, space: { name: 'Getting started' } });
    ctx.advance(1000);
    await jsonOf(await content(ctx, token, c.welcome!), 200);
    expect((await views(ctx, ctx.demo.memberIds.ada!)).map((v) => v.viewedAt)).toEqual([ctx.now() - 1000, ctx.now()]);
  });

  test('the view asked for is used when the type has it, else the type’s only one; download is the default', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const c = ctx.demo.contentIds;
    const viewOf = async (id: number, query = '') => (await jsonOf<ContentItem>(await content(ctx, token, id, query), 200)).view;
    expect(await viewOf(c.tour!)).toBe('download');
    expect(await viewOf(c.tour!, '?view=popup')).toBe('popup');
    expect(await viewOf(c.tour!, '?view=download')).toBe('download');
    expect(await viewOf(c.starterKit!, '?view=popup')).toBe('download'); // a file is only downloaded
    expect(await viewOf(c.welcome!, '?view=download')).toBe('popup');
    expect(await viewOf(c.reading!, '?view=popup')).toBe('popup');
    const tour = await jsonOf<ContentItem>(await content(ctx, token, c.tour!), 200);
    expect(tour).toStrictEqual({
      id: c.tour, name: 'Tour of the library', type: 'video', space: { id: expect.any(Number), name: 'Getting started' },
      view: 'download', url: 'https://demo.localhost/library/tour.mp4',
    });
  });

  test('an item is named by its key from the site file as well as by its id; an unknown key is 404', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const c = ctx.demo.contentIds;
    // Items made without a key (the fixtures) have `item-<id>`.
    const byId = await jsonOf<ContentItem>(await content(ctx, token, c.welcome!), 200);
    expect(await jsonOf<ContentItem>(await content(ctx, token, `item-${c.welcome}`), 200)).toStrictEqual(byId);
    expect(await jsonOf<ContentAccessPlans>(await content(ctx, token, `item-${c.welcome}`, '', '/plans'), 200)).toEqual(
      await jsonOf<ContentAccessPlans>(await content(ctx, token, c.welcome!, '', '/plans'), 200),
    );
    for (const unknown of ['no-such-item', `item-${c.welcome}x`, '.hidden']) {
      await expectError(await content(ctx, token, unknown), 404, 'notFound', 'contentId');
    }
  });

  test('a member with no plan opening the space gets 403 noAccess, and nothing is recorded', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    await expectError(await content(ctx, token, ctx.demo.contentIds.welcome!), 403, 'noAccess', 'contentId');
    expect(await views(ctx, ctx.demo.memberIds.grace!)).toEqual([]);
  });

  test('only an active membership opens content: cancelled, expired or past its expiry date does not', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const c = ctx.demo.contentIds;
    const site = ctx.demo.site.id;
    const monthly = (await ctx.store.listMembershipsOfMember(site, ctx.demo.memberIds.ada!)).find((m) => m.planId === ctx.demo.planIds.monthly)!;
    const community = (await ctx.store.listMembershipsOfMember(site, ctx.demo.memberIds.ada!)).find((m) => m.planId === ctx.demo.planIds.community)!;
    await jsonOf(await content(ctx, token, c.interview!), 200); // Masterclasses: monthly opens it
    await ctx.store.updateMembership(site, monthly.id, { status: 'cancelled' });
    await expectError(await content(ctx, token, c.interview!), 403, 'noAccess');
    await jsonOf(await content(ctx, token, c.welcome!), 200); // Getting started: community still opens it
    await ctx.store.updateMembership(site, community.id, { expiresAt: ctx.now() + DAY });
    await jsonOf(await content(ctx, token, c.welcome!), 200);
    ctx.advance(DAY); // stored active, but the expiry date has come
    await expectError(await content(ctx, token, c.welcome!), 403, 'noAccess');
    expect(await views(ctx, ctx.demo.memberIds.ada!)).toHaveLength(3);
  });

  test('content needs a session; an unknown id, another site’s item or a bad id is 404; a bad view is 400', async () => {
    const ctx = await fresh();
    const c = ctx.demo.contentIds;
    await expectError(await ctx.request(`${BASE}/content/${c.welcome}`), 401, 'unauthenticated');
    const { token } = await ctx.session(ADA);
    await expectError(await content(ctx, token, 999_999), 404, 'notFound', 'contentId');
    await expectError(await content(ctx, token, 'welcome'), 404, 'notFound', 'contentId');
    await expectError(await content(ctx, token, '1e3'), 404, 'notFound', 'contentId');
    await expectError(await content(ctx, token, c.welcome!, '?view=stream'), 400, 'invalidField', 'view');
    const otto = await ctx.session(OTTO, OTHER_BASE);
    await expectError(
      await ctx.request(`${OTHER_BASE}/content/${c.welcome}`, { token: otto.token, origin: null }),
      404,
      'notFound',
    );
    await expectError(await ctx.authed(token, `${BASE}/content/${c.welcome}`, { method: 'POST' }), 405, 'methodNotAllowed');
  });

  test('GET /content/{id}/plans names the public open plans that open it, to anyone', async () => {
    const ctx = await fresh();
    const c = ctx.demo.contentIds;
    const answerFor = async (id: number) => jsonOf<ContentAccessPlans>(await ctx.request(`${BASE}/content/${id}/plans`), 200);
    const plansOf = async (id: number) => (await answerFor(id)).plans;
    const welcome = await answerFor(c.welcome!);
    // The item's name, for the paywall to say what is closed, and each plan priced as GET /plans prices it.
    expect(welcome.name).toBe('Welcome');
    expect(welcome.plans.map((p) => [p.publicId, p.name])).toEqual([
      ['community', 'Community'],
      ['lifetime', 'Lifetime'],
      ['course3', 'Course in three payments'],
      ['monthly', 'Monthly'],
    ]);
    const offers = await jsonOf<PlanOffer[]>(await ctx.request(`${BASE}/plans`), 200);
    expect(welcome.plans).toEqual(offers.filter((o) => welcome.plans.some((p) => p.publicId === o.publicId)));
    expect((await plansOf(c.interview!)).map((p) => p.publicId)).toEqual(['lifetime', 'course3', 'monthly']);
    await expectError(await ctx.request(`${BASE}/content/999999/plans`), 404, 'notFound');
  });

  test('viewings recorded by the member API are in the content views the Admin API lists (store query of /contentLibrary/views)', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    await jsonOf(await content(ctx, token, ctx.demo.contentIds.reading!, '?view=popup'), 200);
    const page = await ctx.store.listContentViews(ctx.demo.site.id, { nodeId: ctx.demo.contentIds.reading }, { limit: 10 });
    expect(page.items).toEqual([
      expect.objectContaining({ memberId: ctx.demo.memberIds.ada, node: { id: ctx.demo.contentIds.reading, name: 'Further reading', type: 'link' }, space: expect.objectContaining({ name: 'Masterclasses' }) }),
    ]);
  });
});
