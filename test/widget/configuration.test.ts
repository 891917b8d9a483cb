// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** A bad install says what is wrong once on the console, throws nothing, and sends nothing. */
import { expect, test, vi } from 'vitest';
import { startWidget } from '../../src/widget/start-widget';
import { harness, recordEvents, settle } from './support';

const cases: [string, unknown, RegExp][] = [
  ['no window.Service', undefined, /window\.Service is missing/],
  ['window.Service = null', null, /window\.Service is missing/],
  ['window.Service is a string', 'demo', /window\.Service is missing/],
  ['no subdomain', {}, /subdomain must be/],
  ['an empty subdomain', { subdomain: '' }, /subdomain must be/],
  ['a blank subdomain', { subdomain: '   ' }, /subdomain must be/],
  ['a numeric subdomain', { subdomain: 42 }, /subdomain must be/],
  ['a numeric cookieDomain', { subdomain: 'demo', cookieDomain: 1 }, /cookieDomain must be/],
  ['a null cookieDomain', { subdomain: 'demo', cookieDomain: null }, /cookieDomain must be/],
  ['an empty cookieDomain', { subdomain: 'demo', cookieDomain: '' }, /cookieDomain must be/],
  ['a cookieDomain the page is not in', { subdomain: 'demo', cookieDomain: 'other.example' }, /does not contain this page's host "www\.demo\.localhost"/],
  ['a cookieDomain that only ends like the host', { subdomain: 'demo', cookieDomain: 'o.localhost' }, /does not contain/],
];

test.each(cases)('%s: one console.error, nothing thrown, no events, no API', async (_, config, message) => {
  const h = await harness();
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const events = recordEvents();
  if (config === undefined) delete (window as { Service?: unknown }).Service;
  else (window as unknown as { Service: unknown }).Service = config;

  const handle = startWidget({ window, apiOrigin: h.mock.origin });
  await handle.refresh();
  await settle();
  window.dispatchEvent(new Event('focus'));
  handle.stop();

  expect(error).toHaveBeenCalledTimes(1);
  expect(error.mock.calls[0]![0]).toMatch(/^\[Service\] /);
  expect(error.mock.calls[0]![0]).toMatch(message);
  expect(events.names()).toEqual([]);
  if (config && typeof config === 'object') expect('ready' in config).toBe(false);
  expect(h.requests('GET', '/me')).toBe(0);
});

test('a good cookieDomain, with a leading dot and in capitals, is accepted', async () => {
  const h = await harness();
  const error = vi.spyOn(console, 'error');
  const events = recordEvents();
  h.start({ cookieDomain: '.DEMO.localhost' });
  expect(error).not.toHaveBeenCalled();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']);
});

test('loading the widget twice on one page: the second copy says so and does nothing', async () => {
  const h = await harness();
  const events = recordEvents();
  h.start();
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const second = startWidget({ window, apiOrigin: h.mock.origin });
  second.stop();
  expect(error).toHaveBeenCalledTimes(1);
  expect(error.mock.calls[0]![0]).toMatch(/^\[Service\] widgets\.js is loaded twice/);
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']);
  expect(h.service.ready).toBe(true);
});
