/** Contract: member metadata. */
import { expect, test, vi } from 'vitest';
import type { MemberMetadata } from '../../src/contract/member';
import { type Ctx, addMembers } from './fixtures';

export function metadataTests(ctx: Ctx): void {
  test('metadata is {} until first updated; undefined for no such member', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    expect(await ctx.store.getMemberMetadata(ctx.a.id, ann!)).toStrictEqual({});
    expect(await ctx.store.getMemberMetadata(ctx.a.id, ann! + 1000)).toBeUndefined();
  });

  test('updateMemberMetadata hands the current metadata to update and stores what it returns', async () => {
    const [ann, bob] = await addMembers(ctx.store, ctx.a.id, 2);
    const first: MemberMetadata = { theme: 'dark', progress: { lesson: 3, done: [1, 2] }, flag: true, none: null };
    const seen: MemberMetadata[] = [];
    expect(await ctx.store.updateMemberMetadata(ctx.a.id, ann!, (current) => (seen.push(current), first))).toStrictEqual(first);
    expect(await ctx.store.getMemberMetadata(ctx.a.id, ann!)).toStrictEqual(first);
    // The update replaces the whole object: keys it leaves out are gone.
    const second = await ctx.store.updateMemberMetadata(ctx.a.id, ann!, (current) => {
      seen.push(current);
      return { score: 1.5, unicode: 'Grüße ✓' };
    });
    expect(second).toStrictEqual({ score: 1.5, unicode: 'Grüße ✓' });
    expect(seen).toStrictEqual([{}, first]);
    expect(await ctx.store.getMemberMetadata(ctx.a.id, ann!)).toStrictEqual(second);
    expect(await ctx.store.getMemberMetadata(ctx.a.id, bob!)).toStrictEqual({});
    expect(await ctx.store.updateMemberMetadata(ctx.a.id, ann!, () => ({}))).toStrictEqual({});
    expect(await ctx.store.getMemberMetadata(ctx.a.id, ann!)).toStrictEqual({});
  });

  test('an update that throws changes nothing, and its error propagates unchanged', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    await ctx.store.updateMemberMetadata(ctx.a.id, ann!, () => ({ keep: 'me' }));
    const error = new RangeError('too large');
    const thrown = await ctx.store
      .updateMemberMetadata(ctx.a.id, ann!, (current) => {
        current.keep = 'changed'; // even a changed argument must not be stored
        current.added = 1;
        throw error;
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(thrown).toBe(error);
    expect(await ctx.store.getMemberMetadata(ctx.a.id, ann!)).toStrictEqual({ keep: 'me' });
    // The store is still usable.
    expect(await ctx.store.updateMemberMetadata(ctx.a.id, ann!, (c) => ({ ...c, more: 2 }))).toStrictEqual({
      keep: 'me',
      more: 2,
    });
  });

  test('50 concurrent updates each adding a key all survive', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        ctx.store.updateMemberMetadata(ctx.a.id, ann!, (current) => ({ ...current, [`key${i}`]: i })),
      ),
    );
    const metadata = await ctx.store.getMemberMetadata(ctx.a.id, ann!);
    expect(Object.keys(metadata!)).toHaveLength(50);
    for (let i = 0; i < 50; i++) expect(metadata![`key${i}`]).toBe(i);
  });

  test('another site’s member, or no member, has no metadata, and update is never called for it', async () => {
    const [mine] = await addMembers(ctx.store, ctx.a.id, 1);
    const [theirs] = await addMembers(ctx.store, ctx.b.id, 1);
    await ctx.store.updateMemberMetadata(ctx.b.id, theirs!, () => ({ secret: 'b' }));
    const update = vi.fn(() => ({ stolen: true }));
    expect(await ctx.store.getMemberMetadata(ctx.a.id, theirs!)).toBeUndefined();
    expect(await ctx.store.updateMemberMetadata(ctx.a.id, theirs!, update)).toBeUndefined();
    expect(await ctx.store.updateMemberMetadata(ctx.a.id, theirs! + 1000, update)).toBeUndefined();
    expect(update).not.toHaveBeenCalled();
    expect(await ctx.store.getMemberMetadata(ctx.b.id, theirs!)).toStrictEqual({ secret: 'b' });
    expect(await ctx.store.getMemberMetadata(ctx.b.id, mine!)).toBeUndefined();
    expect(await ctx.store.getMemberMetadata(ctx.a.id, mine!)).toStrictEqual({});
  });

  test('a caller changing returned metadata does not change the store', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const stored: MemberMetadata = { list: [1, 2], nested: { a: 'b' } };
    const returned = await ctx.store.updateMemberMetadata(ctx.a.id, ann!, () => stored);
    returned!.list = [];
    stored.nested = 'changed';
    (await ctx.store.getMemberMetadata(ctx.a.id, ann!))!.list = 'changed';
    expect(await ctx.store.getMemberMetadata(ctx.a.id, ann!)).toStrictEqual({ list: [1, 2], nested: { a: 'b' } });
  });
}
