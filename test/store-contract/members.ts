/** Contract: members. */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { MemberFilter } from '../../src/service/store/queries';
import { type Ctx, T0, expectKeysetPaging, expectRangeFilter, expectRejects, newMember } from './fixtures';

export function memberTests(ctx: Ctx): void {
  const allIds = async (siteId = ctx.a.id, filter: MemberFilter = {}) =>
    (await ctx.store.listMembers(siteId, filter, { limit: 1000 })).items.map((m) => m.id);

  test('createMembers returns the new ids in input order and listMembers reads the members back', async () => {
    const input = [
      newMember(ctx.a.id, 'ann@example.com', { firstName: 'Ann', lastName: 'Lee', createdAt: T0 + 5 }),
      newMember(ctx.a.id, 'bob@example.com', { status: 'pending' }),
      newMember(ctx.a.id, 'cy@example.com', { firstName: 'Cy', status: 'blocked', createdAt: T0 - 5 }),
    ];
    const ids = await ctx.store.createMembers(input);
    expect(ids).toHaveLength(3);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    const page = await ctx.store.listMembers(ctx.a.id, {}, { limit: 10 });
    expect(page).toEqual({ items: input.map((m, i) => ({ ...m, id: ids[i] })), hasMore: false });
    expect(page.items[1]).not.toHaveProperty('firstName');
    expect(page.items[1]).not.toHaveProperty('lastName');
  });

  test('createMembers with an empty batch returns no ids', async () => {
    expect(await ctx.store.createMembers([])).toEqual([]);
  });

  test('createMembers rejects an e-mail taken in the site with ConflictError on email, inserting nothing', async () => {
    await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    const batch = [newMember(ctx.a.id, 'new@example.com'), newMember(ctx.a.id, 'ann@example.com')];
    await expectRejects(ctx.store.createMembers(batch), ConflictError, 'email');
    expect(await allIds()).toHaveLength(1);
  });

  test('createMembers rejects the same e-mail twice within one batch, inserting nothing', async () => {
    const batch = [newMember(ctx.a.id, 'dup@example.com'), newMember(ctx.a.id, 'dup@example.com')];
    await expectRejects(ctx.store.createMembers(batch), ConflictError, 'email');
    expect(await allIds()).toEqual([]);
  });

  test('the same e-mail may belong to members of different sites', async () => {
    const [a] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    const [b] = await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com')]);
    expect(a).not.toBe(b);
    expect(await allIds(ctx.a.id, { email: 'ann@example.com' })).toEqual([a]);
    expect(await allIds(ctx.b.id, { email: 'ann@example.com' })).toEqual([b]);
  });

  test('createMembers rejects an unknown site with MissingReferenceError on siteId, inserting nothing', async () => {
    const batch = [newMember(ctx.a.id, 'ok@example.com'), newMember(ctx.b.id + 1000, 'lost@example.com')];
    await expectRejects(ctx.store.createMembers(batch), MissingReferenceError, 'siteId');
    expect(await allIds()).toEqual([]);
    // The store is still usable after a failed batch, and the e-mail is still free.
    expect(await ctx.store.createMembers([newMember(ctx.a.id, 'ok@example.com')])).toHaveLength(1);
  });

  test('listMembers filters by exact email, firstName, lastName and status, combined with AND', async () => {
    const ids = await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com', { firstName: 'Ann', lastName: 'Lee' }),
      newMember(ctx.a.id, 'ann.b@example.com', { firstName: 'Ann', lastName: 'Bo', status: 'pending' }),
      newMember(ctx.a.id, 'lee@example.com', { firstName: 'Annie', lastName: 'Lee', status: 'blocked' }),
      newMember(ctx.a.id, 'x@example.com'),
    ]);
    await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com', { firstName: 'Ann', lastName: 'Lee' })]);
    const [ann, annB, lee, x] = ids;
    expect(await allIds(ctx.a.id, { email: 'ann@example.com' })).toEqual([ann]);
    expect(await allIds(ctx.a.id, { email: 'ann' })).toEqual([]);
    expect(await allIds(ctx.a.id, { firstName: 'Ann' })).toEqual([ann, annB]);
    expect(await allIds(ctx.a.id, { lastName: 'Lee' })).toEqual([ann, lee]);
    expect(await allIds(ctx.a.id, { firstName: 'Ann', lastName: 'Lee' })).toEqual([ann]);
    expect(await allIds(ctx.a.id, { status: 'approved' })).toEqual([ann, x]);
    expect(await allIds(ctx.a.id, { status: 'pending' })).toEqual([annB]);
    expect(await allIds(ctx.a.id, { status: 'blocked', lastName: 'Lee' })).toEqual([lee]);
    expect(await allIds(ctx.a.id, { status: 'blocked', firstName: 'Ann' })).toEqual([]);
    expect(await allIds(ctx.a.id, { email: 'x@example.com', status: 'pending' })).toEqual([]);
  });

  test('listMembers filters by created: from inclusive, to exclusive', async () => {
    const ids = await ctx.store.createMembers([
      newMember(ctx.a.id, 'a@example.com', { createdAt: T0 }),
      newMember(ctx.a.id, 'b@example.com', { createdAt: T0 + 1000 }),
      newMember(ctx.a.id, 'c@example.com', { createdAt: T0 + 2000 }),
    ]);
    await ctx.store.createMembers([newMember(ctx.b.id, 'b@example.com', { createdAt: T0 + 1000 })]);
    await expectRangeFilter(
      async (created) => ctx.store.listMembers(ctx.a.id, { created }, { limit: 100 }),
      ids as [number, number, number],
    );
  });

  test('listMembers pages by id and never shows another site’s members', async () => {
    const mine: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < 7; i++) {
      mine.push(...(await ctx.store.createMembers([newMember(ctx.a.id, `m${i}@example.com`)])));
      others.push(...(await ctx.store.createMembers([newMember(ctx.b.id, `m${i}@example.com`)])));
    }
    await expectKeysetPaging((page) => ctx.store.listMembers(ctx.a.id, {}, page), mine, others[2]);
    await expectKeysetPaging((page) => ctx.store.listMembers(ctx.b.id, {}, page), others, mine[3]);
    const page = await ctx.store.listMembers(ctx.a.id, {}, { limit: 100 });
    expect(page.items.every((m) => m.siteId === ctx.a.id)).toBe(true);
  });

  test('listMembers pages within a filter', async () => {
    const ids = await ctx.store.createMembers(
      Array.from({ length: 9 }, (_, i) =>
        newMember(ctx.a.id, `p${i}@example.com`, { status: i % 3 === 0 ? 'approved' : 'pending' }),
      ),
    );
    const pending = ids.filter((_, i) => i % 3 !== 0);
    await expectKeysetPaging((page) => ctx.store.listMembers(ctx.a.id, { status: 'pending' }, page), pending, ids[3]);
  });

  test('listMemberSummaries answers listMembers\' pages with only the summary fields, under every filter', async () => {
    await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com', { firstName: 'Ann', lastName: 'Lee', createdAt: T0 + 5, profileImageUrl: 'https://img.example/a.png' }),
      newMember(ctx.a.id, 'bob@example.com', { status: 'pending', createdAt: T0 + 10 }),
      newMember(ctx.a.id, 'cy@example.com', { lastName: 'Cy', status: 'blocked', createdAt: T0 + 15 }),
    ]);
    await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com', { firstName: 'Ann' })]);
    const summary = ({ id, email, firstName, lastName, status, createdAt }: Record<string, unknown>) =>
      Object.fromEntries(Object.entries({ id, email, firstName, lastName, status, createdAt }).filter(([, v]) => v !== undefined));
    const filters: MemberFilter[] = [{}, { email: 'ann@example.com' }, { firstName: 'Ann' }, { lastName: 'Cy' }, { status: 'pending' },
      { created: { from: T0 + 6 } }, { created: { to: T0 + 11 } }];
    for (const filter of filters) {
      for (const page of [{ limit: 100 }, { limit: 1 }, { limit: 1, afterId: (await allIds())[0]! }]) {
        const full = await ctx.store.listMembers(ctx.a.id, filter, page);
        const summaries = await ctx.store.listMemberSummaries(ctx.a.id, filter, page);
        expect(summaries).toStrictEqual({ items: full.items.map((m) => summary(m as unknown as Record<string, unknown>)), hasMore: full.hasMore });
      }
    }
    expect((await ctx.store.listMemberSummaries(ctx.a.id, {}, { limit: 1 })).items[0]).toStrictEqual({
      id: (await allIds())[0], email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee', status: 'approved', createdAt: T0 + 5,
    });
  });

  test('listMembers of a site without members is an empty last page', async () => {
    await ctx.store.createMembers([newMember(ctx.b.id, 'b@example.com')]);
    expect(await ctx.store.listMembers(ctx.a.id, {}, { limit: 25 })).toEqual({ items: [], hasMore: false });
  });
}
