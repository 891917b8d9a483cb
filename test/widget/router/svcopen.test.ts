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
  expect(takeSvcopen(window)).toEqual({ name: 'planSignUp', params: { planPublicId: 'monthly' } });
  expect(location.pathname + location.search + location.hash).toBe('/shop/?a=1&b=2#top');
  expect(history.state).toEqual({ page: 3 });
  expect(history.length).toBe(length);
});

test('an unencoded path works as well, and the last parameter leaves no stray ?', () => {
  history.replaceState(null, '', '/?svcopen=/member/sign_in');
  expect(takeSvcopen(window)).toEqual({ name: 'signIn', params: {} });
  expect(location.href).toBe('https://www.demo.localhost/');
});

test('no svcopen: nothing is read, the address is untouched', () => {
  history.replaceState(null, '', '/page?a=1');
  const replace = vi.spyOn(history, 'replaceState');
  expect(takeSvcopen(window)).toBeNull();
  expect(replace).not.toHaveBeenCalled();
  expect(location.search).toBe('?a=1');
});

test('a path that names no screen is removed too, with one warning', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  history.replaceState(null, '', '/?svcopen=/member/nowhere');
  expect(takeSvcopen(window)).toBeNull();
  expect(location.search).toBe('');
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/^\[Service\] svcopen=\/member\/nowhere names no screen/);
});
