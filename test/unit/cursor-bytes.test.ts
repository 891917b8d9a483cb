/**
 * A cursor a client holds must keep working across releases: these are cursors the service issued
 * before its MAC was computed without allocating (decision 0027), byte for byte.
 */
import { expect, test } from 'vitest';
import { canonicalFilters, CursorCodec } from '../../src/service/admin/cursor';

const codec = new CursorCodec('a secret that never changes');
const issued: Array<[object, number, string]> = [
  [{}, 25, 'p.CO5TBUd4QrT3i9Faud5sNg'],
  [{ status: 'approved', created: { to: 1767225600000, from: 1735689600000 } }, 250_000, '5cwg._b8oSjkEGgZUIkA4arLMbw'],
  [{ email: 'ada@example.com' }, 2 ** 40, 'e13wu1og.LjRE-ZfJvbVGBYmg0EZwbg'],
];

test('encodes the cursors it always has', () => {
  for (const [filters, id, cursor] of issued) {
    expect(codec.encode({ siteId: 3, endpoint: '/members', filters: canonicalFilters(filters) }, id)).toBe(cursor);
  }
});

test('accepts the cursors it issued before, and only for their own scope', () => {
  for (const [filters, id, cursor] of issued) {
    const scope = { siteId: 3, endpoint: '/members', filters: canonicalFilters(filters) };
    expect(codec.decode(scope, cursor)).toBe(id);
    expect(codec.decode({ ...scope, siteId: 4 }, cursor)).toBeUndefined();
  }
});

test('no filters at all and only absent ones are the same canonical set', () => {
  expect(canonicalFilters({})).toBe('{}');
  expect(canonicalFilters({ email: undefined, status: undefined, created: undefined })).toBe('{}');
  expect(canonicalFilters({ email: undefined, created: { from: undefined } })).toBe('{"created":{}}');
});
