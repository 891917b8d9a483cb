/**
 * `npm run examples:mock`: the example pages with no service at all. A static server for
 * examples/ whose /scripts/widgets.js first starts the MSW mock server in the page (the service
 * app over the fixture set, mock-server/), then loads the real widget. The pages keep the plain
 * install code a site owner copies; only the script behind the address differs.
 *
 * In this mode the data lives in the page: a reload starts again from the fixtures, logged out
 * (the boot script forgets a login kept from the page before).
 *
 *   npm run examples:mock            (PORT, default 8788; HOST, default 127.0.0.1)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listen, type RunningServer } from '../src/service/server';
import { withStaticFiles } from '../src/service/static-files';
import { ensureBuild } from './lib/ensure-build';
import { distDir, repoRoot } from './lib/paths';

/** What the page gets as /scripts/widgets.js in mock mode: the mock server first, then the widget. */
const MOCK_BOOT = `// Mock mode (npm run examples:mock): no service runs. The mock server starts in this page first.
(function () {
  // Its data starts from the fixtures on every page load, so a login kept from the last page
  // names a session it never had: forget it, instead of showing it and being refused.
  try {
    Object.keys(localStorage).filter(function (key) { return key.indexOf('svc:') === 0; }).forEach(function (key) { localStorage.removeItem(key); });
  } catch (e) { /* storage unavailable: nothing kept */ }
  var mock = document.createElement('script');
  mock.src = '/mock-server.js';
  mock.onload = function () {
    SvcMock.startMockServer({ workerUrl: '/mockServiceWorker.js' }).then(function () {
      var widget = document.createElement('script');
      widget.src = '/scripts/widgets.real.js';
      document.head.appendChild(widget);
    }, function (error) {
      console.error('[examples] the mock server did not start:', error);
    });
  };
  document.head.appendChild(mock);
})();
`;

const JS = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' };

export async function startExamplesMockServer(options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const outcome = await ensureBuild(['widget', 'mock']);
  if (outcome === 'failed' || outcome === 'no-widget') throw new Error('the widget or the mock server could not be built: run `npm run build`');
  const fromDist = (name: string) => new Response(readFileSync(join(distDir, name)), { headers: JS });
  const routes: Record<string, () => Response> = {
    '/': () => new Response(null, { status: 302, headers: { location: '/examples/' } }),
    '/scripts/widgets.js': () => new Response(MOCK_BOOT, { headers: JS }),
    '/scripts/widgets.real.js': () => fromDist('widgets.js'),
    '/mock-server.js': () => fromDist('mock-server.js'),
    '/mockServiceWorker.js': () => fromDist('mockServiceWorker.js'),
  };
  const statics = withStaticFiles(
    () => new Response('Not here: the examples are at /examples/', { status: 404, headers: { 'content-type': 'text/plain' } }),
    { scriptsDir: distDir, examplesDir: join(repoRoot, 'examples') },
  );
  return listen((request) => routes[new URL(request.url).pathname]?.() ?? statics(request), options.port ?? 8788, options.host ?? '127.0.0.1');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startExamplesMockServer({
    port: process.env.PORT ? Number(process.env.PORT) : 8788,
    host: process.env.HOST ?? '127.0.0.1',
  });
  process.stderr.write(`examples (mock mode, no service): ${server.url}/examples/\n`);
  process.stderr.write('log in as ada@demo.localhost / demo-password (or grace@demo.localhost / grace-password)\n');
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
