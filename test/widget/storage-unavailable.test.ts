// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** Private modes and disabled storage: the widget works in memory and warns once at most. */
import { waitFor } from '@testing-library/dom';
import { expect, test, vi } from 'vitest';
import { ADA, harness, recordEvents } from './support';

const denied = () => {
  throw new DOMException('The operation is insecure.', 'SecurityError');
};

const breakages: [string, () => void][] = [
  ['reading window.localStorage throws', () => vi.spyOn(window, 'localStorage', 'get').mockImplementation(denied)],
  ['every Storage call throws', () => {
    for (const method of ['getItem', 'setItem', 'removeItem'] as const) vi.spyOn(Storage.prototype, method).mockImplementation(denied);
  }],
  ['only writes throw (quota 0)', () => vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  })],
];

test.each(breakages)('%s: login, metadata and logout still work in memory, with one warning', async (_, breakStorage) => {
  const h = await harness();
  breakStorage();
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error');
  const events = recordEvents();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));

  const member = await h.service.login(ADA);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: member });
  await expect(h.service.getMemberMetadata()).resolves.toEqual({ theme: 'dark' });
  await h.service.logout();

  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout', 'Service.member.info', 'Service.member.logout']);
  expect(warn.mock.calls.length).toBe(1);
  expect(warn.mock.calls[0]![0]).toMatch(/^\[Service\] localStorage is unavailable/);
  expect(error).not.toHaveBeenCalled();
});

test('storage that fails half-way keeps the login this page already has', async () => {
  const h = await harness();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  vi.spyOn(Storage.prototype, 'getItem').mockImplementation(denied);
  vi.spyOn(Storage.prototype, 'setItem').mockImplementation(denied);
  window.dispatchEvent(new StorageEvent('storage', { key: 'svc:demo:token' })); // makes the widget re-read storage
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true });
  await expect(h.service.getMemberMetadata()).resolves.toEqual({ theme: 'dark' });
});
