/** Contract: a member changing their own account (updateMember) and signing out elsewhere (revokeMemberSessions). */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { NewSession } from '../../src/service/store/records';
import { newField } from './accounts';
import { type Ctx, T0, expectRejects, newMember } from './fixtures';

export function accountUpdateTests(ctx: Ctx): void {
  const ann = async () => {
    const [text, box] = await ctx.store.createSignupFields([
      newField(ctx.a.id, { type: 'text', label: 'Company', position: 1 }),
      newField(ctx.a.id, { type: 'checkbox', label: 'News', position: 2 }),
    ]);
    const [id] = await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com', {
        firstName: 'Ann', lastName: 'Lee', passwordHash: 'old-hash',
        signupValues: [{ fieldId: text!, value: 'Acme' }, { fieldId: box!, value: true }],
      }),
    ]);
    return { id: id!, text: text!, box: box! };
  };

  test('updateMember changes only what the patch names, and answers the member after it', async () => {
    const { id } = await ann();
    const before = (await ctx.store.getMember(ctx.a.id, id))!;
    const after = await ctx.store.updateMember(ctx.a.id, id, { firstName: 'Annie' });
    expect(after).toStrictEqual({ ...before, firstName: 'Annie' });
    expect(await ctx.store.getMember(ctx.a.id, id)).toStrictEqual(after);
    expect(await ctx.store.updateMember(ctx.a.id, id, {})).toStrictEqual(after);
  });

  test('null clears a name: the field is absent afterwards', async () => {
    const { id } = await ann();
    const after = await ctx.store.updateMember(ctx.a.id, id, { lastName: null });
    expect(after).not.toHaveProperty('lastName');
    expect(after?.firstName).toBe('Ann');
  });

  test('a new e-mail and password hash are what sign-in finds; the old e-mail finds nobody', async () => {
    const { id } = await ann();
    await ctx.store.updateMember(ctx.a.id, id, { email: 'ann@new.example', passwordHash: 'new-hash' });
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@new.example')).toEqual({ memberId: id, status: 'approved', passwordHash: 'new-hash' });
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toBeUndefined();
    // The old address is free again.
    await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
  });

  test('an e-mail another member of the site has is a ConflictError on email, and nothing changes', async () => {
    const { id, text } = await ann();
    await ctx.store.createMembers([newMember(ctx.a.id, 'bob@example.com'), newMember(ctx.b.id, 'carol@example.com')]);
    await expectRejects(
      ctx.store.updateMember(ctx.a.id, id, { email: 'bob@example.com', firstName: 'X', signupValues: [{ fieldId: text, value: 'Y' }] }),
      ConflictError,
      'email',
    );
    expect((await ctx.store.getMember(ctx.a.id, id))?.firstName).toBe('Ann');
    expect(await ctx.store.listSignupValues(ctx.a.id, id)).toContainEqual({ fieldId: text, value: 'Acme' });
    // Another site's member may have it; keeping one's own e-mail is no conflict.
    expect((await ctx.store.updateMember(ctx.a.id, id, { email: 'carol@example.com' }))?.email).toBe('carol@example.com');
    expect((await ctx.store.updateMember(ctx.a.id, id, { email: 'carol@example.com' }))?.email).toBe('carol@example.com');
  });

  test('sign-up values given replace those fields’ values, null clears one, the rest stay', async () => {
    const { id, text, box } = await ann();
    const [extra] = await ctx.store.createSignupFields([newField(ctx.a.id, { type: 'select', label: 'Role', position: 3, options: [{ label: 'Dev', value: 'dev' }] })]);
    await ctx.store.updateMember(ctx.a.id, id, { signupValues: [{ fieldId: text, value: null }, { fieldId: extra!, value: 'dev' }] });
    expect(await ctx.store.listSignupValues(ctx.a.id, id)).toStrictEqual(
      [{ fieldId: box, value: true }, { fieldId: extra!, value: 'dev' }].sort((x, y) => x.fieldId - y.fieldId),
    );
  });

  test('a sign-up value for a field of another site is a MissingReferenceError on fieldId, and nothing changes', async () => {
    const { id } = await ann();
    const [foreign] = await ctx.store.createSignupFields([newField(ctx.b.id)]);
    await expectRejects(
      ctx.store.updateMember(ctx.a.id, id, { firstName: 'X', signupValues: [{ fieldId: foreign!, value: 'x' }] }),
      MissingReferenceError,
      'fieldId',
    );
    expect((await ctx.store.getMember(ctx.a.id, id))?.firstName).toBe('Ann');
  });

  test('updateMember of an unknown member, or of another site’s, answers undefined', async () => {
    const { id } = await ann();
    expect(await ctx.store.updateMember(ctx.b.id, id, { firstName: 'X' })).toBeUndefined();
    expect(await ctx.store.updateMember(ctx.a.id, 999_999, { firstName: 'X' })).toBeUndefined();
    expect((await ctx.store.getMember(ctx.a.id, id))?.firstName).toBe('Ann');
  });

  test('revokeMemberSessions revokes the member’s live sessions but the one kept, and no one else’s', async () => {
    const { id } = await ann();
    const [bob] = await ctx.store.createMembers([newMember(ctx.a.id, 'bob@example.com')]);
    const session = (memberId: number, tokenHash: string): NewSession => ({
      siteId: ctx.a.id, memberId, tokenHash, createdAt: T0, lastUsedAt: T0, expiresAt: T0 + 86_400_000,
    });
    for (const hash of ['keep', 'one', 'two', 'gone']) await ctx.store.createSession(session(id, hash));
    await ctx.store.createSession(session(bob!, 'bob'));
    await ctx.store.revokeSession('gone', T0 + 1);
    expect(await ctx.store.revokeMemberSessions(ctx.a.id, id, T0 + 5, 'keep')).toBe(2);
    expect((await ctx.store.findSessionByHash('keep'))?.revokedAt).toBeUndefined();
    expect((await ctx.store.findSessionByHash('one'))?.revokedAt).toBe(T0 + 5);
    expect((await ctx.store.findSessionByHash('two'))?.revokedAt).toBe(T0 + 5);
    expect((await ctx.store.findSessionByHash('gone'))?.revokedAt).toBe(T0 + 1);
    expect((await ctx.store.findSessionByHash('bob'))?.revokedAt).toBeUndefined();
    expect(await ctx.store.revokeMemberSessions(ctx.b.id, id, T0 + 6)).toBe(0);
    expect(await ctx.store.revokeMemberSessions(ctx.a.id, id, T0 + 7)).toBe(1);
    expect((await ctx.store.findSessionByHash('keep'))?.revokedAt).toBe(T0 + 7);
  });
}
