// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** Reading `svcopen` from the address bar, and taking it out again without a reload. */
import { afterEach, expect, test, vi } from 'vitest';
import { takeSvcopen } from '../../../src/widget/router/svcopen';

afterEach(() => {
  history.replaceState(null, '', '/');
  vi.restoreAllMocks();
});

test('svcopen is read, then removed; other parameters, the hash and the history state stay', () => {
  history.replaceState({ page: 3 }, '', '/shop/?a=1&svcopen=%2Fmember%2Fplans%2Fmonthly&b=2#top');
  const length = history.length;
  expect(takeSvcopen(window)).toBe('/member/plans/monthly');
  expect(location.pathname + location.search + location.hash).toBe('/shop/?a=1&b=2#top');
  expect(history.state).toEqual({ page: 3 });
  expect(history.length).toBe(length);
});

test('an unencoded path works as well, and the last parameter leaves no stray ?', () => {
  history.replaceState(null, '', '/?svcopen=/member/sign_in');
  expect(takeSvcopen(window)).toBe('/member/sign_in');
  expect(location.href).toBe('https://www.demo.localhost/');
});

test('no svcopen: nothing is read, the address is untouched', () => {
  history.replaceState(null, '', '/page?a=1');
  const replace = vi.spyOn(history, 'replaceState');
  expect(takeSvcopen(window)).toBeNull();
  expect(replace).not.toHaveBeenCalled();
  expect(location.search).toBe('?a=1');
});

test('a path that names no screen is taken out too (the modal reports it)', () => {
  history.replaceState(null, '', '/?svcopen=/member/nowhere&x=1');
  expect(takeSvcopen(window)).toBe('/member/nowhere');
  expect(location.search).toBe('?x=1');
});
