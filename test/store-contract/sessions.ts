/** Contract: member sessions. */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { NewSession } from '../../src/service/store/records';
import { type Ctx, T0, addMembers, expectRejects } from './fixtures';

const HOUR = 3_600_000;

export function sessionTests(ctx: Ctx): void {
  const newSession = (memberId: number, tokenHash: string, siteId = ctx.a.id): NewSession => ({
    siteId,
    memberId,
    tokenHash,
    createdAt: T0,
    lastUsedAt: T0,
    expiresAt: T0 + 24 * HOUR,
  });

  test('createSession returns the session with its id, and findSessionByHash reads it back', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const input = newSession(ann!, 'a'.repeat(64));
    const created = await ctx.store.createSession(input);
    expect(created).toStrictEqual({ ...input, id: expect.any(Number) });
    expect(await ctx.store.findSessionByHash('a'.repeat(64))).toStrictEqual(created);
    const second = await ctx.store.createSession(newSession(ann!, 'b'.repeat(64)));
    expect(second.id).toBeGreaterThan(created.id);
    expect(await ctx.store.findSessionByHash('c'.repeat(64))).toBeUndefined();
    expect(await ctx.store.findSessionByHash('A'.repeat(64))).toBeUndefined();
  });

  test('findSessionWithMember reads the session and its member together, as findSessionByHash and getMember do apart', async () => {
    const [ann, bob] = await addMembers(ctx.store, ctx.a.id, 2);
    const [bMember] = await addMembers(ctx.store, ctx.b.id, 1);
    await ctx.store.updateMember(ctx.a.id, bob!, { firstName: 'Bob', lastName: null });
    const sessions = [
      await ctx.store.createSession(newSession(ann!, 'a'.repeat(64))),
      await ctx.store.createSession(newSession(bob!, 'b'.repeat(64))),
      await ctx.store.createSession(newSession(bMember!, 'c'.repeat(64), ctx.b.id)),
    ];
    await ctx.store.revokeSession('b'.repeat(64), T0 + 1);
    for (const created of sessions) {
      const session = (await ctx.store.findSessionByHash(created.tokenHash))!;
      expect(await ctx.store.findSessionWithMember(created.tokenHash)).toStrictEqual({
        session,
        member: await ctx.store.getMember(created.siteId, created.memberId),
      });
    }
    expect((await ctx.store.findSessionWithMember('b'.repeat(64)))!.session.revokedAt).toBe(T0 + 1);
    expect(await ctx.store.findSessionWithMember('d'.repeat(64))).toBeUndefined();
  });

  test('createSession rejects a token hash in use with ConflictError on tokenHash', async () => {
    const [ann, bob] = await addMembers(ctx.store, ctx.a.id, 2);
    const first = await ctx.store.createSession(newSession(ann!, 'same'));
    await expectRejects(ctx.store.createSession(newSession(bob!, 'same')), ConflictError, 'tokenHash');
    expect(await ctx.store.findSessionByHash('same')).toEqual(first);
  });

  test('createSession rejects a member of another site or an unknown site with MissingReferenceError', async () => {
    const [bMember] = await addMembers(ctx.store, ctx.b.id, 1);
    await expectRejects(ctx.store.createSession(newSession(bMember!, 'x')), MissingReferenceError, 'memberId');
    await expectRejects(ctx.store.createSession(newSession(bMember! + 1000, 'x')), MissingReferenceError, 'memberId');
    await expectRejects(
      ctx.store.createSession(newSession(bMember!, 'x', ctx.b.id + 1000)),
      MissingReferenceError,
      'siteId',
    );
    expect(await ctx.store.findSessionByHash('x')).toBeUndefined();
  });

  test('touchSession moves lastUsedAt and expiresAt of that session only', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const touched = await ctx.store.createSession(newSession(ann!, 'touched'));
    const other = await ctx.store.createSession(newSession(ann!, 'other'));
    await ctx.store.touchSession(touched.id, T0 + HOUR, T0 + 25 * HOUR);
    expect(await ctx.store.findSessionByHash('touched')).toStrictEqual({
      ...touched,
      lastUsedAt: T0 + HOUR,
      expiresAt: T0 + 25 * HOUR,
    });
    expect(await ctx.store.findSessionByHash('other')).toStrictEqual(other);
    await ctx.store.touchSession(other.id + 1000, T0, T0); // no such session: nothing happens
    expect(await ctx.store.findSessionByHash('other')).toStrictEqual(other);
  });

  test('revokeSession marks the session revoked once; false for unknown or already revoked sessions', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const session = await ctx.store.createSession(newSession(ann!, 'live'));
    await ctx.store.createSession(newSession(ann!, 'kept'));
    expect(await ctx.store.revokeSession('live', T0 + HOUR)).toBe(true);
    expect(await ctx.store.findSessionByHash('live')).toStrictEqual({ ...session, revokedAt: T0 + HOUR });
    expect(await ctx.store.revokeSession('live', T0 + 2 * HOUR)).toBe(false);
    expect((await ctx.store.findSessionByHash('live'))?.revokedAt).toBe(T0 + HOUR);
    expect(await ctx.store.revokeSession('unknown', T0)).toBe(false);
    expect(await ctx.store.findSessionByHash('kept')).not.toHaveProperty('revokedAt');
  });

  test('deleteExpiredSessions deletes every site\'s sessions expired at `now`, revoked or not, and answers how many', async () => {
    const [ann, bob] = await addMembers(ctx.store, ctx.a.id, 2);
    const [bee] = await addMembers(ctx.store, ctx.b.id, 1);
    const at = (memberId: number, tokenHash: string, expiresAt: number, siteId = ctx.a.id) =>
      ctx.store.createSession({ ...newSession(memberId, tokenHash, siteId), expiresAt });
    await at(ann!, 'expired', T0 + HOUR);
    await at(bob!, 'expires-now', T0 + 2 * HOUR);
    await at(bee!, 'other-site-expired', T0 + HOUR, ctx.b.id);
    await at(ann!, 'revoked-expired', T0 + HOUR);
    await ctx.store.revokeSession('revoked-expired', T0 + HOUR / 2);
    const live = await at(ann!, 'live', T0 + 2 * HOUR + 1);
    const revokedLive = await at(bob!, 'revoked-live', T0 + 3 * HOUR);
    await ctx.store.revokeSession('revoked-live', T0 + HOUR);
    const otherSiteLive = await at(bee!, 'other-site-live', T0 + 5 * HOUR, ctx.b.id);

    // A session whose expiresAt has come is expired (sessions.ts reads `expiresAt <= now` so).
    expect(await ctx.store.deleteExpiredSessions(T0 + 2 * HOUR)).toBe(4);
    for (const hash of ['expired', 'expires-now', 'other-site-expired', 'revoked-expired']) {
      expect(await ctx.store.findSessionByHash(hash), hash).toBeUndefined();
    }
    expect(await ctx.store.findSessionByHash('live')).toStrictEqual(live);
    expect(await ctx.store.findSessionByHash('revoked-live')).toStrictEqual({ ...revokedLive, revokedAt: T0 + HOUR });
    expect(await ctx.store.findSessionByHash('other-site-live')).toStrictEqual(otherSiteLive);
    expect(await ctx.store.deleteExpiredSessions(T0 + 2 * HOUR)).toBe(0);
    // The members stay, sessions still work for them, and a deleted token's hash is free again.
    expect(await ctx.store.getMember(ctx.a.id, ann!)).toBeDefined();
    await ctx.store.touchSession(live.id, T0 + 2 * HOUR, T0 + 9 * HOUR);
    expect((await ctx.store.findSessionByHash('live'))?.expiresAt).toBe(T0 + 9 * HOUR);
    expect((await at(ann!, 'expired', T0 + 9 * HOUR)).id).toBeGreaterThan(otherSiteLive.id);
    expect(await ctx.store.deleteExpiredSessions(T0 + 5 * HOUR)).toBe(2);
    expect((await ctx.store.revokeMemberSessions(ctx.a.id, ann!, T0 + 5 * HOUR))).toBe(2);
  });

  test('deleteExpiredSessions on a store without sessions answers 0', async () => {
    expect(await ctx.store.deleteExpiredSessions(T0)).toBe(0);
  });

  test('a caller changing a returned session does not change the store', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const session = await ctx.store.createSession(newSession(ann!, 'mine'));
    session.expiresAt = 0;
    (await ctx.store.findSessionByHash('mine'))!.revokedAt = 1;
    expect(await ctx.store.findSessionByHash('mine')).toStrictEqual({ ...newSession(ann!, 'mine'), id: session.id });
  });
}
