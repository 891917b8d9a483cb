/**
 * The metadata rules of spec 2.8 and the decisions of docs/member-api.md, as a table: what an
 * update does to what is stored. Each row can fail on its own.
 */
import { describe, expect, test } from 'vitest';
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH, type MemberMetadata } from '../../src/contract/member';
import { assertMetadataPatch, mergeMetadata, MetadataError } from '../../src/service/domain/metadata';

const cases: Array<[string, MemberMetadata, MemberMetadata, MemberMetadata]> = [
  ['adds a key to the empty object', {}, { a: 1 }, { a: 1 }],
  ['keeps keys the update does not name', { a: 1, b: 2 }, { b: 3 }, { a: 1, b: 3 }],
  ['merges nested objects at every level', { p: { q: { r: 1, s: 2 } } }, { p: { q: { s: 3, t: 4 } } }, { p: { q: { r: 1, s: 3, t: 4 } } }],
  ['null removes a top-level key', { a: 1, b: 2 }, { a: null }, { b: 2 }],
  ['null removes a nested key', { p: { q: 1, r: 2 } }, { p: { q: null } }, { p: { r: 2 } }],
  ['null on an absent key changes nothing', { a: 1 }, { zz: null }, { a: 1 }],
  ['null on a key under an absent object leaves an empty object', {}, { p: { q: null } }, { p: {} }],
  ['arrays replace arrays, never merge', { list: [1, 2, 3] }, { list: [9] }, { list: [9] }],
  ['null inside an array is a value', {}, { list: [1, null] }, { list: [1, null] }],
  ['objects inside arrays are stored as given', { list: [{ a: 1 }] }, { list: [{ b: null }] }, { list: [{ b: null }] }],
  ['a scalar replaces an object', { p: { q: 1 } }, { p: 'flat' }, { p: 'flat' }],
  ['an object replaces a scalar, minus its null keys', { p: 5 }, { p: { q: 1, r: null } }, { p: { q: 1 } }],
  ['an array replaces an object', { p: { q: 1 } }, { p: [1] }, { p: [1] }],
  ['an empty update changes nothing', { a: { b: 1 } }, {}, { a: { b: 1 } }],
  ['an empty nested object keeps the stored one', { a: { b: 1 } }, { a: {} }, { a: { b: 1 } }],
  ['false, 0 and "" are values, not deletions', { a: 1, b: 1, c: 1 }, { a: false, b: 0, c: '' }, { a: false, b: 0, c: '' }],
];

describe('mergeMetadata', () => {
  test.each(cases)('%s', (_name, stored, patch, expected) => {
    const storedCopy = structuredClone(stored);
    const patchCopy = structuredClone(patch);
    expect(mergeMetadata(stored, patch)).toEqual(expected);
    // Neither input is modified: the store's current value stays intact if the write fails.
    expect(stored).toEqual(storedCopy);
    expect(patch).toEqual(patchCopy);
  });

  test('a "__proto__" key is stored as an ordinary key and pollutes nothing', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": {"x": 1}}}') as MemberMetadata;
    const merged = mergeMetadata({}, patch);
    expect(Object.keys(merged)).toEqual(['__proto__', 'a']);
    expect(JSON.parse(JSON.stringify(merged))).toEqual(patch);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  });

  test('refuses a result larger than the limit, naming the size', () => {
    const big = { blob: 'x'.repeat(METADATA_MAX_BYTES) };
    expect(() => mergeMetadata({}, big)).toThrowError(expect.objectContaining({ code: 'metadataTooLarge' }) as Error);
  });

  test('counts the limit in UTF-8 bytes, not characters', () => {
    const chars = Math.floor(METADATA_MAX_BYTES / 3); // "€" is 3 bytes in UTF-8
    expect(() => mergeMetadata({}, { s: '€'.repeat(chars) })).toThrowError(MetadataError);
    expect(() => mergeMetadata({}, { s: 'e'.repeat(chars) })).not.toThrow();
  });

  test('an update that deletes keys may bring oversized metadata back under the limit', () => {
    const near = { a: 'x'.repeat(METADATA_MAX_BYTES - 40) };
    expect(() => mergeMetadata(near, { b: 'y'.repeat(100) })).toThrowError(MetadataError);
    expect(mergeMetadata(near, { a: null, b: 'y' })).toEqual({ b: 'y' });
  });

  test('refuses nesting deeper than the limit, in the result as well as in the update', () => {
    const nest = (levels: number): MemberMetadata => (levels <= 1 ? {} : { n: nest(levels - 1) });
    expect(() => mergeMetadata({}, nest(METADATA_MAX_DEPTH))).not.toThrow();
    expect(() => assertMetadataPatch(nest(METADATA_MAX_DEPTH + 1))).toThrowError(expect.objectContaining({ code: 'invalidMetadata' }) as Error);
    expect(() => mergeMetadata({}, nest(METADATA_MAX_DEPTH + 1))).toThrowError(MetadataError);
  });
});

describe('assertMetadataPatch', () => {
  test.each([
    ['null (the whole storage cannot be null)', null],
    ['an array', [1, 2]],
    ['a string', 'text'],
    ['a number', 42],
    ['a boolean', true],
    ['undefined', undefined],
  ])('refuses %s with invalidMetadata', (_name, value) => {
    expect(() => assertMetadataPatch(value)).toThrowError(expect.objectContaining({ code: 'invalidMetadata' }) as Error);
  });

  test('accepts an object', () => {
    expect(() => assertMetadataPatch({ a: [1, { b: null }] })).not.toThrow();
  });

  test('survives hostile depth without overflowing the stack', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(() => assertMetadataPatch(deep)).toThrowError(MetadataError);
  });
});
