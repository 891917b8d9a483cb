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

  test('a caller changing a returned session does not change the store', async () => {
    const [ann] = await addMembers(ctx.store, ctx.a.id, 1);
    const session = await ctx.store.createSession(newSession(ann!, 'mine'));
    session.expiresAt = 0;
    (await ctx.store.findSessionByHash('mine'))!.revokedAt = 1;
    expect(await ctx.store.findSessionByHash('mine')).toStrictEqual({ ...newSession(ann!, 'mine'), id: session.id });
  });
}
