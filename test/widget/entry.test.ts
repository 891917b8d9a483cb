// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** The install entry (src/widget/index.ts): the widget as a page gets it from its script tag. */
import { waitFor } from '@testing-library/dom';
import { afterEach, expect, test, vi } from 'vitest';
import { ADA, harness, recordEvents } from './support';

afterEach(() => {
  document.head.innerHTML = '';
});

function installScript(src: string): void {
  const script = document.createElement('script');
  script.type = 'text/plain'; // happy-dom must not fetch it; the test imports the entry instead
  script.setAttribute('src', src);
  document.head.append(script);
}

test('loading the entry starts the widget against the origin of its script URL', async () => {
  const h = await harness();
  window.Service = { subdomain: 'demo' } as typeof window.Service;
  installScript(`${h.mock.origin}/scripts/widgets.js`);
  const events = recordEvents();
  vi.resetModules();
  await import('../../src/widget/index');
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']);
  await expect(window.Service.login(ADA)).resolves.toMatchObject({ email: ADA.email });
  await waitFor(() => expect(events.names()).toContain('Service.member.info'));
  await window.Service.logout();
});

test('without its script element the entry says so and does nothing', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  window.Service = { subdomain: 'demo' } as typeof window.Service;
  const events = recordEvents();
  vi.resetModules();
  await import('../../src/widget/index');
  expect(error).toHaveBeenCalledTimes(1);
  expect(error.mock.calls[0]![0]).toMatch(/^\[Service\] cannot tell where widgets\.js was loaded from/);
  expect(events.names()).toEqual([]);
  expect('ready' in window.Service).toBe(false);
});
