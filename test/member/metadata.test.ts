/** /me/metadata over HTTP (spec 2.8): a JSON object per member, merged at every level. */
import { expect, test } from 'vitest';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, OTHER_BASE, OTTO, type MemberCtx } from './support';

const METADATA = `${BASE}/me/metadata`;

async function signedIn(ctx: MemberCtx, who: { email: string; password: string } = ADA) {
  const { token } = await ctx.session(who);
  const get = async () => jsonOf<Record<string, unknown>>(await ctx.authed(token, METADATA), 200);
  const patch = (json: unknown) => ctx.authed(token, METADATA, { method: 'PATCH', json });
  const patchRaw = (raw: string) => ctx.authed(token, METADATA, { method: 'PATCH', raw });
  const patchOk = async (json: unknown) => jsonOf<Record<string, unknown>>(await patch(json), 200);
  return { token, get, patch, patchRaw, patchOk };
}

/** `{a: {a: … {a: 1}}}` with `levels` objects. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as Record<string, unknown>;
}

forEachStore((fresh) => {
  test('metadata starts as {} for a member who never set any', async () => {
    const ctx = await fresh();
    const grace = await signedIn(ctx, GRACE);
    expect(await grace.get()).toStrictEqual({});
  });

  test("ada's metadata is her fixture value {theme: 'dark'}", async () => {
    const ctx = await fresh();
    expect(await (await signedIn(ctx)).get()).toStrictEqual({ theme: 'dark' });
  });

  test('a new member’s metadata is {}', async () => {
    const ctx = await fresh();
    const f = ctx.demo.fieldIds;
    const { token } = await jsonOf<{ token: string }>(
      await ctx.signUp({ email: 'meta@example.com', password: 'a good password', customFields: { [f.role!]: 'other', [f.terms!]: true } }),
      201,
    );
    expect(await jsonOf(await ctx.authed(token, METADATA), 200)).toStrictEqual({});
  });

  test('PATCH merges into the stored object at the top level and answers the result', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    expect(await ada.patchOk({ lang: 'en', count: 3 })).toStrictEqual({ theme: 'dark', lang: 'en', count: 3 });
    expect(await ada.get()).toStrictEqual({ theme: 'dark', lang: 'en', count: 3 });
  });

  test('PATCH merges nested objects at every level', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await ada.patchOk({ prefs: { a: 1, deep: { x: 1, y: { z: 1 } } } });
    expect(await ada.patchOk({ prefs: { b: 2, deep: { y: { w: 2 } } } })).toStrictEqual({
      theme: 'dark',
      prefs: { a: 1, b: 2, deep: { x: 1, y: { z: 1, w: 2 } } },
    });
    expect(await ada.get()).toStrictEqual({ theme: 'dark', prefs: { a: 1, b: 2, deep: { x: 1, y: { z: 1, w: 2 } } } });
  });

  test('null removes a key at the top level and at any depth; null for an absent key changes nothing', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await ada.patchOk({ prefs: { a: 1, deep: { x: 1, y: 2 } } });
    expect(await ada.patchOk({ theme: null, prefs: { deep: { x: null } }, absent: null, alsoAbsent: { inner: null } })).toStrictEqual({
      prefs: { a: 1, deep: { y: 2 } },
      alsoAbsent: {},
    });
    expect(await ada.patchOk({ prefs: null })).toStrictEqual({ alsoAbsent: {} });
    expect(await ada.get()).toStrictEqual({ alsoAbsent: {} });
  });

  test('arrays replace what was there and are never merged; null inside an array is kept', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await ada.patchOk({ list: [1, 2, 3], nested: { tags: ['a', 'b'] } });
    expect(await ada.patchOk({ list: [9], nested: { tags: [null, { k: 1 }] } })).toStrictEqual({
      theme: 'dark',
      list: [9],
      nested: { tags: [null, { k: 1 }] },
    });
    // An array replaces an object, and an object replaces an array.
    expect(await ada.patchOk({ nested: [1], list: { a: 1 } })).toStrictEqual({ theme: 'dark', list: { a: 1 }, nested: [1] });
  });

  test('scalars replace objects, and an object replacing a scalar is stored without its null keys', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await ada.patchOk({ obj: { a: 1 } });
    expect(await ada.patchOk({ obj: 'flat', theme: { mode: 'dark', old: null } })).toStrictEqual({ obj: 'flat', theme: { mode: 'dark' } });
    expect(await ada.patchOk({ obj: false, n: 0, s: '' })).toStrictEqual({ obj: false, theme: { mode: 'dark' }, n: 0, s: '' });
  });

  test('an empty PATCH changes nothing and answers the stored object', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    expect(await ada.patchOk({})).toStrictEqual({ theme: 'dark' });
  });

  test.each([
    ['null', 'null'],
    ['an array', '[{"a":1}]'],
    ['a string', '"dark"'],
    ['a number', '42'],
    ['a boolean', 'true'],
  ])('PATCH with %s is 400 invalidMetadata and changes nothing', async (_label, raw) => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await expectError(await ada.patchRaw(raw), 400, 'invalidMetadata');
    expect(await ada.get()).toStrictEqual({ theme: 'dark' });
  });

  test.each([['not JSON', '{"a":'], ['empty', '']])('PATCH with a body that is %s is 400 invalidBody and changes nothing', async (_label, raw) => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await expectError(await ada.patchRaw(raw), 400, 'invalidBody');
    expect(await ada.get()).toStrictEqual({ theme: 'dark' });
  });

  test('metadata nested 16 levels deep is accepted; 17 levels is 400 invalidMetadata and changes nothing', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    expect(await ada.patchOk({ deep: nested(15) })).toStrictEqual({ theme: 'dark', deep: nested(15) });
    await expectError(await ada.patch({ deeper: nested(16) }), 400, 'invalidMetadata');
    // Arrays count as levels too.
    let arrays: unknown = 1;
    for (let i = 0; i < 16; i++) arrays = [arrays];
    await expectError(await ada.patch({ arrays }), 400, 'invalidMetadata');
    expect(await ada.get()).toStrictEqual({ theme: 'dark', deep: nested(15) });
  });

  test('hostile nesting (thousands of levels) is a 400, not a crash', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    const raw = `{"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    await expectError(await ada.patchRaw(raw), 400, 'invalidMetadata');
    expect(await ada.get()).toStrictEqual({ theme: 'dark' });
  });

  test('a result over 16 KiB of JSON is 413 metadataTooLarge and changes nothing; exactly 16 KiB is accepted', async () => {
    const ctx = await fresh();
    const grace = await signedIn(ctx, GRACE);
    const overhead = JSON.stringify({ k: '' }).length;
    expect(await grace.patchOk({ k: 'x'.repeat(16 * 1024 - overhead) })).toHaveProperty('k');
    await expectError(await grace.patch({ more: 1 }), 413, 'metadataTooLarge');
    const stored = await grace.get();
    expect(Object.keys(stored)).toEqual(['k']);
    expect(JSON.stringify(stored).length).toBe(16 * 1024);
  });

  test('the 16 KiB limit counts the whole merged result, not the update alone', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await ada.patchOk({ a: 'x'.repeat(9000) });
    await expectError(await ada.patch({ b: 'y'.repeat(9000) }), 413, 'metadataTooLarge');
    expect(Object.keys(await ada.get()).sort()).toEqual(['a', 'theme']);
    // Replacing a instead fits.
    await ada.patchOk({ a: null, b: 'y'.repeat(9000) });
    expect(Object.keys(await ada.get()).sort()).toEqual(['b', 'theme']);
  });

  test('the 16 KiB limit counts UTF-8 bytes, not characters', async () => {
    const ctx = await fresh();
    const grace = await signedIn(ctx, GRACE);
    // 9000 characters, 18000 bytes.
    await expectError(await grace.patch({ s: 'é'.repeat(9000) }), 413, 'metadataTooLarge');
    expect(await grace.get()).toStrictEqual({});
  });

  test('a "__proto__" key stays an ordinary key, is merged like any other, and pollutes nothing', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    const first = await ada.patchRaw('{"__proto__":{"polluted":true},"constructor":{"prototype":{"bad":1}}}');
    const text = await first.text();
    expect(first.status, text).toBe(200);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    // (Compared key by key: an own "constructor" key confuses deep equality.)
    expect(Object.keys(body).sort()).toEqual(['__proto__', 'constructor', 'theme']);
    expect(body['__proto__']).toStrictEqual({ polluted: true });
    expect(body['constructor']).toStrictEqual({ prototype: { bad: 1 } });
    expect(body['theme']).toBe('dark');
    await ada.patchRaw('{"__proto__":{"other":1}}');
    const stored = await ada.get();
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect(stored['__proto__']).toStrictEqual({ polluted: true, other: 1 });
    expect(Object.hasOwn(stored, 'polluted')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).bad).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    // Another member sees nothing of it.
    expect(await (await signedIn(ctx, GRACE)).get()).toStrictEqual({});
  });

  test('DELETE /me/metadata answers {} and leaves {} stored', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    await ada.patchOk({ more: { a: 1 } });
    const res = await ctx.authed(ada.token, METADATA, { method: 'DELETE' });
    expect(await jsonOf(res, 200)).toStrictEqual({});
    expect(await ada.get()).toStrictEqual({});
    expect(await ada.patchOk({ fresh: true })).toStrictEqual({ fresh: true });
  });

  test('50 concurrent PATCHes each setting its own key all survive', async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => ada.patch({ [`k${i}`]: i })));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const expected: Record<string, unknown> = { theme: 'dark' };
    for (let i = 0; i < 50; i++) expected[`k${i}`] = i;
    expect(await ada.get()).toStrictEqual(expected);
  });

  test('50 concurrent PATCHes into one nested object all survive', async () => {
    const ctx = await fresh();
    const grace = await signedIn(ctx, GRACE);
    await Promise.all(Array.from({ length: 50 }, (_, i) => grace.patch({ shared: { [`k${i}`]: [i] } })));
    const stored = await grace.get();
    expect(Object.keys(stored.shared as object)).toHaveLength(50);
  });

  test("one member's metadata is invisible to, and untouched by, another member", async () => {
    const ctx = await fresh();
    const ada = await signedIn(ctx);
    const grace = await signedIn(ctx, GRACE);
    await grace.patchOk({ secret: 'grace only' });
    expect(await ada.get()).toStrictEqual({ theme: 'dark' });
    await ada.patchOk({ theme: null, mine: 1 });
    expect(await grace.get()).toStrictEqual({ secret: 'grace only' });
    await jsonOf(await ctx.authed(grace.token, METADATA, { method: 'DELETE' }), 200);
    expect(await ada.get()).toStrictEqual({ mine: 1 });
    // A member of the other site starts from {} on their own site.
    const { token } = await ctx.session(OTTO, OTHER_BASE);
    expect(await jsonOf(await ctx.request(`${OTHER_BASE}/me/metadata`, { token, origin: null }), 200)).toStrictEqual({});
  });

  test.each(['GET', 'PATCH', 'DELETE'])('%s /me/metadata without a session is 401 unauthenticated and changes nothing', async (method) => {
    const ctx = await fresh();
    const res = await ctx.request(METADATA, { method, ...(method === 'PATCH' && { json: { a: 1 } }) });
    await expectError(res, 401, 'unauthenticated');
    expect(await ctx.store.getMemberMetadata(ctx.demo.site.id, ctx.demo.memberIds.ada!)).toStrictEqual({ theme: 'dark' });
  });
});
