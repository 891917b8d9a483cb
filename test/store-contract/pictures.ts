/** Contract: members' uploaded pictures (decision 0039), kept once per site and hash, deleted when no member has them. */
import { expect, test } from 'vitest';
import type { NewMemberPicture } from '../../src/service/store/records';
import { type Ctx, T0, addMembers, newMember } from './fixtures';

/** A picture whose bytes hold every byte value (NUL and 0xff included), named by a made-up hash. */
function picture(name: string, size = 600): NewMemberPicture {
  const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7 + name.length) % 256);
  return { hash: name.padEnd(64, '0'), contentType: 'image/webp', bytes, createdAt: T0 + 1 };
}

export function pictureTests(ctx: Ctx): void {
  test('setMemberPicture keeps the bytes as they are and makes the picture the member\'s, in every read of the member', async () => {
    const [ann, bob] = await addMembers(ctx.store, ctx.a.id, 2);
    const one = picture('aa', 70_000);
    const member = await ctx.store.setMemberPicture(ctx.a.id, ann!, one);
    expect(member).toMatchObject({ id: ann, pictureHash: one.hash });
    expect(await ctx.store.getMember(ctx.a.id, ann!)).toStrictEqual(member);
    expect((await ctx.store.getMember(ctx.a.id, bob!))!.pictureHash).toBeUndefined();
    const listed = await ctx.store.listMembers(ctx.a.id, {}, { limit: 10 });
    expect(listed.items.find((m) => m.id === ann)).toStrictEqual(member);
    const stored = await ctx.store.getMemberPicture(one.hash);
    expect(stored).toStrictEqual({ ...one, siteId: ctx.a.id });
    expect(stored!.bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(stored!.bytes)).toEqual(Array.from(one.bytes));
  });

  test('the session\'s member carries the picture too (what every signed-in request reads)', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const one = picture('ab');
    await ctx.store.setMemberPicture(ctx.a.id, ann!, one);
    await ctx.store.createSession({ siteId: ctx.a.id, memberId: ann!, tokenHash: 'pic-session', createdAt: T0, lastUsedAt: T0, expiresAt: T0 + 1000 });
    expect((await ctx.store.findSessionWithMember('pic-session'))!.member.pictureHash).toBe(one.hash);
  });

  test('an upload replaces a profileImageUrl the member had (an import\'s), and a removal leaves neither', async () => {
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com', { profileImageUrl: 'https://img.example/ann.png' })]);
    const one = picture('ac');
    const set = await ctx.store.setMemberPicture(ctx.a.id, ann!, one);
    expect(set!.profileImageUrl).toBeUndefined();
    const removed = await ctx.store.removeMemberPicture(ctx.a.id, ann!);
    expect(removed!.pictureHash).toBeUndefined();
    expect(removed!.profileImageUrl).toBeUndefined();
    expect(await ctx.store.getMember(ctx.a.id, ann!)).toStrictEqual(removed);
    expect(await ctx.store.getMemberPicture(one.hash)).toBeUndefined();
  });

  test('a picture replaced or removed is deleted; the same picture again is kept', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const [one, two] = [picture('b1'), picture('b2')];
    await ctx.store.setMemberPicture(ctx.a.id, ann!, one);
    await ctx.store.setMemberPicture(ctx.a.id, ann!, one);
    expect(await ctx.store.getMemberPicture(one.hash)).toBeDefined();
    expect((await ctx.store.setMemberPicture(ctx.a.id, ann!, two))!.pictureHash).toBe(two.hash);
    expect(await ctx.store.getMemberPicture(one.hash)).toBeUndefined();
    expect(await ctx.store.getMemberPicture(two.hash)).toBeDefined();
    await ctx.store.removeMemberPicture(ctx.a.id, ann!);
    expect(await ctx.store.getMemberPicture(two.hash)).toBeUndefined();
    // Removing none is no change.
    expect((await ctx.store.removeMemberPicture(ctx.a.id, ann!))!.pictureHash).toBeUndefined();
  });

  test('members of a site who upload the same bytes share one picture, kept until the last of them lets it go', async () => {
    const [ann, bob] = await addMembers(ctx.store, ctx.a.id, 2);
    const shared = picture('c1');
    await ctx.store.setMemberPicture(ctx.a.id, ann!, shared);
    // Kept as it was first stored: the same hash is the same bytes.
    await ctx.store.setMemberPicture(ctx.a.id, bob!, { ...shared, createdAt: T0 + 99 });
    expect((await ctx.store.getMemberPicture(shared.hash))!.createdAt).toBe(T0 + 1);
    await ctx.store.setMemberPicture(ctx.a.id, ann!, picture('c2'));
    expect(await ctx.store.getMemberPicture(shared.hash)).toBeDefined();
    await ctx.store.removeMemberPicture(ctx.a.id, bob!);
    expect(await ctx.store.getMemberPicture(shared.hash)).toBeUndefined();
  });

  test('each site keeps its own: another site\'s member letting the same picture go leaves this site\'s', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const [otto] = await addMembers(ctx.store, ctx.b.id, 1);
    const shared = picture('d1');
    await ctx.store.setMemberPicture(ctx.a.id, ann!, shared);
    await ctx.store.setMemberPicture(ctx.b.id, otto!, shared);
    await ctx.store.removeMemberPicture(ctx.b.id, otto!);
    expect(await ctx.store.getMemberPicture(shared.hash)).toStrictEqual({ ...shared, siteId: ctx.a.id });
  });

  test('no such member in the site: undefined, and nothing is kept or changed', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const [otto] = await addMembers(ctx.store, ctx.b.id, 1);
    const kept = picture('e1');
    await ctx.store.setMemberPicture(ctx.b.id, otto!, kept);
    const stray = picture('e2');
    expect(await ctx.store.setMemberPicture(ctx.a.id, otto!, stray)).toBeUndefined();
    expect(await ctx.store.setMemberPicture(ctx.a.id, ann! + 1000, stray)).toBeUndefined();
    expect(await ctx.store.removeMemberPicture(ctx.a.id, otto!)).toBeUndefined();
    expect(await ctx.store.getMemberPicture(stray.hash)).toBeUndefined();
    expect((await ctx.store.getMember(ctx.b.id, otto!))!.pictureHash).toBe(kept.hash);
    expect(await ctx.store.getMemberPicture(kept.hash)).toBeDefined();
    expect(await ctx.store.getMemberPicture('f'.repeat(64))).toBeUndefined();
  });

  test('erasing a member lets their picture go: deleted, unless another member of the site has it', async () => {
    const [ann, bob, cat] = await addMembers(ctx.store, ctx.a.id, 3);
    const own = picture('h1');
    const shared = picture('h2');
    await ctx.store.setMemberPicture(ctx.a.id, ann!, own);
    await ctx.store.setMemberPicture(ctx.a.id, bob!, shared);
    await ctx.store.setMemberPicture(ctx.a.id, cat!, shared);
    expect((await ctx.store.eraseMember(ctx.a.id, ann!, `erased-${ann}@erased.invalid`))!.pictureHash).toBeUndefined();
    expect(await ctx.store.getMemberPicture(own.hash)).toBeUndefined();
    await ctx.store.eraseMember(ctx.a.id, bob!, `erased-${bob}@erased.invalid`);
    expect(await ctx.store.getMemberPicture(shared.hash)).toBeDefined();
    expect((await ctx.store.getMember(ctx.a.id, cat!))!.pictureHash).toBe(shared.hash);
  });

  test('uploads at once for one member leave exactly the picture the member ends with', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const pictures = Array.from({ length: 8 }, (_, i) => picture(`g${i}`));
    await Promise.all(pictures.map((p) => ctx.store.setMemberPicture(ctx.a.id, ann!, p)));
    const { pictureHash } = (await ctx.store.getMember(ctx.a.id, ann!))!;
    for (const p of pictures) expect(await ctx.store.getMemberPicture(p.hash), p.hash).toStrictEqual(p.hash === pictureHash ? { ...p, siteId: ctx.a.id } : undefined);
  });
}
