// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/", "settings": {"enableJavaScriptEvaluation": true, "suppressInsecureJavaScriptEnvironmentWarning": true}}
/**
 * modal-loader.ts: widgets-modal.js imported once, however often a screen asks for it; the entry
 * it leaves on `window` is the answer; a failed download is reported once and may be tried again.
 * happy-dom cannot import a module from the network: ./modal-import-stand-in.ts fetches it (MSW
 * answers) and runs it, so the entry appears only when the served code has run, as in a browser
 * (which test/browser/modal.test.ts proves with the real bundle).
 */
import { waitFor } from '@testing-library/dom';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { imported } from './modal-import-stand-in';
import { modalLoader } from '../../src/widget/modal-loader';
import { MODAL_ENTRY, type OpenModal } from '../../src/widget/modal/host';
import { harness, settle, type Harness } from './support';

vi.mock('../../src/widget/modal-import', () => import('./modal-import-stand-in'));

const SRC = 'https://cdn.svc.test/scripts/widgets-modal.js';
/** What the real bundle does (src/widget/modal/index.ts): leave its entry on window. */
const BUNDLE = `window[Symbol.for('svc.modal')] = function servedEntry() { window.__opened = (window.__opened || 0) + 1; };`;

type Answer = () => Response | Promise<Response>;
let answer: Answer = () => new HttpResponse(BUNDLE, { headers: { 'content-type': 'text/javascript' } });
let requests = 0;
let h: Harness;

/** MSW (the harness's server, otherwise unused here) answers SRC with `answer`. */
beforeEach(async () => {
  requests = 0;
  imported.length = 0;
  answer = () => new HttpResponse(BUNDLE, { headers: { 'content-type': 'text/javascript' } });
  h = await harness();
  h.mock.server.use(
    http.get(SRC, () => {
      requests++;
      return answer();
    }),
  );
});
afterEach(() => {
  delete (window as unknown as Record<symbol, unknown>)[MODAL_ENTRY];
  delete (window as unknown as Record<string, unknown>).__opened;
  delete (window as unknown as Record<string, unknown>).__entryForWidget;
  for (const script of document.querySelectorAll('script')) script.remove();
  happyDOM().setURL('https://www.demo.localhost/');
  vi.restoreAllMocks();
});

const happyDOM = () => (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM;

const entryOnWindow = () => (window as unknown as Record<symbol, OpenModal | undefined>)[MODAL_ENTRY];
/** console.warn, silenced and recorded; console.error too (happy-dom reports failed downloads there). */
function quiet() {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  return vi.spyOn(console, 'warn').mockImplementation(() => undefined);
}
/** A promise's state now: 'pending', or what it settled with. */
async function state<T>(promise: Promise<T>): Promise<'pending' | { value: T } | { error: unknown }> {
  const pending = Symbol('pending');
  const result = await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), settle().then(() => pending)]);
  return result === pending ? 'pending' : (result as { value: T } | { error: unknown });
}

test('one import and one download however often it is called; all calls get the entry the module left', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  answer = async () => {
    await gate;
    return new HttpResponse(BUNDLE, { headers: { 'content-type': 'text/javascript' } });
  };
  const warn = quiet();
  const load = modalLoader(document, SRC);
  const calls = [load(), load(), load()];
  expect(imported).toEqual([SRC]);

  // Before the script has loaded, nothing is answered.
  expect(await state(calls[0]!)).toBe('pending');
  expect(entryOnWindow()).toBeUndefined();

  release();
  const entries = await Promise.all(calls);
  expect(typeof entries[0]).toBe('function');
  expect(entries[0]!.name).toBe('servedEntry');
  expect(entries[0]).toBe(entryOnWindow());
  expect(new Set(entries).size).toBe(1);

  // Later calls share the download: still one import, one request.
  expect(await load()).toBe(entries[0]);
  expect(imported).toEqual([SRC]);
  expect(requests).toBe(1);
  expect(warn).not.toHaveBeenCalled();
});

test('a failed download rejects every waiting call, warns once, and a later call tries again', async () => {
  answer = () => new HttpResponse('not found', { status: 404 });
  const warn = quiet();
  const load = modalLoader(document, SRC);
  const results = await Promise.allSettled([load(), load()]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  expect(String((results[0] as PromiseRejectedResult).reason)).toContain(SRC);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/^\[Service\] /);
  expect(String(warn.mock.calls[0]![0])).toContain(SRC);
  expect(imported).toEqual([SRC]);

  answer = () => new HttpResponse(BUNDLE, { headers: { 'content-type': 'text/javascript' } });
  const open = await load();
  expect(open).toBe(entryOnWindow());
  expect(open.name).toBe('servedEntry');
  expect(imported).toEqual([SRC, SRC]);
  expect(requests).toBe(2);
  expect(warn).toHaveBeenCalledTimes(1); // the success adds nothing
});

test('the network failing is a failure too, and so is a module that leaves no entry', async () => {
  const warn = quiet();
  answer = () => HttpResponse.error();
  const load = modalLoader(document, SRC);
  await expect(load()).rejects.toThrow(SRC);
  expect(warn).toHaveBeenCalledTimes(1);

  answer = () => new HttpResponse('/* not the bundle */ window.__other = 1;', { headers: { 'content-type': 'text/javascript' } });
  await expect(load()).rejects.toThrow(/did not start/);
  expect(warn).toHaveBeenCalledTimes(2);
  expect(imported).toHaveLength(2);

  answer = () => new HttpResponse(BUNDLE, { headers: { 'content-type': 'text/javascript' } });
  const open = await load();
  expect(open.name).toBe('servedEntry');
  expect(open).toBe(entryOnWindow());
  expect(imported).toHaveLength(3);
});

test('when the entry is already on window (the bundle came another way), nothing is imported or fetched', async () => {
  const warn = quiet();
  const entry: OpenModal = vi.fn();
  (window as unknown as Record<symbol, unknown>)[MODAL_ENTRY] = entry;
  const load = modalLoader(document, SRC);
  await expect(load()).resolves.toBe(entry);
  await expect(load()).resolves.toBe(entry);
  expect(imported).toEqual([]);
  expect(requests).toBe(0);
  expect(warn).not.toHaveBeenCalled();
});

test('the widget downloads widgets-modal.js from its own origin when svcopen asks for a screen, and opens it there', async () => {
  // The mock service is on http://svc.mock: an https page would block the script as mixed content.
  happyDOM().setURL('http://www.demo.localhost/');
  const seen: string[] = [];
  const opened: string[] = [];
  (window as unknown as Record<string, unknown>).__entryForWidget = (async (_host, path) => opened.push(path) > 0) satisfies OpenModal;
  h.mock.server.use(
    http.get(`${h.mock.origin}/scripts/widgets-modal.js`, ({ request }) => {
      seen.push(request.url);
      return new HttpResponse(`window[Symbol.for('svc.modal')] = window.__entryForWidget;`, {
        headers: { 'content-type': 'text/javascript' },
      });
    }),
  );
  history.replaceState(null, '', '/?svcopen=/member/sign_in');
  h.start();
  await waitFor(() => expect(opened).toEqual(['/member/sign_in']));
  expect(seen).toEqual([`${h.mock.origin}/scripts/widgets-modal.js`]);
  expect(imported).toEqual(seen);
});
