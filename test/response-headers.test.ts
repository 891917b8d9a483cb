/**
 * Headers on every answer of the service as `svc serve` puts it together (the app inside the
 * static files): nothing is sniffed as another type than the one it is sent as, and a JSON
 * answer opened as a page runs nothing and cannot be framed. Page headers (CSP with script
 * hashes, frame protection) are in static-files.test.ts; the Admin API's in test/admin.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createServiceApp } from '../src/service/app';
import { createPasswordHasher, TEST_SCRYPT } from '../src/service/auth/passwords';
import { nodeScrypt } from '../src/service/platform/node-scrypt';
import { createSite } from '../src/service/domain/sites';
import { withStaticFiles } from '../src/service/static-files';
import { createMemoryStore } from '../src/service/store/memory';

const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

const root = mkdtempSync(join(tmpdir(), 'svc-headers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const scriptsDir = join(root, 'dist');
const examplesDir = join(root, 'examples');
mkdirSync(scriptsDir);
mkdirSync(examplesDir);
writeFileSync(join(scriptsDir, 'widgets.js'), '!function(){}();\n');
writeFileSync(join(examplesDir, 'index.html'), '<!doctype html><title>examples</title><script>window.Service = { subdomain: "shop" };</script>');
writeFileSync(join(examplesDir, 'style.css'), 'body{}');

const now = Date.parse('2026-03-01T12:00:00Z');
const store = createMemoryStore();
await createSite(store, () => now, { subdomain: 'shop', domain: 'shop.example' });
const app = await createServiceApp({ store, clock: () => now, passwords: createPasswordHasher(nodeScrypt, TEST_SCRYPT) });
const serve = withStaticFiles(app.fetch, { scriptsDir, examplesDir });
const request = (path: string, init: RequestInit = {}) => serve(new Request(`http://svc.test${path}`, init));
const SHOP = { origin: 'http://shop.example' };

test('every JSON answer, member API, Admin API, /healthz and unknown paths: nosniff and a CSP that allows nothing', async () => {
  const answers: Array<[string, number, Response]> = [
    ['healthz', 200, await request('/healthz')],
    ['member config', 200, await request('/member/v1/sites/shop/config', { headers: SHOP })],
    ['member plans', 200, await request('/member/v1/sites/shop/plans', { headers: SHOP })],
    ['member sign-in, wrong password', 401, await request('/member/v1/sites/shop/sessions', {
      method: 'POST', headers: { ...SHOP, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@shop.example', password: 'not the password' }),
    })],
    ['member sign-in, bad body', 400, await request('/member/v1/sites/shop/sessions', { method: 'POST', headers: { ...SHOP, 'content-type': 'application/json' }, body: '{' })],
    ['member /me without a session', 401, await request('/member/v1/sites/shop/me', { headers: SHOP })],
    ['member, another origin', 403, await request('/member/v1/sites/shop/config', { headers: { origin: 'http://evil.example' } })],
    ['member, unknown site', 404, await request('/member/v1/sites/nope/config')],
    ['member, wrong method', 405, await request('/member/v1/sites/shop/config', { method: 'DELETE', headers: SHOP })],
    ['admin sites without a key', 401, await request('/admin/v1/sites')],
    ['admin OpenAPI', 200, await request('/admin/v1/openapi.json')],
    ['unknown path', 404, await request('/nowhere')],
    ['static: no such example', 404, await request('/examples/nope.html')],
    ['static: no such script', 404, await request('/scripts/nope.js')],
    ['static: wrong method', 405, await request('/scripts/widgets.js', { method: 'POST', body: 'x' })],
  ];
  for (const [what, status, res] of answers) {
    expect(res.status, what).toBe(status);
    expect(res.headers.get('content-type'), what).toMatch(/^application\/json\b/);
    expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(res.headers.get('content-security-policy'), what).toBe(JSON_CSP);
  }
});

test('answers without a JSON body carry nosniff too: CORS preflights, 204s, redirects, static files', async () => {
  const answers: Array<[string, number, Response]> = [
    ['member preflight', 204, await request('/member/v1/sites/shop/sessions', {
      method: 'OPTIONS', headers: { ...SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })],
    ['member sign-out without a session', 204, await request('/member/v1/sites/shop/sessions/current', { method: 'DELETE', headers: SHOP })],
    ['examples redirect', 301, await request('/examples')],
    ['widget', 200, await request('/scripts/widgets.js')],
    ['example page', 200, await request('/examples/')],
    ['example stylesheet', 200, await request('/examples/style.css')],
  ];
  for (const [what, status, res] of answers) {
    expect(res.status, what).toBe(status);
    expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  }
});

test('the widget stays loadable from any site: CORS and CORP as before, and no page policy of its own', async () => {
  const widget = await request('/scripts/widgets.js', { headers: { origin: 'https://any-site.example' } });
  expect(widget.headers.get('access-control-allow-origin')).toBe('*');
  expect(widget.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  expect(widget.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(widget.headers.get('x-frame-options')).toBeNull();
  expect(widget.headers.get('content-security-policy')).toBeNull();
});
