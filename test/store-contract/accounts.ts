/** Contract: sign-up fields, member accounts (passwords, profile images, sign-up values) and reads of one member. */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { NewSignupField } from '../../src/service/store/records';
import { type Ctx, T0, expectRejects, newMember, newPlan } from './fixtures';

export function newField(siteId: number, overrides: Partial<NewSignupField> = {}): NewSignupField {
  return { siteId, type: 'text', label: 'Company', required: false, position: 0, ...overrides };
}

export function accountTests(ctx: Ctx): void {
  /** Fields of every type in site a: [text, textarea, select, multiple-select, checkbox] ids. */
  const fieldsOfEveryType = () =>
    ctx.store.createSignupFields([
      newField(ctx.a.id, { type: 'text', label: 'Company', position: 1 }),
      newField(ctx.a.id, { type: 'textarea', label: 'About you', position: 2 }),
      newField(ctx.a.id, {
        type: 'select',
        label: 'Country',
        required: true,
        position: 3,
        options: [
          { label: 'Germany', value: 'de' },
          { label: 'France', value: 'fr' },
        ],
      }),
      newField(ctx.a.id, {
        type: 'multiple-select',
        label: 'Topics',
        position: 4,
        options: [
          { label: 'Design', value: 'design' },
          { label: 'Code', value: 'code' },
          { label: 'Écriture', value: 'writing' },
        ],
      }),
      newField(ctx.a.id, { type: 'checkbox', label: 'I agree', required: true, position: 5 }),
    ]);

  test('createSignupFields returns ids in input order and listSignupFields reads the fields back exactly', async () => {
    const input = [
      newField(ctx.a.id, { type: 'text', label: 'Company', position: 1 }),
      newField(ctx.a.id, {
        type: 'multiple-select',
        label: 'Topics',
        required: true,
        position: 2,
        options: [
          { label: 'Design', value: 'design' },
          { label: 'Code & <more>', value: 'code' },
        ],
      }),
      newField(ctx.a.id, { type: 'checkbox', label: 'Newsletter', position: 3 }),
    ];
    const ids = await ctx.store.createSignupFields(input);
    expect(ids).toHaveLength(3);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const fields = await ctx.store.listSignupFields(ctx.a.id);
    // Fields made without a key are keyed `field-<id>`.
    expect(fields).toStrictEqual(input.map((f, i) => ({ ...f, id: ids[i], key: `field-${ids[i]}` })));
    expect(fields[0]).not.toHaveProperty('options');
    expect(fields[2]).not.toHaveProperty('options');
    expect(await ctx.store.createSignupFields([])).toEqual([]);
  });

  test('listSignupFields orders by position, then id, and shows only the site’s fields', async () => {
    const [late, early, tieA, tieB] = await ctx.store.createSignupFields([
      newField(ctx.a.id, { label: 'late', position: 9 }),
      newField(ctx.a.id, { label: 'early', position: -1 }),
      newField(ctx.a.id, { label: 'tie a', position: 4 }),
      newField(ctx.a.id, { label: 'tie b', position: 4 }),
    ]);
    await ctx.store.createSignupFields([newField(ctx.b.id, { label: 'other', position: 0 })]);
    expect((await ctx.store.listSignupFields(ctx.a.id)).map((f) => f.id)).toEqual([early, tieA, tieB, late]);
    expect((await ctx.store.listSignupFields(ctx.b.id)).map((f) => f.label)).toEqual(['other']);
    expect(await ctx.store.listSignupFields(ctx.b.id + 1000)).toEqual([]);
  });

  test('createSignupFields rejects an unknown site with MissingReferenceError on siteId, inserting nothing', async () => {
    const batch = [newField(ctx.a.id), newField(ctx.b.id + 1000)];
    await expectRejects(ctx.store.createSignupFields(batch), MissingReferenceError, 'siteId');
    expect(await ctx.store.listSignupFields(ctx.a.id)).toEqual([]);
  });

  test('members keep their sign-up values, by field id, and fields never filled in are absent', async () => {
    const [text, textarea, select, multi, checkbox] = await fieldsOfEveryType();
    const [ann, bob] = await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com', {
        signupValues: [
          { fieldId: checkbox!, value: true },
          { fieldId: multi!, value: ['design', 'writing'] },
          { fieldId: text!, value: 'Acme “Ltd”' },
          { fieldId: select!, value: 'de' },
          { fieldId: textarea!, value: 'line one\nline two' },
        ],
      }),
      newMember(ctx.a.id, 'bob@example.com', {
        signupValues: [
          { fieldId: checkbox!, value: false },
          { fieldId: multi!, value: [] },
          { fieldId: text!, value: '' },
        ],
      }),
    ]);
    const [cy] = await ctx.store.createMembers([newMember(ctx.a.id, 'cy@example.com')]);
    expect(await ctx.store.listSignupValues(ctx.a.id, ann!)).toEqual([
      { fieldId: text, value: 'Acme “Ltd”' },
      { fieldId: textarea, value: 'line one\nline two' },
      { fieldId: select, value: 'de' },
      { fieldId: multi, value: ['design', 'writing'] },
      { fieldId: checkbox, value: true },
    ]);
    expect(await ctx.store.listSignupValues(ctx.a.id, bob!)).toEqual([
      { fieldId: text, value: '' },
      { fieldId: multi, value: [] },
      { fieldId: checkbox, value: false },
    ]);
    expect(await ctx.store.listSignupValues(ctx.a.id, cy!)).toEqual([]);
    expect(await ctx.store.listSignupValues(ctx.a.id, cy! + 1000)).toEqual([]);
  });

  test('createMembers rejects a sign-up value of another site’s or an unknown field, inserting nothing', async () => {
    const [mine] = await ctx.store.createSignupFields([newField(ctx.a.id)]);
    const [theirs] = await ctx.store.createSignupFields([newField(ctx.b.id)]);
    const ok = newMember(ctx.a.id, 'ok@example.com', { signupValues: [{ fieldId: mine!, value: 'x' }] });
    for (const fieldId of [theirs!, theirs! + 1000]) {
      const bad = newMember(ctx.a.id, 'bad@example.com', { signupValues: [{ fieldId: mine!, value: 'x' }, { fieldId, value: 'y' }] });
      await expectRejects(ctx.store.createMembers([ok, bad]), MissingReferenceError, 'fieldId');
      expect((await ctx.store.listMembers(ctx.a.id, {}, { limit: 10 })).items).toEqual([]);
      expect(await ctx.store.findMemberLogin(ctx.a.id, 'ok@example.com')).toBeUndefined();
    }
    // Still usable, and the e-mails are still free.
    const ids = await ctx.store.createMembers([ok, newMember(ctx.a.id, 'bad@example.com')]);
    expect(await ctx.store.listSignupValues(ctx.a.id, ids[0]!)).toEqual([{ fieldId: mine, value: 'x' }]);
    expect(await ctx.store.listSignupValues(ctx.a.id, ids[1]!)).toEqual([]);
  });

  test('createMembers still rejects a taken e-mail with ConflictError on email when values are given', async () => {
    const [field] = await ctx.store.createSignupFields([newField(ctx.a.id)]);
    await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    const again = newMember(ctx.a.id, 'ann@example.com', { passwordHash: 'h', signupValues: [{ fieldId: field!, value: 'x' }] });
    await expectRejects(ctx.store.createMembers([again]), ConflictError, 'email');
    const login = await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com');
    expect(login).toBeDefined();
    expect(login).not.toHaveProperty('passwordHash');
  });

  test('findMemberLogin gives id, status and password hash, matching the e-mail exactly within the site', async () => {
    const [ann, bob] = await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com', { passwordHash: '$scrypt$ann', status: 'blocked' }),
      newMember(ctx.a.id, 'bob@example.com'),
    ]);
    await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com', { passwordHash: '$scrypt$other' })]);
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toEqual({
      memberId: ann,
      status: 'blocked',
      passwordHash: '$scrypt$ann',
    });
    const withoutPassword = await ctx.store.findMemberLogin(ctx.a.id, 'bob@example.com');
    expect(withoutPassword).toEqual({ memberId: bob, status: 'approved' });
    expect(withoutPassword).not.toHaveProperty('passwordHash');
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ANN@example.com')).toBeUndefined();
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example')).toBeUndefined();
    expect(await ctx.store.findMemberLogin(ctx.a.id, ' ann@example.com')).toBeUndefined();
    expect((await ctx.store.findMemberLogin(ctx.b.id, 'ann@example.com'))?.passwordHash).toBe('$scrypt$other');
    expect(await ctx.store.findMemberLogin(ctx.b.id, 'bob@example.com')).toBeUndefined();
  });

  test('getMember and listMembers read members with their profile image, never the password hash', async () => {
    const input = [
      newMember(ctx.a.id, 'ann@example.com', {
        firstName: 'Ann',
        passwordHash: '$scrypt$secret',
        profileImageUrl: 'https://cdn.example.com/ann.png',
      }),
      newMember(ctx.a.id, 'bob@example.com', { passwordHash: '$scrypt$bob', createdAt: T0 + 7 }),
    ];
    const [ann, bob] = await ctx.store.createMembers(input);
    const expectedAnn = {
      id: ann,
      siteId: ctx.a.id,
      email: 'ann@example.com',
      firstName: 'Ann',
      profileImageUrl: 'https://cdn.example.com/ann.png',
      status: 'approved',
      createdAt: T0,
    };
    const expectedBob = { id: bob, siteId: ctx.a.id, email: 'bob@example.com', status: 'approved', createdAt: T0 + 7 };
    expect(await ctx.store.getMember(ctx.a.id, ann!)).toStrictEqual(expectedAnn);
    expect(await ctx.store.getMember(ctx.a.id, bob!)).toStrictEqual(expectedBob);
    const listed = (await ctx.store.listMembers(ctx.a.id, {}, { limit: 10 })).items;
    expect(listed).toStrictEqual([expectedAnn, expectedBob]);
    expect(JSON.stringify(listed)).not.toContain('scrypt');
    expect(JSON.stringify(await ctx.store.getMember(ctx.a.id, ann!))).not.toContain('scrypt');
  });

  test('getMember is scoped by site', async () => {
    const [mine] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    const [theirs] = await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com')]);
    expect((await ctx.store.getMember(ctx.a.id, mine!))?.id).toBe(mine);
    expect(await ctx.store.getMember(ctx.a.id, theirs!)).toBeUndefined();
    expect(await ctx.store.getMember(ctx.b.id, mine!)).toBeUndefined();
    expect(await ctx.store.getMember(ctx.a.id, theirs! + 1000)).toBeUndefined();
  });

  test('a caller changing returned records does not change the store', async () => {
    const [field] = await ctx.store.createSignupFields([
      newField(ctx.a.id, { type: 'select', options: [{ label: 'A', value: 'a' }] }),
    ]);
    const [ann] = await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com', { firstName: 'Ann', signupValues: [{ fieldId: field!, value: 'a' }] }),
    ]);
    // A store may hand out copies, or records that refuse the change (the SQL stores' cached
    // definition is frozen: ../src/service/store/definition-cache.ts); either way nothing sticks.
    const change = (apply: () => void) => {
      try {
        apply();
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
    };
    const fields = await ctx.store.listSignupFields(ctx.a.id);
    change(() => (fields[0]!.options![0]!.label = 'changed'));
    change(() => fields.pop());
    const member = (await ctx.store.getMember(ctx.a.id, ann!))!;
    change(() => (member.firstName = 'changed'));
    (await ctx.store.listSignupValues(ctx.a.id, ann!))[0]!.value = 'changed';
    expect((await ctx.store.listSignupFields(ctx.a.id))[0]!.options).toEqual([{ label: 'A', value: 'a' }]);
    expect((await ctx.store.getMember(ctx.a.id, ann!))!.firstName).toBe('Ann');
    expect(await ctx.store.listSignupValues(ctx.a.id, ann!)).toEqual([{ fieldId: field, value: 'a' }]);
  });

  test('listMembershipsOfMember gives every membership of the member, by id, within the site', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id));
    const other = await ctx.store.createPlan(newPlan(ctx.a.id, { name: 'Silver' }, {
      type: 'subscription',
      billing: { price: 5, currency: 'usd', interval: { count: 1, unit: 'month' } },
    }));
    const bPlan = await ctx.store.createPlan(newPlan(ctx.b.id));
    const [ann, bob] = await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com'),
      newMember(ctx.a.id, 'bob@example.com'),
    ]);
    const [bAnn] = await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com')]);
    const ms = (memberId: number, planId: number, siteId = ctx.a.id) => ({
      siteId, memberId, planId, status: 'active' as const, createdAt: T0, paymentFailure: false,
    });
    const [first, , third] = await ctx.store.createMemberships([
      ms(ann!, plan.id),
      ms(bob!, plan.id),
      { ...ms(ann!, other.id), status: 'cancelled', billingPeriodEnd: T0 + 5, cancelsAt: T0 + 5 },
    ]);
    await ctx.store.createMemberships([ms(bAnn!, bPlan.id, ctx.b.id)]);
    const memberships = await ctx.store.listMembershipsOfMember(ctx.a.id, ann!);
    expect(memberships).toEqual([
      { ...ms(ann!, plan.id), id: first, type: 'free', planPublicId: plan.publicId },
      {
        ...ms(ann!, other.id),
        status: 'cancelled',
        billingPeriodEnd: T0 + 5,
        cancelsAt: T0 + 5,
        id: third,
        type: 'subscription',
        planPublicId: other.publicId,
      },
    ]);
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, bAnn!)).toEqual([]);
    expect(await ctx.store.listMembershipsOfMember(ctx.b.id, ann!)).toEqual([]);
    const [cy] = await ctx.store.createMembers([newMember(ctx.a.id, 'cy@example.com')]);
    expect(await ctx.store.listMembershipsOfMember(ctx.a.id, cy!)).toEqual([]);
  });

  test('a member’s sign-up values and login are not visible through another site', async () => {
    const [field] = await ctx.store.createSignupFields([newField(ctx.a.id)]);
    const [ann] = await ctx.store.createMembers([
      newMember(ctx.a.id, 'ann@example.com', { passwordHash: 'h', signupValues: [{ fieldId: field!, value: 'x' }] }),
    ]);
    expect(await ctx.store.listSignupValues(ctx.b.id, ann!)).toEqual([]);
    expect(await ctx.store.findMemberLogin(ctx.b.id, 'ann@example.com')).toBeUndefined();
    expect(await ctx.store.listSignupFields(ctx.b.id)).toEqual([]);
  });
}
