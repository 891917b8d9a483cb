/** Where the widget build reads and writes, from the repository root. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const widgetEntry = join(repoRoot, 'src/widget/index.ts');
export const distDir = join(repoRoot, 'dist');

/**
 * What `npm run build` makes, in two parts that go stale apart: the widget (what `svc serve`
 * and the size bench need; the owner console, dist/console/, is built with it, by the same
 * rollup config, as `svc serve` serves it too) and the mock server bundle (what static pages and
 * its browser test need; it holds the whole service app, so any service edit makes it stale).
 */
export const BUILD_PARTS = {
  widget: {
    outputs: ['widgets.js', 'widgets.mjs', 'widgets.cjs', 'widgets.d.ts', 'widgets-modal.js', 'widgets-modal.de.js', 'console/index.html', 'console/console.js', 'console/console.css'],
    inputs: [
      'src/widget',
      'src/console',
      'src/contract',
      // The console shows money with the service's own digits per currency.
      'src/service/billing/money.ts',
      'rollup.config.mjs',
      'tsconfig.json',
      'tsconfig.widget.json',
      'tsconfig.console.json',
      'tsconfig.types.json',
      'api-extractor.json',
      'scripts/build.ts',
      'scripts/lib',
    ],
  },
  mock: {
    outputs: ['mock-server.js', 'mockServiceWorker.js'],
    inputs: ['src/service', 'src/contract', 'mock-server', 'scripts/build.ts'],
  },
} as const;

export type BuildPart = keyof typeof BUILD_PARTS;
export const ALL_BUILD_PARTS = Object.keys(BUILD_PARTS) as BuildPart[];
