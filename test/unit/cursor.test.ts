import { expect, test } from 'vitest';
import { canonicalFilters, CursorCodec } from '../../src/service/admin/cursor';

const codec = new CursorCodec('secret-one');
const scope = { siteId: 1, endpoint: '/members', filters: canonicalFilters({ status: 'approved' }) };

test('a cursor round-trips to the id it was made for', () => {
  for (const id of [1, 25, 999_999, 2 ** 40]) expect(codec.decode(scope, codec.encode(scope, id))).toBe(id);
});

test('a cursor is refused for another site, endpoint, filter set or secret', () => {
  const cursor = codec.encode(scope, 25);
  expect(codec.decode({ ...scope, siteId: 2 }, cursor)).toBeUndefined();
  expect(codec.decode({ ...scope, endpoint: '/memberships' }, cursor)).toBeUndefined();
  expect(codec.decode({ ...scope, filters: canonicalFilters({ status: 'pending' }) }, cursor)).toBeUndefined();
  expect(new CursorCodec('secret-two').decode(scope, cursor)).toBeUndefined();
});

test('an edited cursor is refused', () => {
  const cursor = codec.encode(scope, 25);
  const [id, mac] = cursor.split('.') as [string, string];
  expect(codec.decode(scope, `${(parseInt(id, 36) + 1).toString(36)}.${mac}`)).toBeUndefined();
  const flipped = mac.slice(0, -1) + (mac.endsWith('A') ? 'B' : 'A');
  expect(codec.decode(scope, `${id}.${flipped}`)).toBeUndefined();
  for (const junk of ['', '.', 'abc', `${cursor}.x`, `${cursor} `, `-1.${mac}`, cursor.toUpperCase()]) {
    expect(codec.decode(scope, junk), junk).toBeUndefined();
  }
});

test('filters are canonical: key order and absent values do not matter, values do', () => {
  expect(canonicalFilters({ a: 1, b: undefined, c: { to: 2, from: 1 } })).toBe(canonicalFilters({ c: { from: 1, to: 2 }, a: 1 }));
  expect(canonicalFilters({ a: 1 })).not.toBe(canonicalFilters({ a: 2 }));
  expect(canonicalFilters({ statuses: ['enabled', 'disabled'] })).not.toBe(canonicalFilters({ statuses: ['deleted'] }));
});
