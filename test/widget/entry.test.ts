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
  expect(error.mock.calls[0]![0]).toBe('[Service] cannot tell where the service is: load widgets.js with a script element, or set window.Service.apiOrigin.');
  expect(events.names()).toEqual([]);
  expect('ready' in window.Service).toBe(false);
});

test('window.Service.apiOrigin names the service where no script element does (widgets.js served from elsewhere)', async () => {
  const h = await harness();
  window.Service = { subdomain: 'demo', apiOrigin: `${h.mock.origin}/any/path` };
  const events = recordEvents();
  vi.resetModules();
  await import('../../src/widget/index');
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']);
  await expect(window.Service.login(ADA)).resolves.toMatchObject({ email: ADA.email });
  await window.Service.logout();
});

test('an apiOrigin that is no http(s) origin is refused, and nothing starts', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  for (const apiOrigin of ['javascript:alert(1)', 'members.example.com', '']) {
    window.Service = { subdomain: 'demo', apiOrigin };
    installScript('https://svc.example/scripts/widgets.js');
    const events = recordEvents();
    vi.resetModules();
    await import('../../src/widget/index');
    expect(events.names(), apiOrigin).toEqual([]);
    expect('ready' in window.Service).toBe(false);
  }
  expect(error).toHaveBeenCalledTimes(3);
});

test('widgets.mjs (a bundler’s import) runs nothing on import; start({ subdomain, apiOrigin }) starts the widget on window.Service', async () => {
  const h = await harness();
  (window as { Service?: unknown }).Service = undefined;
  const events = recordEvents();
  vi.resetModules();
  const { start } = await import('../../src/widget/module');
  expect(events.names()).toEqual([]);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  start({ subdomain: 'demo', apiOrigin: 'ftp://nope.example' });
  expect(error.mock.calls.map(([line]) => String(line))).toEqual(['[Service] start({ apiOrigin }) must name the service\'s http(s) origin, got ftp://nope.example. The widget does not run.']);
  expect((window as { Service?: unknown }).Service).toBeUndefined();
  error.mockRestore();
  start({ subdomain: 'demo', apiOrigin: h.mock.origin });
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']);
  await expect(window.Service.login(ADA)).resolves.toMatchObject({ email: ADA.email });
  await window.Service.logout();
});
