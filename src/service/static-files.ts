/**
 * The files `svc serve` hands out beside the app: the built widget at /scripts/ (what site
 * owners install, from any origin), the QA pages of examples/ at /examples/ and the owner console
 * (dist/console/, issue 32) at /console/. Node-only (it
 * reads the disk), so it wraps the portable app's `fetch` here instead of living inside it.
 *
 * Every file answer carries the service's security headers (http/security-headers.ts), as the
 * app's own answers do (app.ts sets them there). Pages (.html) also get a Content-Security-Policy of their own that
 * allows their inline scripts by hash (the install code is inline on purpose: it is what site
 * owners copy), and may not be framed.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, extname, join, sep } from 'node:path';
import { HttpError } from './http/http-error';
import { withSecurityHeaders } from './http/security-headers';
import type { FetchHandler } from './server';

export interface StaticFilesOptions {
  /** Where widgets.js and widgets.mjs are built (dist/). */
  scriptsDir: string;
  /** Served at /examples/ when it exists. */
  examplesDir: string;
  /** The built owner console, served at /console/; `console/` in `scriptsDir` when not given. */
  consoleDir?: string;
}

/** The widget's files; nothing else in dist/ is served. */
const SCRIPT_FILES = new Set([
  'widgets.js',
  'widgets.mjs',
  'widgets-modal.js',
  // The screens in German (docs/decisions/0023-modal-catalogues.md: one bundle per language).
  'widgets-modal.de.js',
  'widgets.js.map',
  'widgets.mjs.map',
  'widgets-modal.js.map',
  'widgets-modal.de.js.map',
]);
/**
 * The modal's chunks, a group of screens each, and their maps: `widgets-modal<suffix>-<group>-<hash>.js`
 * (rollup.config.mjs; the build removes those of earlier builds with it). The hash changes with the
 * content, so a chunk may be kept for as long as a browser likes.
 */
export const MODAL_CHUNK_FILE = /^widgets-modal(\.[a-z]{2})?-[\w-]+\.js(\.map)?$/;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const SCRIPT_HEADERS = {
  // Short: a site picks up a new widget within minutes; the ETag makes the re-check cheap.
  'cache-control': 'public, max-age=300',
  'access-control-allow-origin': '*',
  // Pages that isolate themselves (COEP) may still load the widget.
  'cross-origin-resource-policy': 'cross-origin',
};
const CHUNK_HEADERS = { ...SCRIPT_HEADERS, 'cache-control': 'public, max-age=31536000, immutable' };
// Example pages are edited while someone looks at them: always revalidate.
const EXAMPLE_HEADERS = { 'cache-control': 'no-cache' };

/** The owner console's files (rollup.config.mjs); nothing else in its directory is served. */
const CONSOLE_FILES = new Set(['index.html', 'console.js', 'console.css', 'console.js.map']);
// A new build is picked up at once (the ETag keeps it cheap); the page holds the owner's key, so
// it tells no other site where it was.
const CONSOLE_HEADERS = { 'cache-control': 'no-cache', 'referrer-policy': 'no-referrer' };

/**
 * The owner console's policy, stricter than the examples': its own script and style sheet only,
 * nothing inline at all (the page holds an Admin API key in sessionStorage, so an injected script
 * must have nowhere to run), fetch to this origin only (the Admin API), no form may be sent
 * anywhere (the sign-in form is never submitted: a page without its script would otherwise put
 * the key in a URL), and nothing may frame it.
 */
const CONSOLE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * What an example page may load: its own files, its inline scripts by hash and nothing else
 * inline, the member API on the same origin (the widget's API origin is its script's), styles
 * inline too (the pages' `style="display:none"`, the widget's modal), media from anywhere over
 * https (a content item's video or audio may live on a CDN), the favicon as a data: URL and the
 * mock server's service worker (npm run examples:mock). Nothing may frame it.
 */
function pagePolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    ["script-src 'self'", ...scriptHashes.map((hash) => `'sha256-${hash}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "media-src 'self' https:",
    "connect-src 'self'",
    "worker-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Comments, elements whose content is text (a `<script>` inside them is not one) and scripts, in
 * document order. Attribute values may hold `>`. A script's text ends at `</script` followed by
 * a space, `/` or `>`, as the HTML tokenizer ends it.
 */
const PAGE_TOKENS =
  /<!--[^]*?(?:-->|$)|<(script|style|textarea|title|noscript|xmp)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>([^]*?)(?:<\/\1[\s/>]|$)/gi;

/**
 * The base64 SHA-256 of each inline script of the page (one without `src`), as a browser hashes
 * it for CSP: its text in UTF-8 after the parser turned CR LF and CR into LF. A `<script>` in a
 * comment or in text is skipped; a hash too many would be harmless, a wrong one would not be.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, tag, attributes, text] of html.matchAll(PAGE_TOKENS)) {
    if (tag?.toLowerCase() !== 'script' || /(?:^|\s)src\s*=/i.test(attributes ?? '')) continue;
    const source = (text ?? '').replace(/\r\n?/g, '\n');
    hashes.push(createHash('sha256').update(source, 'utf8').digest('base64'));
  }
  return hashes;
}

const notFound = (message: string) => new HttpError(404, [{ path: 'base', code: 'notFound', message }]).toResponse();

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  /** A page's own headers (its CSP with the hashes of its scripts, frame protection), or a script's map. */
  pageHeaders?: Record<string, string>;
}

/** Answers /scripts/…, /examples/… and /console/… from disk; everything else goes to `next`. */
export function withStaticFiles(next: FetchHandler, options: StaticFilesOptions): FetchHandler {
  const cache = new Map<string, CachedFile>();

  const read = (path: string, stats: Stats, policy?: string): CachedFile => {
    const cached = cache.get(path);
    if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached;
    const body = readFileSync(path);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const file: CachedFile = { mtimeMs: stats.mtimeMs, size: stats.size, body, etag };
    if (extname(path).toLowerCase() === '.html') {
      file.pageHeaders = {
        'content-security-policy': policy ?? pagePolicy(inlineScriptHashes(body.toString('utf8'))),
        'x-frame-options': 'DENY',
      };
    }
    // The widget's scripts name their source maps here, for the browser's developer tools, instead
    // of in a comment at their end that every visitor would download (rollup's hidden maps).
    if (extname(path).toLowerCase() === '.js' && statOrNothing(`${path}.map`)?.isFile()) file.pageHeaders = { sourcemap: `${basename(path)}.map` };
    cache.set(path, file);
    return file;
  };

  const serveFile = (request: Request, path: string, headers: Record<string, string>, missing = 'No such file', policy?: string): Response => {
    const stats = statOrNothing(path);
    if (!stats?.isFile()) return notFound(missing);
    const file = read(path, stats, policy);
    const common = {
      ...headers,
      ...file.pageHeaders,
      etag: file.etag,
      'content-type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    };
    if (etagMatches(request.headers.get('if-none-match'), file.etag)) return new Response(null, { status: 304, headers: common });
    const body = request.method === 'HEAD' ? null : file.body;
    return new Response(body, { headers: { ...common, 'content-length': String(file.size) } });
  };

  const consoleDir = options.consoleDir ?? join(options.scriptsDir, 'console');

  const serveStatic = (request: Request, area: 'scripts' | 'examples' | 'console', pathname: string, search: string): Response => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new HttpError(405, [{ path: 'base', code: 'methodNotAllowed', message: `${request.method} is not allowed here` }], {
        allow: 'GET, HEAD',
      }).toResponse();
    }
    if (area === 'scripts') {
      const name = pathname.slice('/scripts/'.length);
      const chunk = MODAL_CHUNK_FILE.test(name);
      if (!SCRIPT_FILES.has(name) && !chunk) return notFound('No such script');
      return serveFile(request, join(options.scriptsDir, name), chunk ? CHUNK_HEADERS : SCRIPT_HEADERS, 'The widget is not built: run `npm run build`');
    }
    if (area === 'console') {
      // Relative links in the page (console.js, console.css) resolve against the directory only with the slash.
      if (pathname === '/console') return redirect(`/console/${search}`);
      const name = pathname.slice('/console/'.length) || 'index.html';
      if (!CONSOLE_FILES.has(name)) return notFound('No such file');
      return serveFile(request, join(consoleDir, name), CONSOLE_HEADERS, 'The owner console is not built: run `npm run build`', CONSOLE_POLICY);
    }
    if (pathname === '/examples') return redirect(`/examples/${search}`);
    const path = examplePath(options.examplesDir, pathname.slice('/examples/'.length));
    if (path === undefined) return notFound('No such file');
    if (statOrNothing(path)?.isDirectory()) {
      // Relative links in an index page resolve against the directory only with the slash.
      if (!pathname.endsWith('/')) return redirect(`${pathname}/${search}`);
      return serveFile(request, join(path, 'index.html'), EXAMPLE_HEADERS);
    }
    return serveFile(request, path, EXAMPLE_HEADERS);
  };
  return (request, connection) => {
    // Most requests are the app's: parsing their URL here would cost them more than routing does.
    if (!mayBeStatic(request.url)) return next(request, connection);
    const { pathname, search } = new URL(request.url);
    const area = pathname.startsWith('/scripts/')
      ? 'scripts'
      : pathname === '/examples' || pathname.startsWith('/examples/')
        ? 'examples'
        : pathname === '/console' || pathname.startsWith('/console/')
          ? 'console'
          : undefined;
    // The app's own answers carry the security headers already (app.ts sets them where they leave).
    return area ? withSecurityHeaders(serveStatic(request, area, pathname, search)) : next(request, connection);
  };
}

/**
 * False when the path of `url` (absolute, as a Request's is: the URL parser has resolved its dot
 * segments) cannot be one of the static areas', so the exact test above may be skipped.
 */
function mayBeStatic(url: string): boolean {
  const path = url.indexOf('/', url.indexOf('//') + 2);
  return path !== -1 && (url.startsWith('/scripts/', path) || url.startsWith('/examples', path) || url.startsWith('/console', path));
}

/**
 * The file a URL path below /examples/ names, or undefined when it could name anything outside
 * the directory. The URL parser already resolved `..` and `%2e%2e`; what is left to refuse is
 * what decoding reveals (`%2f`, `%5c`, NUL), dot-files and symlinks that lead out.
 */
function examplePath(root: string, encoded: string): string | undefined {
  const segments: string[] = [];
  const parts = encoded.split('/');
  for (const [index, part] of parts.entries()) {
    if (part === '' && index === parts.length - 1) break; // a directory's trailing slash
    let segment;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment)) return undefined;
    segments.push(segment);
  }
  let realRoot;
  let real;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(join(root, ...segments));
  } catch {
    return undefined;
  }
  return real === realRoot || real.startsWith(realRoot + sep) ? real : undefined;
}

function statOrNothing(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

function redirect(location: string): Response {
  return new Response(null, { status: 301, headers: { location } });
}
