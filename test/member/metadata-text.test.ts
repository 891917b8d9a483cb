/**
 * Issue 26: member metadata follows the one text rule (textProblem, src/service/domain/validation.ts)
 * like every other text the service takes. A string value at any depth (in objects and arrays)
 * may hold no control character but tab, LF and CRLF, and no lone surrogate; a key at any depth
 * may hold no control character at all and no lone surrogate. Anything else is the existing
 * 400 invalidMetadata, naming where, and nothing changes, on every store.
 */
import { expect, test } from 'vitest';
import { ADA, BASE, expectError, forEachStore, jsonOf } from './support';

const METADATA = `${BASE}/me/metadata`;

/** JSON texts as a page could send them: escapes, so the test's own code holds no odd byte. */
const REFUSED: Array<[what: string, raw: string, where: string]> = [
  ['a NUL in a value', '{"a":"x\\u0000y"}', 'a'],
  ['a NUL as a whole value', '{"a":"\\u0000"}', 'a'],
  ['ESC in a value', '{"a":"\\u001b[31m"}', 'a'],
  ['DEL in a value', '{"a":"\\u007f"}', 'a'],
  ['a C1 control (NEL) in a value', '{"a":"\\u0085"}', 'a'],
  ['a lone CR in a value', '{"a":"x\\ry"}', 'a'],
  ['a lone high surrogate in a value', '{"a":"\\ud800"}', 'a'],
  ['a lone low surrogate in a value', '{"a":"x\\udc00"}', 'a'],
  ['a NUL in a nested value', '{"prefs":{"deep":{"x":"\\u0000"}}}', 'prefs.deep.x'],
  ['a NUL in an array', '{"list":["ok","no\\u0000"]}', 'list.1'],
  ['a surrogate in an object in an array', '{"list":[{"n":"\\udfff"}]}', 'list.0.n'],
  ['a NUL in a key', '{"\\u0000":1}', '"\\u0000"'],
  ['a NUL inside a key', '{"ke\\u0000y":"v"}', '"ke\\u0000y"'],
  ['a line break in a key', '{"a\\nb":1}', '"a\\nb"'],
  ['a tab in a key', '{"a\\tb":1}', '"a\\tb"'],
  ['a lone surrogate in a key', '{"\\ud800":1}', '"\\ud800"'],
  ['a control in a nested key', '{"prefs":{"\\u0007":true}}', 'prefs."\\u0007"'],
  ['a control in a key of an object in an array', '{"list":[{"\\u001f":1}]}', 'list.0."\\u001f"'],
  ['a NUL in a key whose value is null (a removal)', '{"\\u0000":null}', '"\\u0000"'],
];

forEachStore((fresh) => {
  test.each(REFUSED)('PATCH /me/metadata with %s is 400 invalidMetadata naming it, and nothing changes', async (_what, raw, where) => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const stored = async () => jsonOf<Record<string, unknown>>(await ctx.authed(token, METADATA), 200);
    const before = await stored();
    const res = await ctx.authed(token, METADATA, { method: 'PATCH', raw });
    const body = await expectError(res, 400, 'invalidMetadata');
    expect(body.errors[0]!.message).toMatch(/control characters|Unicode/);
    expect(body.errors[0]!.message).toContain(where);
    expect(await stored()).toStrictEqual(before);
  });

  test('a metadata string keeps tab, LF and CRLF; accents, emoji and other scripts anywhere, keys included', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const patch = { note: 'line one\nline two\r\n\tindented', 'ключ 😀': ['Zoë', { 大塚: 'a\u00a0b' }] };
    const res = await ctx.authed(token, METADATA, { method: 'PATCH', json: patch });
    expect(await jsonOf(res, 200)).toStrictEqual({ theme: 'dark', ...patch });
    expect(await jsonOf(await ctx.authed(token, METADATA), 200)).toStrictEqual({ theme: 'dark', ...patch });
  });
});
