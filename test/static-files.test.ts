/** What `svc serve` hands out beside the app: the built widget and the example pages. */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { afterAll, expect, test } from 'vitest';
import { repoRoot } from '../scripts/lib/paths';
import { withStaticFiles } from '../src/service/static-files';

const root = mkdtempSync(join(tmpdir(), 'svc-static-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const scriptsDir = join(root, 'dist');
const examplesDir = join(root, 'examples');
mkdirSync(join(examplesDir, 'login'), { recursive: true });
mkdirSync(join(examplesDir, 'empty'));
mkdirSync(scriptsDir);
writeFileSync(join(scriptsDir, 'widgets.js'), '!function(){}();\n');
writeFileSync(join(scriptsDir, 'widgets.mjs'), 'export {};\n');
writeFileSync(join(scriptsDir, 'widgets-modal.js'), '!function(){}();\n');
writeFileSync(join(scriptsDir, 'widgets.d.ts'), 'export {};\n');
writeFileSync(join(scriptsDir, 'widgets-modal.de-account-B0h-h4HY.js'), 'export {};\n');
writeFileSync(join(scriptsDir, 'widgets-modal.de-account-B0h-h4HY.js.map'), '{}');
writeFileSync(join(scriptsDir, 'mock-server.js'), '!function(){}();\n');
writeFileSync(join(examplesDir, 'index.html'), '<!doctype html><title>examples</title>');
writeFileSync(join(examplesDir, 'login', 'index.html'), '<!doctype html><title>login</title>');
writeFileSync(join(examplesDir, 'style.css'), 'body{}');
writeFileSync(join(examplesDir, '.env'), 'SECRET=1');
writeFileSync(join(root, 'secret.txt'), 'outside');
symlinkSync(join(root, 'secret.txt'), join(examplesDir, 'leak.txt'));

const handler = withStaticFiles(() => new Response('from the app', { status: 404 }), { scriptsDir, examplesDir });
const request = (path: string, init?: RequestInit) => handler(new Request(`http://svc.test${path}`, init));

test('/scripts/widgets.js is JavaScript anyone may load, cached briefly, with an ETag', async () => {
  const response = await request('/scripts/widgets.js');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  expect(response.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
  expect(await response.text()).toBe('!function(){}();\n');

  const screens = await request('/scripts/widgets-modal.js');
  expect(screens.status).toBe(200);
  expect(screens.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(screens.headers.get('access-control-allow-origin')).toBe('*');
  const module = await request('/scripts/widgets.mjs');
  expect(module.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await module.text()).toBe('export {};\n');
});

test('a matching If-None-Match answers 304 with no body; a changed file gets a new ETag', async () => {
  const first = await request('/scripts/widgets.js');
  const etag = first.headers.get('etag')!;
  const again = await request('/scripts/widgets.js', { headers: { 'if-none-match': `"other", W/${etag}` } });
  expect(again.status).toBe(304);
  expect(again.headers.get('etag')).toBe(etag);
  expect(again.headers.get('access-control-allow-origin')).toBe('*');
  expect(await again.text()).toBe('');

  const path = join(scriptsDir, 'widgets.js');
  writeFileSync(path, '!function(){console.log(2)}();\n');
  utimesSync(path, new Date(), new Date(Date.now() + 5_000));
  const changed = await request('/scripts/widgets.js', { headers: { 'if-none-match': etag } });
  expect(changed.status).toBe(200);
  expect(changed.headers.get('etag')).not.toBe(etag);
  expect(await changed.text()).toContain('console.log(2)');
});

test('HEAD has the headers and no body; other methods answer 405', async () => {
  const head = await request('/scripts/widgets.js', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-length')).not.toBeNull();
  expect(await head.text()).toBe('');
  const post = await request('/scripts/widgets.js', { method: 'POST', body: 'x' });
  expect(post.status).toBe(405);
  expect(post.headers.get('allow')).toBe('GET, HEAD');
  expect(post.headers.get('content-type')).toBe('application/json');
});

test('a chunk of the screens (its name carries its hash) is JavaScript anyone may load, and kept for good', async () => {
  const chunk = await request('/scripts/widgets-modal.de-account-B0h-h4HY.js');
  expect(chunk.status).toBe(200);
  expect(chunk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(chunk.headers.get('access-control-allow-origin')).toBe('*');
  expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(await chunk.text()).toBe('export {};\n');
  expect((await request('/scripts/widgets-modal.de-account-B0h-h4HY.js.map')).status).toBe(200);
  // Named like one, but not built: no such file.
  expect((await request('/scripts/widgets-modal-account-XXXXXXXX.js')).status).toBe(404);
});

test('only the widget is served from dist/; a missing build says how to make it', async () => {
  for (const path of ['/scripts/widgets.d.ts', '/scripts/mock-server.js', '/scripts/widgets-modal-../mock-server.js', '/scripts/', '/scripts/../dist/widgets.js', '/scripts/x/widgets.js']) {
    expect((await request(path)).status, path).toBe(404);
  }
  const empty = withStaticFiles(() => new Response(null, { status: 500 }), { scriptsDir: join(root, 'nowhere'), examplesDir });
  const missing = await empty(new Request('http://svc.test/scripts/widgets.js'));
  expect(missing.status).toBe(404);
  expect(missing.headers.get('content-type')).toBe('application/json');
  expect((await missing.json()).errors[0]).toMatchObject({ code: 'notFound', message: expect.stringContaining('npm run build') });
});

test('examples: files with their type, index.html for directories, a slash added by redirect', async () => {
  const index = await request('/examples/');
  expect(index.status).toBe(200);
  expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(await index.text()).toContain('<title>examples</title>');
  expect((await request('/examples/style.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  expect(await (await request('/examples/login/')).text()).toContain('<title>login</title>');

  const bare = await request('/examples');
  expect(bare.status).toBe(301);
  expect(bare.headers.get('location')).toBe('/examples/');
  const directory = await request('/examples/login?svcopen=/login');
  expect(directory.status).toBe(301);
  expect(directory.headers.get('location')).toBe('/examples/login/?svcopen=/login');
  expect((await request('/examples/empty/')).status).toBe(404);
  expect((await request('/examples/nope.html')).status).toBe(404);
});

test('nothing outside examples/ can be reached, however the path is spelled', async () => {
  const attempts = [
    '/examples/..%2fsecret.txt',
    '/examples/..%2Fsecret.txt',
    '/examples/login/..%2f..%2fsecret.txt',
    '/examples/%2e%2e%2fsecret.txt',
    '/examples/..%5csecret.txt',
    '/examples/login%2f..%2f..%2fsecret.txt',
    '/examples/%2fetc%2fpasswd',
    '/examples/style.css%00.html',
    '/examples/%E0%A4%A',
    '/examples/.env',
    '/examples/%2eenv',
    '/examples//etc/passwd',
    '/examples/leak.txt', // a symlink that leads out
  ];
  for (const path of attempts) {
    const response = await request(path);
    expect(response.status, path).toBe(404);
    expect(await response.text(), path).not.toMatch(/outside|SECRET|root:/);
  }
  // `..` and `%2e%2e` are resolved by the URL parser before we see them: what is left is the app's.
  const resolved = await request('/examples/%2e%2e/secret.txt');
  expect(await resolved.text()).toBe('from the app');
});

test('examples/ missing altogether answers 404; other paths go to the app', async () => {
  const bare = withStaticFiles(() => new Response('from the app'), { scriptsDir, examplesDir: join(root, 'no-examples') });
  expect((await bare(new Request('http://svc.test/examples/'))).status).toBe(404);
  expect(await (await bare(new Request('http://svc.test/member/v1/sites/x/config'))).text()).toBe('from the app');
  expect(await (await bare(new Request('http://svc.test/scriptsX'))).text()).toBe('from the app');
});

// ------------------------------------------------------------------------ page headers

/** The CSP source of an inline script, as a browser computes it: SHA-256 of its text in UTF-8. */
const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
/** The page policy with these script hashes (static-files.ts documents each directive). */
const pagePolicy = (hashes: string[]) =>
  [
    "default-src 'none'",
    ["script-src 'self'", ...hashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "media-src 'self' https:",
    "connect-src 'self'",
    "worker-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
const directives = (csp: string | null) => new Map((csp ?? '').split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

const INSTALL = "window.Service = { subdomain: 'demo' };";
const LISTENER = "\n    document.addEventListener('Service.ready', function () { document.title = 'ready … ✓'; });\n  ";
writeFileSync(
  join(examplesDir, 'page.html'),
  [
    '<!doctype html><html><head><title>page</title>',
    '<!-- an old install code, commented out: <script>window.Service = { subdomain: "old" };</script> -->',
    `<script>${INSTALL}</script>`,
    '<script src="/scripts/widgets.js"></script>',
    '<SCRIPT type="text/javascript" data-note="a > in a value">' + LISTENER + '</script >',
    '</head><body><pre><code>&lt;script&gt;not a script&lt;/script&gt;</code></pre>',
    '<p style="display:none">hidden</p></body></html>',
  ].join('\n'),
);

test('example pages: a CSP whose script-src lists the hash of each inline script, and frame protection', async () => {
  const page = await request('/examples/page.html');
  expect(page.status).toBe(200);
  const csp = page.headers.get('content-security-policy');
  expect(csp).toBe(pagePolicy([hashSource(INSTALL), hashSource(LISTENER)]));
  expect(directives(csp).get('script-src')).not.toContain("'unsafe-inline'");
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  expect(page.headers.get('cache-control')).toBe('no-cache');

  // An index page, and a page without inline scripts: 'self' alone.
  const index = await request('/examples/');
  expect(index.headers.get('content-security-policy')).toBe(pagePolicy([]));
  expect(index.headers.get('x-frame-options')).toBe('DENY');
  // A revalidation keeps the policy (a browser updates its stored headers from a 304).
  const again = await request('/examples/page.html', { headers: { 'if-none-match': page.headers.get('etag')! } });
  expect(again.status).toBe(304);
  expect(again.headers.get('content-security-policy')).toBe(csp);
  expect(again.headers.get('x-frame-options')).toBe('DENY');
  const head = await request('/examples/page.html', { method: 'HEAD' });
  expect(head.headers.get('content-security-policy')).toBe(csp);
});

test('example pages: the hashes follow an edited page; CRLF line ends hash as the browser reads them (LF)', async () => {
  const path = join(examplesDir, 'edited.html');
  writeFileSync(path, `<!doctype html><title>edited</title><script>${INSTALL}</script>`);
  utimesSync(path, new Date(), new Date(Date.now() - 10_000));
  expect((await request('/examples/edited.html')).headers.get('content-security-policy')).toBe(pagePolicy([hashSource(INSTALL)]));
  writeFileSync(path, '<!doctype html><title>edited</title>\r\n<script>\r\n  window.Service = { subdomain: "shop" };\r\n</script>\r\n');
  utimesSync(path, new Date(), new Date());
  expect((await request('/examples/edited.html')).headers.get('content-security-policy')).toBe(
    pagePolicy([hashSource('\n  window.Service = { subdomain: "shop" };\n')]),
  );
});

test('files that are not pages get no page policy: stylesheets, the widget', async () => {
  for (const path of ['/examples/style.css', '/scripts/widgets.js']) {
    const response = await request(path);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('content-security-policy'), path).toBeNull();
    expect(response.headers.get('x-frame-options'), path).toBeNull();
    expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
  }
});

test('the real examples/: each page lists exactly the hashes of its inline scripts, as an HTML parser finds them', async () => {
  const realExamples = join(repoRoot, 'examples');
  const real = withStaticFiles(() => new Response(null, { status: 404 }), { scriptsDir, examplesDir: realExamples });
  const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  const pages = readdirSync(realExamples).filter((name) => name.endsWith('.html'));
  expect(pages.length).toBeGreaterThan(3);
  try {
    for (const name of pages) {
      const document = new window.DOMParser().parseFromString(readFileSync(join(realExamples, name), 'utf8'), 'text/html');
      const inline = [...document.querySelectorAll('script')].filter((script) => !script.hasAttribute('src'));
      expect(inline.length, name).toBeGreaterThan(0); // the install code at least
      const response = await real(new Request(`http://svc.test/examples/${name}`));
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-security-policy'), name).toBe(pagePolicy(inline.map((script) => hashSource(script.textContent ?? ''))));
      expect(response.headers.get('x-frame-options'), name).toBe('DENY');
    }
  } finally {
    await window.happyDOM.close();
  }
});
