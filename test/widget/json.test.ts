/** The small JSON helpers the widget decides "changed" and "copy" with. */
import { expect, test } from 'vitest';
import { clone, deepEqual, isObject, stringify } from '../../src/widget/json';
import { fingerprint } from '../../src/widget/member-cache';

test('deepEqual ignores key order and compares every level', () => {
  expect(deepEqual({ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 2 }] }, a: 1 })).toBe(true);
  expect(deepEqual({ a: 1, b: { c: [1, { d: 2 }] } }, { a: 1, b: { c: [1, { d: 3 }] } })).toBe(false);
  expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  expect(deepEqual({ a: undefined }, { b: undefined })).toBe(false);
  expect(deepEqual([1, 2], [1, 2, 3])).toBe(false);
  expect(deepEqual([], {})).toBe(false);
  expect(deepEqual({ 0: 'x' }, ['x'])).toBe(false);
  expect(deepEqual(null, {})).toBe(false);
  expect(deepEqual(null, null)).toBe(true);
  expect(deepEqual('1', 1)).toBe(false);
});

test('clone is deep', () => {
  const original = { a: { b: [1, 2] } };
  const copy = clone(original);
  copy.a.b.push(3);
  expect(original.a.b).toEqual([1, 2]);
});

test('isObject accepts plain objects only', () => {
  expect([{}, { a: 1 }].every(isObject)).toBe(true);
  expect([null, [], 'x', 1, true, undefined].some(isObject)).toBe(false);
});

test('stringify answers undefined instead of throwing', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  expect(stringify(cyclic)).toBeUndefined();
  expect(stringify({ big: 1n })).toBeUndefined();
  expect(stringify({ a: 1 })).toBe('{"a":1}');
});

test('fingerprint tells tokens apart and does not contain them', () => {
  const a = fingerprint('svc_session_aaaaaaaa');
  expect(a).toBe(fingerprint('svc_session_aaaaaaaa'));
  expect(a).not.toBe(fingerprint('svc_session_aaaaaaab'));
  expect(a).not.toContain('aaaa');
});
