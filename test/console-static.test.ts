/** The owner console's files as `svc serve` hands them out at /console/ (src/service/static-files.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { withStaticFiles } from '../src/service/static-files';

const root = mkdtempSync(join(tmpdir(), 'svc-console-static-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const scriptsDir = join(root, 'dist');
mkdirSync(join(scriptsDir, 'console'), { recursive: true });
// An inline script in the page would not run: the console's policy allows no hash, unlike the examples'.
writeFileSync(join(scriptsDir, 'console', 'index.html'), '<!doctype html><title>console</title><script>alert(1)</script><script src="console.js"></script>');
writeFileSync(join(scriptsDir, 'console', 'console.js'), '!function(){}();\n');
writeFileSync(join(scriptsDir, 'console', 'console.css'), 'body{}\n');
writeFileSync(join(scriptsDir, 'console', 'notes.txt'), 'not served');

const app = () => new Response('from the app', { status: 404 });
const handler = withStaticFiles(app, { scriptsDir, examplesDir: join(root, 'examples') });
const request = (path: string, init?: RequestInit) => handler(new Request(`http://svc.test${path}`, init));

test('/console redirects to /console/, which is the page with a strict policy of its own: no inline script, style or form target', async () => {
  const bare = await request('/console?x=1');
  expect(bare.status).toBe(301);
  expect(bare.headers.get('location')).toBe('/console/?x=1');

  const page = await request('/console/');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('content-security-policy')).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  );
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('cache-control')).toBe('no-cache');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  // The same page by its name.
  expect((await request('/console/index.html')).headers.get('etag')).toBe(page.headers.get('etag'));
});

test('its script and style sheet with their types, no page policy and no CORS; nothing else from its directory', async () => {
  const script = await request('/console/console.js');
  expect(script.status).toBe(200);
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(script.headers.get('content-security-policy')).toBeNull();
  expect(script.headers.get('access-control-allow-origin')).toBeNull();
  const style = await request('/console/console.css');
  expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  expect(await style.text()).toBe('body{}\n');

  for (const path of ['/console/notes.txt', '/console/sub/index.html', '/console/console.js/', '/console/.env']) {
    const response = await request(path);
    expect(response.status, path).toBe(404);
    expect(await response.json()).toEqual({ errors: [{ path: 'base', code: 'notFound', message: 'No such file' }] });
  }
  expect((await request('/consoles')).status).toBe(404);
  expect(await (await request('/consoles')).text()).toBe('from the app');
});

test('HEAD is answered, other methods 405; a missing build says how to make it', async () => {
  expect((await request('/console/', { method: 'HEAD' })).status).toBe(200);
  expect((await request('/console/', { method: 'POST', body: 'x' })).status).toBe(405);

  const unbuilt = withStaticFiles(app, { scriptsDir: join(root, 'nothing'), examplesDir: join(root, 'examples') });
  const missing = await unbuilt(new Request('http://svc.test/console/'));
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ errors: [{ path: 'base', code: 'notFound', message: 'The owner console is not built: run `npm run build`' }] });
});
