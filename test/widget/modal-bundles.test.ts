// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://www.demo.localhost/", "settings": {"enableJavaScriptEvaluation": true, "suppressInsecureJavaScriptEnvironmentWarning": true}}
/**
 * One modal bundle per language (docs/decisions/0023-modal-catalogues.md): widgets.js asks for the
 * site's settings first and downloads the screens in the site's language, widgets-modal.js for
 * English and widgets-modal.de.js for German; when the settings cannot be had, the page's
 * language picks (the screens then say so in it). happy-dom cannot import from the network:
 * ./modal-import-stand-in.ts fetches the module (MSW answers) and runs it, as a browser would. The page is http: the mock service is http.
 */
import { waitFor } from '@testing-library/dom';
import { http, HttpResponse } from 'msw';
import { afterEach, expect, test, vi } from 'vitest';
import type { SitePatch } from '../../src/service/store/records';
import { modalEntryKey, modalSuffix, type OpenModal } from '../../src/widget/modal/host';
import { imported } from './modal-import-stand-in';
import { harness, type Harness } from './support';

vi.mock('../../src/widget/modal-import', () => import('./modal-import-stand-in'));

const opened: string[] = [];
const scripts: string[] = [];

afterEach(() => {
  opened.length = 0;
  scripts.length = 0;
  imported.length = 0;
  for (const suffix of ['', '.de']) delete (window as unknown as Record<symbol, unknown>)[modalEntryKey(suffix)];
  delete (window as unknown as Record<string, unknown>).__entry;
  for (const script of document.querySelectorAll('script')) script.remove();
  document.documentElement.lang = '';
  history.replaceState(null, '', '/');
});

/** The widget on a page of the demo site (changed by `patch`), with svcopen; each bundle is served as a stand-in that records its opens. */
async function start(patch: SitePatch = {}, configFails = false): Promise<Harness> {
  const h = await harness();
  await h.mock.store.updateSite(h.mock.sites[0]!.site.id, patch);
  const entry = (name: string): OpenModal => async (_host, path) => opened.push(`${name} ${path}`) > 0;
  (window as unknown as Record<string, unknown>).__entry = entry;
  h.mock.server.use(
    http.get(`${h.mock.origin}/scripts/:file`, ({ params }) => {
      const file = String(params.file);
      scripts.push(file);
      const suffix = /^widgets-modal(\.\w+)?\.js$/.exec(file)?.[1] ?? '';
      return new HttpResponse(`window[Symbol.for('svc.modal${suffix}')] = window.__entry(${JSON.stringify(file)});`, { headers: { 'content-type': 'text/javascript' } });
    }),
  );
  if (configFails) h.mock.server.use(http.get(`${h.base}/config`, () => HttpResponse.error()));
  history.replaceState(null, '', '/?svcopen=/member/sign_in');
  h.start();
  return h;
}

test('an English site gets widgets-modal.js, whatever the page’s language', async () => {
  document.documentElement.lang = 'de';
  await start();
  await waitFor(() => expect(opened).toEqual(['widgets-modal.js /member/sign_in']));
  expect(scripts).toEqual(['widgets-modal.js']);
});

test('a German site gets widgets-modal.de.js, whatever the page’s language, and only that', async () => {
  document.documentElement.lang = 'en';
  const h = await start({ locale: 'de' });
  await waitFor(() => expect(opened).toEqual(['widgets-modal.de.js /member/sign_in']));
  await h.service.open('/member/sign_up');
  expect(opened).toEqual(['widgets-modal.de.js /member/sign_in', 'widgets-modal.de.js /member/sign_up']);
  expect(scripts).toEqual(['widgets-modal.de.js']); // one download
});

test.each([
  ['de-AT', 'widgets-modal.de.js'],
  ['DE', 'widgets-modal.de.js'],
  ['fr', 'widgets-modal.js'],
  ['', 'widgets-modal.js'],
])('when the site’s settings cannot be had, the page’s language picks: lang=%j gets %s', async (lang, file) => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  document.documentElement.lang = lang;
  await start({}, true);
  await waitFor(() => expect(opened).toEqual([`${file} /member/sign_in`]));
  expect(scripts).toEqual([file]);
});

test('modalSuffix: English and any locale without words of its own are widgets-modal.js', () => {
  expect(['en', 'de', 'fr', '', 'EN'].map(modalSuffix)).toEqual(['', '.de', '', '', '']);
});
