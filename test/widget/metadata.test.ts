// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** Member metadata through the widget (spec 2.8): merge at every level, null deletes, limits. */
import { waitFor } from '@testing-library/dom';
import { expect, test } from 'vitest';
import type { MemberMetadata } from '../../src/contract/member';
import { ADA, GRACE, harness, recordEvents } from './support';

async function loggedIn(credentials = GRACE) {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(credentials);
  return h;
}

test('getMemberMetadata resolves with the stored object; {} until first set', async () => {
  const h = await loggedIn(ADA);
  await expect(h.service.getMemberMetadata()).resolves.toEqual({ theme: 'dark' });
  await h.service.login(GRACE);
  await expect(h.service.getMemberMetadata()).resolves.toEqual({});
});

test('updates merge at every level and resolve with the result', async () => {
  const h = await loggedIn();
  await h.service.updateMemberMetadata({ a: 1, nested: { x: 1, deeper: { keep: true, p: 'q' } } });
  const merged = await h.service.updateMemberMetadata({ b: 2, nested: { y: 2, deeper: { p: 'r' } } });
  const expected = { a: 1, b: 2, nested: { x: 1, y: 2, deeper: { keep: true, p: 'r' } } };
  expect(merged).toEqual(expected);
  await expect(h.service.getMemberMetadata()).resolves.toEqual(expected);
});

test('null removes a key at any level', async () => {
  const h = await loggedIn();
  await h.service.updateMemberMetadata({ top: 1, other: 2, nested: { gone: 'x', stays: 'y' } });
  const result = await h.service.updateMemberMetadata({ top: null, nested: { gone: null } });
  expect(result).toEqual({ other: 2, nested: { stays: 'y' } });
});

test('arrays and other values replace what was there', async () => {
  const h = await loggedIn();
  await h.service.updateMemberMetadata({ list: [1, 2, 3], value: { an: 'object' }, objectLater: 'text' });
  const result = await h.service.updateMemberMetadata({ list: [9], value: 'text now', objectLater: { now: 'object' } });
  expect(result).toEqual({ list: [9], value: 'text now', objectLater: { now: 'object' } });
});

test('clearMemberMetadata resets to {}', async () => {
  const h = await loggedIn(ADA);
  await expect(h.service.clearMemberMetadata()).resolves.toEqual({});
  await expect(h.service.getMemberMetadata()).resolves.toEqual({});
});

test.each([
  ['null', null],
  ['an array', [1, 2]],
  ['a string', 'text'],
  ['a number', 42],
  ['undefined', undefined],
  ['an object with a cycle', (() => { const o: Record<string, unknown> = {}; o.self = o; return o; })()],
])('updateMemberMetadata(%s) rejects with invalidMetadata without asking the service', async (_, value) => {
  const h = await loggedIn(ADA);
  const before = h.requests('PATCH', '/me/metadata');
  const error = await h.service.updateMemberMetadata(value as unknown as MemberMetadata).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  expect(error).toMatchObject({ code: 'invalidMetadata', path: 'base' });
  expect(h.requests('PATCH', '/me/metadata')).toBe(before);
  await expect(h.service.getMemberMetadata()).resolves.toEqual({ theme: 'dark' });
});

test('metadata over the size limit rejects with metadataTooLarge and changes nothing', async () => {
  const h = await loggedIn(ADA);
  await expect(h.service.updateMemberMetadata({ big: 'x'.repeat(17 * 1024) })).rejects.toMatchObject({
    code: 'metadataTooLarge',
  });
  await expect(h.service.getMemberMetadata()).resolves.toEqual({ theme: 'dark' });
});

test('metadata nested too deep rejects with the service’s invalidMetadata', async () => {
  const h = await loggedIn(ADA);
  let deep: MemberMetadata = { leaf: 1 };
  for (let i = 0; i < 20; i++) deep = { d: deep };
  await expect(h.service.updateMemberMetadata(deep)).rejects.toMatchObject({ code: 'invalidMetadata' });
  expect(h.requests('PATCH', '/me/metadata')).toBe(1);
});

test('a revoked session makes metadata calls reject with unauthenticated, and logs the member out', async () => {
  const h = await loggedIn(ADA);
  await h.revoke(localStorage.getItem('svc:demo:token')!);
  const events = recordEvents();
  await expect(h.service.getMemberMetadata()).rejects.toMatchObject({ code: 'unauthenticated' });
  expect(events.names()).toEqual(['Service.member.logout']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  await expect(h.service.getMemberMetadata()).rejects.toMatchObject({ code: 'notLoggedIn' });
});
