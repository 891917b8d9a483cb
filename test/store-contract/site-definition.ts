/**
 * Contract: what `svc sites apply` needs of the store. Owner keys of plans, sign-up fields and
 * content items; archived fields, spaces and items; getSiteDefinition; applySiteChanges (one
 * transaction, all or nothing, refused on a stale revision); the billing a membership keeps when
 * its plan's price changes; the site settings the site file sets.
 */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type {
  ContentNodeRecord,
  MembershipRecord,
  NewMembership,
  NewPlan,
  PlanRecord,
  SignupFieldRecord,
} from '../../src/service/store/records';
import type {
  PlanChange,
  SignupFieldChange,
  SiteChangeSet,
  SiteDefinition,
} from '../../src/service/store/site-definition';
import { newField } from './accounts';
import { type Ctx, PLAN_TERMS, T0, addMembers, expectRejects, newMember, newPlan, newSite } from './fixtures';

/** When the site file is applied: the time archived rows record. */
const AT = T0 + 86_400_000;

const SUBSCRIPTION = PLAN_TERMS['subscription plan with a billing date and a signup fee']!;
/** The subscription's billing as it is created: what its members keep when it changes. */
const OLD_BILLING = (SUBSCRIPTION as Extract<typeof SUBSCRIPTION, { type: 'subscription' }>).billing;

/** Every part of a change set but the site, empty, at AT. */
const nothingElse = (): Omit<SiteChangeSet, 'site'> => ({
  at: AT,
  createPlans: [],
  updatePlans: [],
  createSignupFields: [],
  updateSignupFields: [],
  createSpaces: [],
  updateSpaces: [],
  createItems: [],
  updateItems: [],
});

type NewPlanOfSet = SiteChangeSet['createPlans'][number];
type ItemUpdate = SiteChangeSet['updateItems'][number];

/** Every field of the plan a PlanChange carries, as it is now, with `overrides` (any of a PlanChange's fields, terms included). */
function planChange(plan: PlanRecord, overrides: Record<string, unknown> = {}): PlanChange {
  const { siteId: _siteId, key: _key, publicId: _publicId, colorCode: _colorCode, createdAt: _createdAt, ...rest } = plan;
  return { ...rest, ...overrides } as PlanChange;
}

/** A new plan of a change set: `newPlan`'s fields without the site, with the owner's key. */
function planOfSet(key: string, overrides: Partial<NewPlan> = {}, terms = PLAN_TERMS['free plan that never expires']): NewPlanOfSet {
  const { siteId: _siteId, ...rest } = newPlan(0, { key, publicId: `pln_${key}_${T0}`, name: key, ...overrides }, terms);
  return rest as NewPlanOfSet;
}

/** The change without a description (absent: the plan has none after it). */
function withoutDescription(change: PlanChange): PlanChange {
  const { description: _description, ...rest } = change;
  return rest as PlanChange;
}

function fieldChange(field: SignupFieldRecord, overrides: Partial<SignupFieldChange> = {}): SignupFieldChange {
  return {
    id: field.id,
    label: field.label,
    required: field.required,
    ...(field.options && { options: field.options }),
    position: field.position,
    archived: field.archivedAt !== undefined,
    ...overrides,
  };
}

function itemChange(item: ContentNodeRecord, space: string, overrides: Partial<ItemUpdate> = {}): ItemUpdate {
  return {
    id: item.id,
    name: item.name,
    type: item.type,
    ...(item.url !== undefined && { url: item.url }),
    ...(item.body !== undefined && { body: item.body }),
    space,
    archived: item.archivedAt !== undefined,
    ...overrides,
  };
}

export function siteDefinitionTests(ctx: Ctx): void {
  const definition = async (siteId = ctx.a.id): Promise<SiteDefinition> => {
    const found = await ctx.store.getSiteDefinition(siteId);
    expect(found).toBeDefined();
    return found!;
  };

  /** A change set to a site, computed from its definition as it is now, changing only what `extra` says. */
  async function changeSet(extra: Partial<SiteChangeSet> = {}, siteId = ctx.a.id): Promise<SiteChangeSet> {
    const { revision } = await definition(siteId);
    return { ...nothingElse(), site: { id: siteId, revision, patch: {} }, ...extra };
  }

  /** A change set creating a site and nothing else yet. */
  const creating = (subdomain: string, extra: Partial<SiteChangeSet> = {}): SiteChangeSet => ({
    ...nothingElse(),
    site: { create: newSite(subdomain) },
    ...extra,
  });

  const membership = (memberId: number, planId: number, status: NewMembership['status'] = 'active', siteId = ctx.a.id): NewMembership => ({
    siteId,
    memberId,
    planId,
    status,
    createdAt: T0,
    paymentFailure: false,
  });

  const allMemberships = async (siteId = ctx.a.id): Promise<MembershipRecord[]> =>
    (await ctx.store.listMemberships(siteId, {}, { limit: 1000 })).items;

  /**
   * Site a as a site file describes it: plans gold (subscription, key `gold`) and free (keyed by
   * its public id); fields company (key `company`) and agree; spaces Library (gold) and Extras
   * (free, gold); items intro (key `intro`) and talk in Library, slides (keyed `item-<id>`) in
   * Extras; ann active and bob cancelled on gold, ann active on free. Site b has a plan, field,
   * space and item with the same keys, and a membership.
   */
  async function world() {
    const gold = await ctx.store.createPlan(
      newPlan(ctx.a.id, { key: 'gold', name: 'Gold', description: '<p>Gold</p>', contentUrl: 'https://alpha.example.com/gold' }, SUBSCRIPTION),
    );
    const free = await ctx.store.createPlan(newPlan(ctx.a.id, { publicId: `pln_free_${ctx.a.id}`, name: 'Free' }));
    const [companyId, agreeId] = (await ctx.store.createSignupFields([
      newField(ctx.a.id, {
        key: 'company',
        type: 'select',
        label: 'Company',
        position: 1,
        options: [
          { label: 'Acme', value: 'acme' },
          { label: 'Other', value: 'other' },
        ],
      }),
      newField(ctx.a.id, { type: 'checkbox', label: 'I agree', required: true, position: 2 }),
    ])) as [number, number];
    const library = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Library', planIds: [gold.id] });
    // Plans given out of order: spaces list them ascending.
    const extras = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Extras', planIds: [free.id, gold.id, free.id] });
    const introId = await ctx.store.createContentNode({
      siteId: ctx.a.id, key: 'intro', spaceId: library, name: 'Intro', type: 'article', body: '<p>Hi</p>',
    });
    const talkId = await ctx.store.createContentNode({
      siteId: ctx.a.id, key: 'talk', spaceId: library, name: 'Talk', type: 'video', url: 'https://cdn.example.com/talk.mp4',
    });
    const slidesId = await ctx.store.createContentNode({
      siteId: ctx.a.id, spaceId: extras, name: 'Slides', type: 'file', url: 'https://cdn.example.com/slides.pdf',
    });
    const [ann, bob] = (await addMembers(ctx.store, ctx.a.id, 2)) as [number, number];
    await ctx.store.updateMember(ctx.a.id, ann, { signupValues: [{ fieldId: companyId, value: 'acme' }, { fieldId: agreeId, value: true }] });
    const [annGold, bobGold, annFree] = (await ctx.store.createMemberships([
      membership(ann, gold.id),
      membership(bob, gold.id, 'cancelled'),
      membership(ann, free.id),
    ])) as [number, number, number];

    const bPlan = await ctx.store.createPlan(newPlan(ctx.b.id, { key: 'gold' }, SUBSCRIPTION));
    const [bField] = (await ctx.store.createSignupFields([newField(ctx.b.id, { key: 'company' })])) as [number];
    const bSpace = await ctx.store.createContentSpace({ siteId: ctx.b.id, name: 'Library', planIds: [bPlan.id] });
    const bItem = await ctx.store.createContentNode({ siteId: ctx.b.id, key: 'intro', spaceId: bSpace, name: 'B', type: 'link', url: 'https://b.example.com' });
    const [bMember] = (await addMembers(ctx.store, ctx.b.id, 1)) as [number];
    await ctx.store.createMemberships([membership(bMember, bPlan.id, 'active', ctx.b.id)]);

    const def = await definition();
    const field = (id: number) => def.signupFields.find((f) => f.id === id)!;
    const item = (id: number) => def.items.find((i) => i.id === id)!;
    return {
      gold, free, company: field(companyId), agree: field(agreeId), library, extras,
      intro: item(introId), talk: item(talkId), slides: item(slidesId),
      ann, bob, annGold, bobGold, annFree, bPlan, bField, bSpace, bItem, bMember,
    };
  }

  // Owner keys -------------------------------------------------------------------------------

  test('createPlan keeps the key it is given; getPlan, listPlans and getSiteDefinition carry it', async () => {
    const input = newPlan(ctx.a.id, { key: 'gold' });
    const created = await ctx.store.createPlan(input);
    expect(created).toStrictEqual({ ...input, id: created.id, key: 'gold' });
    expect(await ctx.store.getPlan(ctx.a.id, created.id)).toStrictEqual(created);
    expect((await ctx.store.listPlans(ctx.a.id, { statuses: ['enabled'] }, { limit: 10 })).items).toStrictEqual([created]);
    expect((await definition()).plans).toStrictEqual([{ ...created, membershipCount: 0, activeMemberCount: 0 }]);
  });

  test('createPlan refuses a key taken in the site, its own or another plan’s public id, with ConflictError on key; another site may use it', async () => {
    const gold = await ctx.store.createPlan(newPlan(ctx.a.id, { key: 'gold' }));
    const silver = await ctx.store.createPlan(newPlan(ctx.a.id, { publicId: 'pln_silver' }));
    expect(silver.key).toBe('pln_silver');
    await expectRejects(ctx.store.createPlan(newPlan(ctx.a.id, { key: 'gold' })), ConflictError, 'key');
    // A key may not be another plan's default key (its public id)…
    await expectRejects(ctx.store.createPlan(newPlan(ctx.a.id, { key: 'pln_silver' })), ConflictError, 'key');
    // …and a plan without a key may not take a key that is taken as its default.
    await expectRejects(ctx.store.createPlan(newPlan(ctx.a.id, { publicId: 'gold' })), ConflictError, 'key');
    expect((await ctx.store.listPlans(ctx.a.id, { statuses: ['enabled'] }, { limit: 10 })).items).toStrictEqual([gold, silver]);

    const other = await ctx.store.createPlan(newPlan(ctx.b.id, { key: 'gold' }));
    const otherSilver = await ctx.store.createPlan(newPlan(ctx.b.id, { key: 'pln_silver' }));
    expect([other.key, otherSilver.key]).toEqual(['gold', 'pln_silver']);
    expect(await ctx.store.countPlans(ctx.b.id, { statuses: ['enabled'] })).toBe(2);
  });

  test('createSignupFields keys a field `field-<id>` unless given a key, and refuses a key taken in the site (or twice in the batch) with ConflictError on key, creating none; another site may use it', async () => {
    const [company, plain] = (await ctx.store.createSignupFields([
      newField(ctx.a.id, { key: 'company', position: 1 }),
      newField(ctx.a.id, { label: 'Plain', position: 2 }),
    ])) as [number, number];
    const before = await ctx.store.listSignupFields(ctx.a.id);
    expect(before.map((f) => [f.id, f.key])).toEqual([
      [company, 'company'],
      [plain, `field-${plain}`],
    ]);

    await expectRejects(
      ctx.store.createSignupFields([newField(ctx.a.id, { key: 'fresh' }), newField(ctx.a.id, { key: 'company' })]),
      ConflictError,
      'key',
    );
    await expectRejects(
      ctx.store.createSignupFields([newField(ctx.a.id, { key: 'twice' }), newField(ctx.a.id, { key: 'twice' })]),
      ConflictError,
      'key',
    );
    await expectRejects(ctx.store.createSignupFields([newField(ctx.a.id, { key: `field-${plain}` })]), ConflictError, 'key');
    expect(await ctx.store.listSignupFields(ctx.a.id)).toStrictEqual(before);

    const [other] = (await ctx.store.createSignupFields([newField(ctx.b.id, { key: 'company' })])) as [number];
    expect((await ctx.store.listSignupFields(ctx.b.id)).map((f) => [f.id, f.key])).toEqual([[other, 'company']]);
  });

  test('createContentNode keys an item `item-<id>` unless given a key, and refuses a key taken in the site with ConflictError on key; another site may use it', async () => {
    const space = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Library' });
    const intro = await ctx.store.createContentNode({ siteId: ctx.a.id, key: 'intro', spaceId: space, name: 'Intro', type: 'article' });
    const plain = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: space, name: 'Plain', type: 'article' });
    expect((await ctx.store.listContentNodes(ctx.a.id)).map((n) => [n.id, n.key])).toEqual([
      [intro, 'intro'],
      [plain, `item-${plain}`],
    ]);
    expect((await ctx.store.getContentItem(ctx.a.id, intro))?.key).toBe('intro');

    await expectRejects(
      ctx.store.createContentNode({ siteId: ctx.a.id, key: 'intro', spaceId: space, name: 'Again', type: 'article' }),
      ConflictError,
      'key',
    );
    await expectRejects(
      ctx.store.createContentNode({ siteId: ctx.a.id, key: `item-${plain}`, spaceId: space, name: 'Again', type: 'article' }),
      ConflictError,
      'key',
    );
    expect((await ctx.store.listContentNodes(ctx.a.id)).map((n) => n.id)).toEqual([intro, plain]);

    const bSpace = await ctx.store.createContentSpace({ siteId: ctx.b.id, name: 'Library' });
    const other = await ctx.store.createContentNode({ siteId: ctx.b.id, key: 'intro', spaceId: bSpace, name: 'Intro', type: 'article' });
    expect((await ctx.store.getContentItem(ctx.b.id, other))?.key).toBe('intro');
  });

  test('a field or item made without a key is refused with ConflictError on key when its default key (`field-<id>`, `item-<id>`) is taken', async () => {
    // Ids ascend one by one here, so the next id, and with it the next default key, is known.
    const [first] = (await ctx.store.createSignupFields([newField(ctx.a.id)])) as [number];
    const [taker] = (await ctx.store.createSignupFields([newField(ctx.a.id, { key: `field-${first + 2}` })])) as [number];
    expect(taker).toBe(first + 1);
    const fields = await ctx.store.listSignupFields(ctx.a.id);
    await expectRejects(ctx.store.createSignupFields([newField(ctx.a.id, { label: 'Default' })]), ConflictError, 'key');
    expect(await ctx.store.listSignupFields(ctx.a.id)).toStrictEqual(fields);

    const space = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Library' });
    const item = await ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: space, name: 'First', type: 'article' });
    const itemTaker = await ctx.store.createContentNode({ siteId: ctx.a.id, key: `item-${item + 2}`, spaceId: space, name: 'Taker', type: 'article' });
    expect(itemTaker).toBe(item + 1);
    const items = await ctx.store.listContentNodes(ctx.a.id);
    await expectRejects(ctx.store.createContentNode({ siteId: ctx.a.id, spaceId: space, name: 'Default', type: 'article' }), ConflictError, 'key');
    expect(await ctx.store.listContentNodes(ctx.a.id)).toStrictEqual(items);
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
  });

  // Archiving ----------------------------------------------------------------------------------

  test('an archived sign-up field leaves listSignupFields but not getSiteDefinition; archiving it again keeps the first time; un-archiving brings it back with the member’s values', async () => {
    const w = await world();
    const liveFields = await ctx.store.listSignupFields(ctx.a.id);
    expect(liveFields).toStrictEqual([w.company, w.agree]);
    const values = await ctx.store.listSignupValues(ctx.a.id, w.ann);
    expect(values).toEqual([
      { fieldId: w.company.id, value: 'acme' },
      { fieldId: w.agree.id, value: true },
    ]);

    await ctx.store.applySiteChanges(await changeSet({ updateSignupFields: [fieldChange(w.company, { archived: true })] }));
    expect(await ctx.store.listSignupFields(ctx.a.id)).toStrictEqual([w.agree]);
    expect((await definition()).signupFields).toStrictEqual([{ ...w.company, archivedAt: AT }, w.agree]);

    await ctx.store.applySiteChanges({ ...(await changeSet({ updateSignupFields: [fieldChange(w.company, { archived: true })] })), at: AT + 5000 });
    expect((await definition()).signupFields).toStrictEqual([{ ...w.company, archivedAt: AT }, w.agree]);

    await ctx.store.applySiteChanges(await changeSet({ updateSignupFields: [fieldChange(w.company, { archived: false })] }));
    const back = await ctx.store.listSignupFields(ctx.a.id);
    expect(back).toStrictEqual([w.company, w.agree]);
    expect(back[0]).not.toHaveProperty('archivedAt');
    expect(await ctx.store.listSignupValues(ctx.a.id, w.ann)).toEqual(values);
    // Site b's field with the same key was never touched.
    expect((await ctx.store.listSignupFields(ctx.b.id)).map((f) => f.id)).toEqual([w.bField]);
  });

  test('an archived item, and every item of an archived space, leave listContentNodes and getContentItem; un-archiving brings them back; their views are kept', async () => {
    const w = await world();
    const liveItems = await ctx.store.listContentNodes(ctx.a.id);
    expect(liveItems).toStrictEqual([w.intro, w.talk, w.slides]);
    const slidesItem = await ctx.store.getContentItem(ctx.a.id, w.slides.id);
    expect(slidesItem).toStrictEqual({ ...w.slides, space: { id: w.extras, name: 'Extras' }, planIds: [w.gold.id, w.free.id].sort((x, y) => x - y) });
    const [viewId] = await ctx.store.createContentViews([{ siteId: ctx.a.id, memberId: w.ann, nodeId: w.intro.id, viewedAt: T0 }]);
    const views = await ctx.store.listContentViews(ctx.a.id, {}, { limit: 10 });
    expect(views.items.map((v) => v.id)).toEqual([viewId]);

    // The item alone.
    await ctx.store.applySiteChanges(await changeSet({ updateItems: [itemChange(w.intro, 'Library', { archived: true })] }));
    expect(await ctx.store.listContentNodes(ctx.a.id)).toStrictEqual([w.talk, w.slides]);
    expect(await ctx.store.getContentItem(ctx.a.id, w.intro.id)).toBeUndefined();
    expect((await ctx.store.getContentItem(ctx.a.id, w.talk.id))?.id).toBe(w.talk.id);
    expect((await definition()).items).toStrictEqual([{ ...w.intro, archivedAt: AT }, w.talk, w.slides]);
    expect(await ctx.store.listContentViews(ctx.a.id, {}, { limit: 10 })).toStrictEqual(views);

    // The item back, and the space of slides archived: slides is not archived itself, yet cannot be opened.
    await ctx.store.applySiteChanges(
      await changeSet({
        updateItems: [itemChange(w.intro, 'Library', { archived: false })],
        updateSpaces: [{ id: w.extras, planKeys: ['gold', w.free.key], archived: true }],
      }),
    );
    expect(await ctx.store.listContentNodes(ctx.a.id)).toStrictEqual([w.intro, w.talk]);
    expect(await ctx.store.getContentItem(ctx.a.id, w.slides.id)).toBeUndefined();
    expect((await ctx.store.getContentItem(ctx.a.id, w.intro.id))?.id).toBe(w.intro.id);
    const def = await definition();
    expect(def.items).toStrictEqual([w.intro, w.talk, w.slides]);
    expect(def.spaces.find((s) => s.id === w.extras)).toStrictEqual({
      id: w.extras, siteId: ctx.a.id, name: 'Extras', planIds: [w.gold.id, w.free.id].sort((x, y) => x - y), archivedAt: AT,
    });

    // The space back.
    await ctx.store.applySiteChanges(await changeSet({ updateSpaces: [{ id: w.extras, planKeys: ['gold', w.free.key], archived: false }] }));
    expect(await ctx.store.listContentNodes(ctx.a.id)).toStrictEqual(liveItems);
    expect(await ctx.store.getContentItem(ctx.a.id, w.slides.id)).toStrictEqual(slidesItem);
    expect((await definition()).spaces.find((s) => s.id === w.extras)).not.toHaveProperty('archivedAt');
    expect(await ctx.store.listContentViews(ctx.a.id, {}, { limit: 10 })).toStrictEqual(views);
    // Site b's item with the same key was never touched.
    expect((await ctx.store.listContentNodes(ctx.b.id)).map((n) => n.id)).toEqual([w.bItem]);
  });

  // getSiteDefinition --------------------------------------------------------------------------

  test('getSiteDefinition reads the site, every plan whatever its status with its membership counts, and every field, space and item, archived ones included; nothing of another site', async () => {
    const w = await world();
    const archivedPlan = await ctx.store.createPlan(newPlan(ctx.a.id, { key: 'old', status: 'archived' }));
    const deletedPlan = await ctx.store.createPlan(newPlan(ctx.a.id, { key: 'gone', status: 'deleted' }));
    const [cy, dee] = (await addMembers(ctx.store, ctx.a.id, 2, 'more')) as [number, number];
    await ctx.store.createMemberships([
      membership(w.ann, w.gold.id), // ann holds gold twice: one active member, two memberships
      membership(cy, w.gold.id, 'expired'),
      membership(dee, w.gold.id),
      membership(cy, archivedPlan.id, 'cancelled'),
    ]);
    // A field placed before the others (position 0), and one at company's position, after it by id.
    const [first, tied] = (await ctx.store.createSignupFields([
      newField(ctx.a.id, { key: 'first', position: 0 }),
      newField(ctx.a.id, { key: 'tied', position: 1 }),
    ])) as [number, number];
    const closed = await ctx.store.createContentSpace({ siteId: ctx.a.id, name: 'Closed' });
    const before = await definition();
    await ctx.store.applySiteChanges(
      await changeSet({
        updateSignupFields: [fieldChange(w.agree, { archived: true })],
        updateSpaces: [{ id: closed, planKeys: [], archived: true }],
        updateItems: [itemChange(w.talk, 'Library', { archived: true })],
      }),
    );

    const def = await definition();
    // ann (active, twice), bob (cancelled), cy (expired), dee (active): five memberships, two active members.
    const gold = { ...w.gold, membershipCount: 5, activeMemberCount: 2 };
    expect(def).toStrictEqual({
      site: await ctx.store.getSite(ctx.a.id),
      revision: before.revision + 1,
      plans: [
        gold,
        { ...w.free, membershipCount: 1, activeMemberCount: 1 },
        { ...archivedPlan, membershipCount: 1, activeMemberCount: 0 },
        { ...deletedPlan, membershipCount: 0, activeMemberCount: 0 },
      ],
      signupFields: [
        { id: first, siteId: ctx.a.id, key: 'first', type: 'text', label: 'Company', required: false, position: 0 },
        w.company,
        { id: tied, siteId: ctx.a.id, key: 'tied', type: 'text', label: 'Company', required: false, position: 1 },
        { ...w.agree, archivedAt: AT },
      ],
      spaces: [
        { id: w.library, siteId: ctx.a.id, name: 'Library', planIds: [w.gold.id] },
        { id: w.extras, siteId: ctx.a.id, name: 'Extras', planIds: [w.gold.id, w.free.id].sort((x, y) => x - y) },
        { id: closed, siteId: ctx.a.id, name: 'Closed', planIds: [], archivedAt: AT },
      ],
      items: [w.intro, { ...w.talk, archivedAt: AT }, w.slides],
    });
    expect(def.signupFields.map((f) => f.id)).toEqual([first, w.company.id, tied, w.agree.id]);
    expect(def.signupFields.map((f) => f.key)).toEqual(['first', 'company', 'tied', `field-${w.agree.id}`]);

    const bDef = await definition(ctx.b.id);
    expect(bDef.site).toStrictEqual(ctx.b);
    expect(bDef.plans).toStrictEqual([{ ...w.bPlan, membershipCount: 1, activeMemberCount: 1 }]);
    expect(bDef.signupFields.map((f) => f.id)).toEqual([w.bField]);
    expect(bDef.spaces).toStrictEqual([{ id: w.bSpace, siteId: ctx.b.id, name: 'Library', planIds: [w.bPlan.id] }]);
    expect(bDef.items.map((i) => [i.id, i.key])).toEqual([[w.bItem, 'intro']]);

    expect(await ctx.store.getSiteDefinition(ctx.b.id + 1000)).toBeUndefined();
  });

  test('a caller changing a returned definition does not change what the store answers next', async () => {
    const w = await world();
    const def = await definition();
    const copy = structuredClone(def);
    def.site.name = 'Changed';
    def.plans[0]!.name = 'Changed';
    def.plans[0]!.membershipCount = 99;
    def.signupFields[0]!.options?.push({ label: 'Injected', value: 'x' });
    def.spaces[0]!.planIds.push(999);
    def.items[0]!.name = 'Changed';
    expect(await definition()).toStrictEqual(copy);
    expect(w.gold.name).toBe('Gold');
  });

  // Creating a site ----------------------------------------------------------------------------

  test('applySiteChanges creates a whole site: plans, fields, spaces naming new plans by key, items naming new spaces by name; it all reads back', async () => {
    const input = newSite('gamma', {
      name: 'Gamma Club',
      defaultCurrency: 'eur',
      locale: 'de',
      memberMenu: true,
      afterRegistration: { action: 'plans' },
      checkboxLabels: { yes: 'Ja', no: 'Nein' },
    });
    const gold = planOfSet('gold', { name: 'Gold', description: '<p>Best</p>', welcomeUrl: 'https://gamma.example.com/hi' }, SUBSCRIPTION);
    const free = planOfSet('free', { isPublic: false });
    const siteId = await ctx.store.applySiteChanges({
      ...creating('gamma'),
      site: { create: input },
      createPlans: [gold, free],
      createSignupFields: [
        { key: 'company', type: 'text', label: 'Company', required: true, position: 2 },
        { key: 'topic', type: 'select', label: 'Topic', required: false, position: 1, options: [{ label: 'A', value: 'a' }] },
      ],
      createSpaces: [
        { name: 'Library', planKeys: ['free', 'gold', 'free'] },
        { name: 'Closed', planKeys: [] },
      ],
      createItems: [
        { key: 'intro', name: 'Intro', type: 'article', body: '<p>Hi</p>', space: 'Library' },
        { key: 'secret', name: 'Secret', type: 'file', url: 'https://cdn.example.com/s.pdf', space: 'Closed' },
      ],
    });
    expect(typeof siteId).toBe('number');
    expect([ctx.a.id, ctx.b.id]).not.toContain(siteId);

    const site = { ...input, id: siteId };
    expect(await ctx.store.getSite(siteId)).toStrictEqual(site);
    expect(await ctx.store.getSiteBySubdomain('gamma')).toStrictEqual(site);
    expect(await ctx.store.listSites()).toStrictEqual([ctx.a, ctx.b, site]);

    const def = await definition(siteId);
    expect(def.site).toStrictEqual(site);
    expect(def.plans.map((p) => p.key)).toEqual(['gold', 'free']);
    const [goldRecord, freeRecord] = def.plans.map(({ membershipCount: _m, activeMemberCount: _a, ...plan }) => plan) as [PlanRecord, PlanRecord];
    expect(goldRecord).toStrictEqual({ ...gold, siteId, id: goldRecord.id });
    expect(freeRecord).toStrictEqual({ ...free, siteId, id: freeRecord.id });
    expect(def.plans.map((p) => [p.membershipCount, p.activeMemberCount])).toEqual([[0, 0], [0, 0]]);
    expect(await ctx.store.getPlan(siteId, goldRecord.id)).toStrictEqual(goldRecord);

    expect(def.signupFields.map(({ id: _id, ...f }) => f)).toStrictEqual([
      { siteId, key: 'topic', type: 'select', label: 'Topic', required: false, position: 1, options: [{ label: 'A', value: 'a' }] },
      { siteId, key: 'company', type: 'text', label: 'Company', required: true, position: 2 },
    ]);
    expect(await ctx.store.listSignupFields(siteId)).toStrictEqual(def.signupFields);

    const [library, closed] = def.spaces as [typeof def.spaces[number], typeof def.spaces[number]];
    expect(def.spaces).toStrictEqual([
      { id: library.id, siteId, name: 'Library', planIds: [goldRecord.id, freeRecord.id].sort((x, y) => x - y) },
      { id: closed.id, siteId, name: 'Closed', planIds: [] },
    ]);
    const [intro, secret] = def.items as [ContentNodeRecord, ContentNodeRecord];
    expect(def.items).toStrictEqual([
      { id: intro.id, siteId, key: 'intro', spaceId: library.id, name: 'Intro', type: 'article', body: '<p>Hi</p>' },
      { id: secret.id, siteId, key: 'secret', spaceId: closed.id, name: 'Secret', type: 'file', url: 'https://cdn.example.com/s.pdf' },
    ]);
    expect(await ctx.store.listContentNodes(siteId)).toStrictEqual(def.items);
    expect(await ctx.store.getContentItem(siteId, intro.id)).toStrictEqual({
      ...intro, space: { id: library.id, name: 'Library' }, planIds: library.planIds,
    });

    // The new site works like any other: members join its plans, and the next change set applies.
    const [member] = (await ctx.store.createMembers([newMember(siteId, 'ann@gamma.example.com')])) as [number];
    await ctx.store.createMemberships([membership(member, goldRecord.id, 'active', siteId)]);
    expect((await definition(siteId)).plans[0]).toMatchObject({ membershipCount: 1, activeMemberCount: 1 });
    await ctx.store.applySiteChanges(await changeSet({ site: { id: siteId, revision: def.revision, patch: { name: 'Gamma' } } }, siteId));
    expect(await definition(siteId)).toMatchObject({ revision: def.revision + 1, site: { ...site, name: 'Gamma' } });
    // The other sites did not change.
    expect(await ctx.store.getSite(ctx.a.id)).toStrictEqual(ctx.a);
    expect((await definition(ctx.a.id)).plans).toEqual([]);
  });

  test('applySiteChanges refuses to create a site whose subdomain is taken with ConflictError on subdomain, creating nothing', async () => {
    const aBefore = await definition(ctx.a.id);
    await expectRejects(
      ctx.store.applySiteChanges(creating('alpha', { createPlans: [planOfSet('gold')], createSpaces: [{ name: 'Library', planKeys: ['gold'] }] })),
      ConflictError,
      'subdomain',
    );
    expect(await ctx.store.listSites()).toStrictEqual([ctx.a, ctx.b]);
    expect(await definition(ctx.a.id)).toStrictEqual(aBefore);
  });

  test('a change set creating a site that fails at its last step creates no site and none of its rows', async () => {
    const failing = creating('gamma', {
      createPlans: [planOfSet('gold', {}, SUBSCRIPTION)],
      createSignupFields: [{ key: 'company', type: 'text', label: 'Company', required: false, position: 0 }],
      createSpaces: [{ name: 'Library', planKeys: ['gold'] }],
      createItems: [
        { key: 'intro', name: 'Intro', type: 'article', body: 'x', space: 'Library' },
        { key: 'lost', name: 'Lost', type: 'article', body: 'x', space: 'Nowhere' },
      ],
    });
    await expectRejects(ctx.store.applySiteChanges(failing), MissingReferenceError, 'space');
    expect(await ctx.store.listSites()).toStrictEqual([ctx.a, ctx.b]);
    expect(await ctx.store.getSiteBySubdomain('gamma')).toBeUndefined();

    // Nothing was left behind: the same site, fixed, creates with the same keys and public ids.
    const fixed = { ...failing, createItems: failing.createItems.slice(0, 1) };
    const siteId = await ctx.store.applySiteChanges(fixed);
    const def = await definition(siteId);
    expect(def.plans.map((p) => p.key)).toEqual(['gold']);
    expect(def.signupFields.map((f) => f.key)).toEqual(['company']);
    expect(def.spaces.map((s) => s.name)).toEqual(['Library']);
    expect(def.items.map((i) => i.key)).toEqual(['intro']);
  });

  // Updates ------------------------------------------------------------------------------------

  test('a plan’s highlight and features: created with it, changed, and gone when a change leaves them out', async () => {
    const silver = planOfSet('silver', { name: 'Silver', highlight: true, features: ['One', 'Two'] });
    await ctx.store.applySiteChanges(await changeSet({ createPlans: [silver] }));
    const made = (await definition()).plans.find((p) => p.key === 'silver')!;
    expect(made).toMatchObject({ highlight: true, features: ['One', 'Two'] });
    await ctx.store.applySiteChanges(await changeSet({ updatePlans: [planChange(made, { features: ['Three'] })] }));
    expect(await ctx.store.getPlan(ctx.a.id, made.id)).toMatchObject({ highlight: true, features: ['Three'] });
    const { highlight: _highlight, features: _features, ...plain } = planChange(made);
    await ctx.store.applySiteChanges(await changeSet({ updatePlans: [plain as PlanChange] }));
    const after = await ctx.store.getPlan(ctx.a.id, made.id);
    expect(after).not.toHaveProperty('highlight');
    expect(after).not.toHaveProperty('features');
  });

  test('applySiteChanges updates the site, plans, fields, spaces and items, creates new ones beside them, and bumps the revision by one', async () => {
    const w = await world();
    const before = await definition();
    const silver = planOfSet('silver', { name: 'Silver' });
    const siteId = await ctx.store.applySiteChanges(
      await changeSet({
        site: {
          id: ctx.a.id,
          revision: before.revision,
          patch: { name: 'Alpha Club', domain: 'alpha.org', defaultCurrency: 'eur', locale: 'fr', checkboxLabels: { yes: 'Oui', no: 'Non' } },
        },
        createPlans: [silver],
        // No description any more (cleared), a welcome URL now, the same billing.
        updatePlans: [withoutDescription(planChange(w.gold, { name: 'Gold+', status: 'disabled', isPublic: false, welcomeUrl: 'https://alpha.org/hi' }))],
        createSignupFields: [{ key: 'topic', type: 'textarea', label: 'Topic', required: false, position: 0 }],
        updateSignupFields: [
          fieldChange(w.company, { label: 'Firm', required: true, position: 3, options: [{ label: 'Initech', value: 'initech' }] }),
          fieldChange(w.agree, { options: undefined, label: 'Agreed' }),
        ],
        createSpaces: [{ name: 'Lounge', planKeys: ['silver'] }],
        updateSpaces: [{ id: w.library, planKeys: ['silver', 'gold'], archived: false }],
        createItems: [{ key: 'faq', name: 'FAQ', type: 'link', url: 'https://alpha.org/faq', space: 'Extras' }],
        // Moved into the space this change set creates; an article made a video.
        updateItems: [itemChange(w.intro, 'Lounge', { name: 'Welcome', type: 'video', body: undefined, url: 'https://cdn.example.com/w.mp4' })],
      }),
    );
    expect(siteId).toBe(ctx.a.id);

    const after = await definition();
    expect(after.revision).toBe(before.revision + 1);
    const site = { ...ctx.a, name: 'Alpha Club', domain: 'alpha.org', defaultCurrency: 'eur', locale: 'fr', checkboxLabels: { yes: 'Oui', no: 'Non' } };
    expect(after.site).toStrictEqual(site);
    expect(await ctx.store.getSite(ctx.a.id)).toStrictEqual(site);

    const { description: _description, ...goldWithout } = w.gold;
    const gold: PlanRecord = { ...goldWithout, name: 'Gold+', status: 'disabled', isPublic: false, welcomeUrl: 'https://alpha.org/hi' };
    expect(await ctx.store.getPlan(ctx.a.id, w.gold.id)).toStrictEqual(gold);
    const silverRecord = after.plans.find((p) => p.key === 'silver')!;
    expect(after.plans).toStrictEqual([
      { ...gold, membershipCount: 2, activeMemberCount: 1 },
      { ...w.free, membershipCount: 1, activeMemberCount: 1 },
      { ...silver, siteId: ctx.a.id, id: silverRecord.id, membershipCount: 0, activeMemberCount: 0 },
    ]);
    // The billing did not change: no membership keeps a copy of it.
    expect((await allMemberships()).filter((m) => 'billing' in m)).toEqual([]);

    const topic = after.signupFields.find((f) => f.key === 'topic')!;
    expect(after.signupFields).toStrictEqual([
      { id: topic.id, siteId: ctx.a.id, key: 'topic', type: 'textarea', label: 'Topic', required: false, position: 0 },
      { ...w.agree, label: 'Agreed' },
      { ...w.company, label: 'Firm', required: true, position: 3, options: [{ label: 'Initech', value: 'initech' }] },
    ]);
    expect(await ctx.store.listSignupFields(ctx.a.id)).toStrictEqual(after.signupFields);

    const lounge = after.spaces.find((s) => s.name === 'Lounge')!;
    expect(after.spaces).toStrictEqual([
      { id: w.library, siteId: ctx.a.id, name: 'Library', planIds: [w.gold.id, silverRecord.id].sort((x, y) => x - y) },
      { id: w.extras, siteId: ctx.a.id, name: 'Extras', planIds: [w.gold.id, w.free.id].sort((x, y) => x - y) },
      { id: lounge.id, siteId: ctx.a.id, name: 'Lounge', planIds: [silverRecord.id] },
    ]);
    const faq = after.items.find((i) => i.key === 'faq')!;
    const welcome = { id: w.intro.id, siteId: ctx.a.id, key: 'intro', spaceId: lounge.id, name: 'Welcome', type: 'video', url: 'https://cdn.example.com/w.mp4' };
    expect(after.items).toStrictEqual([
      welcome,
      w.talk,
      w.slides,
      { id: faq.id, siteId: ctx.a.id, key: 'faq', spaceId: w.extras, name: 'FAQ', type: 'link', url: 'https://alpha.org/faq' },
    ]);
    expect(await ctx.store.getContentItem(ctx.a.id, w.intro.id)).toStrictEqual({
      ...welcome, space: { id: lounge.id, name: 'Lounge' }, planIds: [silverRecord.id],
    });

    // Site b, with the same keys, did not change.
    expect(await ctx.store.getSite(ctx.b.id)).toStrictEqual(ctx.b);
    expect((await definition(ctx.b.id)).plans).toStrictEqual([{ ...w.bPlan, membershipCount: 1, activeMemberCount: 1 }]);
  });

  test('listContentViews reports an item’s name and space as they are after the site file renamed and moved it', async () => {
    const w = await world();
    const [viewId] = (await ctx.store.createContentViews([{ siteId: ctx.a.id, memberId: w.ann, nodeId: w.intro.id, viewedAt: T0 }])) as [number];
    await ctx.store.applySiteChanges(await changeSet({ updateItems: [itemChange(w.intro, 'Extras', { name: 'Welcome', type: 'link', body: undefined, url: 'https://x.example' })] }));
    expect(await ctx.store.listContentViews(ctx.a.id, {}, { limit: 10 })).toStrictEqual({
      items: [
        {
          id: viewId, siteId: ctx.a.id, memberId: w.ann, nodeId: w.intro.id, viewedAt: T0,
          node: { id: w.intro.id, name: 'Welcome', type: 'link' }, space: { id: w.extras, name: 'Extras' },
        },
      ],
      hasMore: false,
    });
  });

  test('an item may name a space the same change set un-archives, but not one it archives (MissingReferenceError on space, nothing changed)', async () => {
    const w = await world();
    await ctx.store.applySiteChanges(await changeSet({ updateSpaces: [{ id: w.extras, planKeys: [], archived: true }] }));
    const before = await definition();
    // Archived, Extras cannot take an item…
    await expectRejects(
      ctx.store.applySiteChanges(await changeSet({ createItems: [{ key: 'faq', name: 'FAQ', type: 'article', body: 'x', space: 'Extras' }] })),
      MissingReferenceError,
      'space',
    );
    // …nor can Library when the same change set archives it.
    await expectRejects(
      ctx.store.applySiteChanges(
        await changeSet({
          updateSpaces: [{ id: w.library, planKeys: ['gold'], archived: true }],
          updateItems: [itemChange(w.talk, 'Library', { name: 'Talk 2' })],
        }),
      ),
      MissingReferenceError,
      'space',
    );
    expect(await definition()).toStrictEqual(before);

    // Un-archived in the same change set, Extras takes a new item and a moved one.
    await ctx.store.applySiteChanges(
      await changeSet({
        updateSpaces: [{ id: w.extras, planKeys: ['gold'], archived: false }],
        createItems: [{ key: 'faq', name: 'FAQ', type: 'article', body: 'x', space: 'Extras' }],
        updateItems: [itemChange(w.talk, 'Extras')],
      }),
    );
    const after = await definition();
    expect(after.items.filter((i) => i.spaceId === w.extras).map((i) => i.key)).toEqual(['talk', w.slides.key, 'faq']);
    expect(await ctx.store.listContentNodes(ctx.a.id)).toHaveLength(4);
  });

  // Revision -----------------------------------------------------------------------------------

  test('updateSite and applySiteChanges each bump the revision by one, of that site only', async () => {
    const a0 = (await definition(ctx.a.id)).revision;
    const b0 = (await definition(ctx.b.id)).revision;
    expect(Number.isInteger(a0)).toBe(true);
    await ctx.store.updateSite(ctx.a.id, { adminApiEnabled: false });
    expect((await definition(ctx.a.id)).revision).toBe(a0 + 1);
    await ctx.store.updateSite(ctx.a.id, { name: 'Alpha' });
    expect((await definition(ctx.a.id)).revision).toBe(a0 + 2);
    await ctx.store.applySiteChanges(await changeSet());
    expect((await definition(ctx.a.id)).revision).toBe(a0 + 3);
    await ctx.store.applySiteChanges(await changeSet({ createPlans: [planOfSet('gold')] }));
    expect((await definition(ctx.a.id)).revision).toBe(a0 + 4);
    expect((await definition(ctx.b.id)).revision).toBe(b0);
    expect(await ctx.store.updateSite(ctx.b.id + 1000, { name: 'Nobody' })).toBeUndefined();
    expect((await definition(ctx.b.id)).revision).toBe(b0);
  });

  test('applySiteChanges refuses a change set computed from an older revision with ConflictError on revision, changing nothing', async () => {
    const w = await world();
    const stale = await changeSet({
      site: { id: ctx.a.id, revision: (await definition()).revision, patch: { name: 'Stale' } },
      createPlans: [planOfSet('silver')],
      updatePlans: [planChange(w.gold, { billing: { ...OLD_BILLING, price: 999 } })],
      updateSignupFields: [fieldChange(w.company, { archived: true })],
      createItems: [{ key: 'faq', name: 'FAQ', type: 'article', body: 'x', space: 'Library' }],
    });

    // Another change came first: an update of the site's settings…
    const updated = await ctx.store.updateSite(ctx.a.id, { locale: 'de' });
    const before = await definition();
    const memberships = await allMemberships();
    await expectRejects(ctx.store.applySiteChanges(stale), ConflictError, 'revision');
    expect(await definition()).toStrictEqual(before);
    expect(await ctx.store.getSite(ctx.a.id)).toStrictEqual(updated);
    expect(await allMemberships()).toStrictEqual(memberships);

    // …or another change set.
    const fresh = await changeSet({ createPlans: [planOfSet('bronze')] });
    await ctx.store.applySiteChanges(fresh);
    const afterFresh = await definition();
    await expectRejects(ctx.store.applySiteChanges(fresh), ConflictError, 'revision');
    expect(await definition()).toStrictEqual(afterFresh);

    // A revision ahead of the site's is refused too; the current one applies.
    await expectRejects(
      ctx.store.applySiteChanges({ ...fresh, createPlans: [], site: { id: ctx.a.id, revision: afterFresh.revision + 1, patch: {} } }),
      ConflictError,
      'revision',
    );
    await ctx.store.applySiteChanges({ ...stale, site: { id: ctx.a.id, revision: afterFresh.revision, patch: { name: 'Fresh' } } });
    expect((await definition()).site.name).toBe('Fresh');
  });

  test('applySiteChanges to an unknown site throws MissingReferenceError on siteId', async () => {
    await expectRejects(
      ctx.store.applySiteChanges({ ...creating('x'), site: { id: ctx.b.id + 1000, revision: 0, patch: { name: 'Nobody' } } }),
      MissingReferenceError,
      'siteId',
    );
    expect(await ctx.store.listSites()).toStrictEqual([ctx.a, ctx.b]);
  });

  // All or nothing -----------------------------------------------------------------------------

  test('a change set whose last step fails changes nothing: not the site, its revision, plans, memberships, fields, spaces or items', async () => {
    const w = await world();
    const everything = async (...lastItems: SiteChangeSet['createItems']) =>
      changeSet({
        site: { id: ctx.a.id, revision: (await definition()).revision, patch: { name: 'Renamed', locale: 'de', checkboxLabels: { yes: 'J', no: 'N' } } },
        createPlans: [planOfSet('silver', {}, SUBSCRIPTION)],
        updatePlans: [
          planChange(w.gold, { name: 'Gold 2', status: 'archived', billing: { ...OLD_BILLING, price: 150 } }),
          planChange(w.free, { name: 'Free 2', description: 'new' }),
        ],
        createSignupFields: [{ key: 'topic', type: 'text', label: 'Topic', required: false, position: 9 }],
        updateSignupFields: [fieldChange(w.company, { label: 'Firm', archived: true }), fieldChange(w.agree, { position: 0 })],
        createSpaces: [{ name: 'Lounge', planKeys: ['silver', 'gold'] }],
        updateSpaces: [
          { id: w.extras, planKeys: ['silver'], archived: true },
          { id: w.library, planKeys: [], archived: false },
        ],
        updateItems: [itemChange(w.intro, 'Lounge', { name: 'Welcome' }), itemChange(w.talk, 'Library', { archived: true })],
        createItems: [{ key: 'faq', name: 'FAQ', type: 'article', body: 'x', space: 'Lounge' }, ...lastItems],
      });

    const before = await definition();
    const memberships = await allMemberships();
    const bBefore = await definition(ctx.b.id);
    const failures: [SiteChangeSet, typeof ConflictError | typeof MissingReferenceError, string][] = [
      [await everything({ key: 'lost', name: 'Lost', type: 'article', body: 'x', space: 'Nowhere' }), MissingReferenceError, 'space'],
      // A space archived by this change set.
      [await everything({ key: 'lost', name: 'Lost', type: 'article', body: 'x', space: 'Extras' }), MissingReferenceError, 'space'],
      // A key taken by an item of the site, or by one created earlier in the change set.
      [await everything({ key: 'intro', name: 'Again', type: 'article', body: 'x', space: 'Lounge' }), ConflictError, 'key'],
      [await everything({ key: 'faq', name: 'Again', type: 'article', body: 'x', space: 'Lounge' }), ConflictError, 'key'],
    ];
    for (const [changes, type, field] of failures) {
      await expectRejects(ctx.store.applySiteChanges(changes), type, field);
      expect(await definition()).toStrictEqual(before);
      expect(await ctx.store.getSite(ctx.a.id)).toStrictEqual(before.site);
      expect(await allMemberships()).toStrictEqual(memberships);
      expect(await ctx.store.listSignupFields(ctx.a.id)).toStrictEqual([w.company, w.agree]);
      expect(await ctx.store.listContentNodes(ctx.a.id)).toStrictEqual([w.intro, w.talk, w.slides]);
      expect(await ctx.store.getPlan(ctx.a.id, w.gold.id)).toStrictEqual(w.gold);
      expect(await definition(ctx.b.id)).toStrictEqual(bBefore);
    }

    // Without the failing step the same change set applies: the failures were the last step's.
    await ctx.store.applySiteChanges(await everything());
    const after = await definition();
    expect(after.revision).toBe(before.revision + 1);
    expect(after.site.name).toBe('Renamed');
    expect(after.plans.map((p) => p.key)).toEqual(['gold', w.free.key, 'silver']);
    expect(after.items.map((i) => i.key)).toEqual(['intro', 'talk', w.slides.key, 'faq']);
    expect((await allMemberships()).filter((m) => m.planId === w.gold.id).map((m) => m.billing)).toEqual([OLD_BILLING, OLD_BILLING]);
  });

  test('applySiteChanges refuses an id, plan key or space name that is not the site’s with MissingReferenceError, changing nothing', async () => {
    const w = await world();
    const before = await definition();
    const memberships = await allMemberships();
    const cases: [string, Partial<SiteChangeSet>, string][] = [
      ['an unknown plan', { updatePlans: [{ ...planChange(w.gold), id: w.bPlan.id + 1000 }] }, 'planId'],
      ['another site’s plan', { updatePlans: [{ ...planChange(w.bPlan) }] }, 'planId'],
      ['an unknown field', { updateSignupFields: [{ ...fieldChange(w.company), id: w.bField + 1000 }] }, 'fieldId'],
      ['another site’s field', { updateSignupFields: [{ ...fieldChange(w.company), id: w.bField }] }, 'fieldId'],
      ['an unknown space', { updateSpaces: [{ id: w.bSpace + 1000, planKeys: [], archived: false }] }, 'spaceId'],
      ['another site’s space', { updateSpaces: [{ id: w.bSpace, planKeys: [], archived: false }] }, 'spaceId'],
      ['an unknown item', { updateItems: [{ ...itemChange(w.intro, 'Library'), id: w.bItem + 1000 }] }, 'itemId'],
      ['another site’s item', { updateItems: [{ ...itemChange(w.intro, 'Library'), id: w.bItem }] }, 'itemId'],
      ['an unknown plan key in a new space', { createSpaces: [{ name: 'Lounge', planKeys: ['gold', 'platinum'] }] }, 'planKeys'],
      ['an unknown plan key in a space', { updateSpaces: [{ id: w.library, planKeys: ['platinum'], archived: false }] }, 'planKeys'],
      // Site b has a plan keyed `bonus`; site a does not.
      ['another site’s plan key', { createSpaces: [{ name: 'Lounge', planKeys: ['bonus'] }] }, 'planKeys'],
      ['an unknown space name', { createItems: [{ key: 'faq', name: 'FAQ', type: 'article', body: 'x', space: 'Nowhere' }] }, 'space'],
      ['another site’s space name', { updateItems: [itemChange(w.intro, 'B only')] }, 'space'],
    ];
    await ctx.store.createPlan(newPlan(ctx.b.id, { key: 'bonus' }));
    await ctx.store.createContentSpace({ siteId: ctx.b.id, name: 'B only' });
    const bBefore = await definition(ctx.b.id);
    for (const [label, extra, field] of cases) {
      const error = await ctx.store.applySiteChanges(await changeSet({ site: { id: ctx.a.id, revision: before.revision, patch: { name: 'X' } }, ...extra })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, label).toBeInstanceOf(MissingReferenceError);
      expect((error as MissingReferenceError).field, label).toBe(field);
      expect(await definition(), label).toStrictEqual(before);
      expect(await definition(ctx.b.id), label).toStrictEqual(bBefore);
    }
    expect(await allMemberships()).toStrictEqual(memberships);
  });

  test('applySiteChanges refuses a key taken in the site, or twice in the change set, with ConflictError on key, changing nothing; another site may use the key', async () => {
    const w = await world();
    const before = await definition();
    const cases: [string, Partial<SiteChangeSet>][] = [
      ['a plan key taken', { createPlans: [planOfSet('gold')] }],
      ['a plan key taken as a public id', { createPlans: [planOfSet(w.free.key)] }],
      ['a plan key twice', { createPlans: [planOfSet('silver'), planOfSet('silver', { publicId: 'pln_other_silver' })] }],
      ['a field key taken', { createSignupFields: [{ key: 'company', type: 'text', label: 'C', required: false, position: 0 }] }],
      ['a default field key taken', { createSignupFields: [{ key: w.agree.key, type: 'text', label: 'C', required: false, position: 0 }] }],
      [
        'a field key twice',
        {
          createSignupFields: [
            { key: 'topic', type: 'text', label: 'T', required: false, position: 0 },
            { key: 'topic', type: 'text', label: 'T', required: false, position: 1 },
          ],
        },
      ],
      ['an item key taken', { createItems: [{ key: 'talk', name: 'T', type: 'article', body: 'x', space: 'Library' }] }],
      ['a default item key taken', { createItems: [{ key: w.slides.key, name: 'T', type: 'article', body: 'x', space: 'Library' }] }],
    ];
    for (const [label, extra] of cases) {
      const error = await ctx.store.applySiteChanges(await changeSet({ site: { id: ctx.a.id, revision: before.revision, patch: { name: 'X' } }, ...extra })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, label).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).field, label).toBe('key');
      expect(await definition(), label).toStrictEqual(before);
    }

    // Site b holds the keys gold, company and intro too; site a may create what b holds and a does not.
    await ctx.store.createPlan(newPlan(ctx.b.id, { key: 'silver' }));
    await ctx.store.applySiteChanges(await changeSet({ createPlans: [planOfSet('silver')] }));
    expect((await definition()).plans.map((p) => p.key)).toEqual(['gold', w.free.key, 'silver']);
    await ctx.store.applySiteChanges(
      await changeSet(
        {
          createSignupFields: [{ key: w.agree.key, type: 'text', label: 'T', required: false, position: 0 }],
          createItems: [{ key: 'talk', name: 'Talk', type: 'article', body: 'x', space: 'Library' }],
        },
        ctx.b.id,
      ),
    );
    const bDef = await definition(ctx.b.id);
    expect(bDef.signupFields.map((f) => f.key)).toEqual(['company', w.agree.key]);
    expect(bDef.items.map((i) => i.key)).toEqual(['intro', 'talk']);
  });

  test('applySiteChanges refuses a plan update that changes the plan’s type with ConflictError on type, changing nothing', async () => {
    const w = await world();
    const before = await definition();
    const { billing: _billing, ...freeTerms } = planChange(w.gold) as PlanChange & { billing?: unknown };
    await expectRejects(
      ctx.store.applySiteChanges(
        await changeSet({
          site: { id: ctx.a.id, revision: before.revision, patch: { name: 'X' } },
          updatePlans: [planChange(w.free, { name: 'Free 2' }), { ...freeTerms, type: 'free', expiration: { mode: 'none' } } as PlanChange],
        }),
      ),
      ConflictError,
      'type',
    );
    expect(await definition()).toStrictEqual(before);
    expect(await ctx.store.getPlan(ctx.a.id, w.gold.id)).toStrictEqual(w.gold);
    await expectRejects(
      ctx.store.applySiteChanges(await changeSet({ updatePlans: [{ ...planChange(w.free), ...PLAN_TERMS['one-time payment plan with tax'] } as PlanChange] })),
      ConflictError,
      'type',
    );
    expect(await definition()).toStrictEqual(before);
  });

  test('applySiteChanges refuses a new plan whose public id is taken in any site with ConflictError on publicId, changing nothing', async () => {
    const w = await world();
    const before = await definition();
    const bBefore = await definition(ctx.b.id);
    for (const publicId of [w.gold.publicId, w.bPlan.publicId]) {
      await expectRejects(ctx.store.applySiteChanges(await changeSet({ createPlans: [planOfSet('silver', { publicId })] })), ConflictError, 'publicId');
      expect(await definition()).toStrictEqual(before);
      expect(await definition(ctx.b.id)).toStrictEqual(bBefore);
    }
  });

  test('applySiteChanges refuses two new plans with the same public id with ConflictError on publicId, changing nothing', async () => {
    await world();
    const before = await definition();
    const createPlans = [planOfSet('silver', { publicId: 'pln_twice' }), planOfSet('bronze', { publicId: 'pln_twice' })];
    await expectRejects(ctx.store.applySiteChanges(await changeSet({ createPlans })), ConflictError, 'publicId');
    expect(await definition()).toStrictEqual(before);
  });

  // Billing a membership keeps ----------------------------------------------------------------

  test('a plan’s billing change gives each of its memberships without one the billing before it; later memberships have none; a second change keeps the first copy', async () => {
    const w = await world();
    const [cy, dee] = (await addMembers(ctx.store, ctx.a.id, 2, 'later')) as [number, number];
    const billingOf = async () => new Map((await allMemberships()).map((m) => [m.id, m.billing]));
    expect([...(await billingOf()).values()].every((b) => b === undefined)).toBe(true);
    expect((await allMemberships())[0]).not.toHaveProperty('billing');

    const price150 = { ...OLD_BILLING, price: 150 };
    await ctx.store.applySiteChanges(await changeSet({ updatePlans: [planChange(w.gold, { billing: price150 })] }));
    expect(await ctx.store.getPlan(ctx.a.id, w.gold.id)).toStrictEqual({ ...w.gold, billing: price150 });
    // Active and cancelled alike; not the free plan's membership.
    let billing = await billingOf();
    expect(billing.get(w.annGold)).toStrictEqual(OLD_BILLING);
    expect(billing.get(w.bobGold)).toStrictEqual(OLD_BILLING);
    expect(billing.get(w.annFree)).toBeUndefined();
    const annOwn = await ctx.store.listMembershipsOfMember(ctx.a.id, w.ann);
    expect(annOwn.find((m) => m.id === w.annGold)?.billing).toStrictEqual(OLD_BILLING);
    expect(annOwn.find((m) => m.id === w.annFree)).not.toHaveProperty('billing');
    // Site b's plan with the same key is another plan.
    expect((await allMemberships(ctx.b.id)).every((m) => !('billing' in m))).toBe(true);

    // Joining after the change: the plan's billing now.
    const [cyGold] = (await ctx.store.createMemberships([membership(cy, w.gold.id)])) as [number];
    expect((await ctx.store.listMembershipsOfMember(ctx.a.id, cy))[0]).not.toHaveProperty('billing');

    const price180 = { ...OLD_BILLING, price: 180 };
    await ctx.store.applySiteChanges(await changeSet({ updatePlans: [planChange({ ...w.gold, billing: price150 } as PlanRecord, { billing: price180 })] }));
    billing = await billingOf();
    expect(billing.get(w.annGold)).toStrictEqual(OLD_BILLING);
    expect(billing.get(w.bobGold)).toStrictEqual(OLD_BILLING);
    expect(billing.get(cyGold)).toStrictEqual(price150);
    expect(billing.get(w.annFree)).toBeUndefined();

    const [deeGold] = (await ctx.store.createMemberships([membership(dee, w.gold.id)])) as [number];
    expect((await billingOf()).get(deeGold)).toBeUndefined();
    // Changing the membership's state keeps what it joined under.
    expect((await ctx.store.updateMembership(ctx.a.id, w.annGold, { status: 'cancelled' }))?.billing).toStrictEqual(OLD_BILLING);
  });

  test('a plan update that leaves the billing as it was, whatever the order of its keys, copies nothing; nor does a free plan’s update', async () => {
    const w = await world();
    const reordered = {
      taxPercentage: 20, signupFee: 25.5, billingDate: { month: 3, day: 15 }, interval: { unit: 'year', count: 1 }, currency: 'gbp', price: 120,
    };
    await ctx.store.applySiteChanges(
      await changeSet({
        updatePlans: [
          planChange(w.gold, { name: 'Gold renamed', billing: reordered }),
          planChange(w.free, { expiration: { mode: 'interval', count: 1, unit: 'month' } }),
        ],
      }),
    );
    expect((await ctx.store.getPlan(ctx.a.id, w.gold.id))?.name).toBe('Gold renamed');
    expect(await ctx.store.getPlan(ctx.a.id, w.free.id)).toMatchObject({ expiration: { mode: 'interval', count: 1, unit: 'month' } });
    for (const m of await allMemberships()) expect(m).not.toHaveProperty('billing');
  });

  // Site settings ------------------------------------------------------------------------------

  test('updateSite sets name, domain, currency and locale, and sets and clears checkboxLabels, touching nothing else', async () => {
    expect(ctx.a).not.toHaveProperty('checkboxLabels');
    const labels = { yes: 'Oui', no: 'Non' };
    const patched = { ...ctx.a, name: 'Alpha Club', domain: 'alpha.org', defaultCurrency: 'eur', locale: 'fr', checkboxLabels: labels };
    expect(
      await ctx.store.updateSite(ctx.a.id, { name: 'Alpha Club', domain: 'alpha.org', defaultCurrency: 'eur', locale: 'fr', checkboxLabels: labels }),
    ).toStrictEqual(patched);
    expect(await ctx.store.getSite(ctx.a.id)).toStrictEqual(patched);
    // Absent keys stay as they are.
    expect(await ctx.store.updateSite(ctx.a.id, { adminApiEnabled: false })).toStrictEqual({ ...patched, adminApiEnabled: false });
    const other = { yes: 'Ja', no: 'Nein' };
    expect((await ctx.store.updateSite(ctx.a.id, { checkboxLabels: other }))?.checkboxLabels).toStrictEqual(other);
    // null clears them.
    const cleared = await ctx.store.updateSite(ctx.a.id, { checkboxLabels: null });
    const { checkboxLabels: _labels, ...withoutLabels } = patched;
    expect(cleared).toStrictEqual({ ...withoutLabels, adminApiEnabled: false });
    expect(cleared).not.toHaveProperty('checkboxLabels');
    expect(await ctx.store.getSite(ctx.a.id)).not.toHaveProperty('checkboxLabels');
    expect(await ctx.store.getSite(ctx.b.id)).toStrictEqual(ctx.b);
  });

  test('a site created with checkboxLabels reads them back, and a change set sets and clears them', async () => {
    const input = newSite('gamma', { checkboxLabels: { yes: 'Sí', no: 'No' } });
    const created = await ctx.store.createSite(input);
    expect(created).toStrictEqual({ ...input, id: created.id });
    expect(await ctx.store.getSite(created.id)).toStrictEqual(created);

    await ctx.store.applySiteChanges(await changeSet({ site: { id: ctx.a.id, revision: (await definition()).revision, patch: { checkboxLabels: { yes: 'J', no: 'N' } } } }));
    expect((await ctx.store.getSite(ctx.a.id))?.checkboxLabels).toStrictEqual({ yes: 'J', no: 'N' });
    await ctx.store.applySiteChanges(await changeSet({ site: { id: ctx.a.id, revision: (await definition()).revision, patch: { checkboxLabels: null } } }));
    expect(await ctx.store.getSite(ctx.a.id)).toStrictEqual(ctx.a);
  });
}
