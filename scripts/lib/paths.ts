/** Where the widget build reads and writes, from the repository root. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const widgetEntry = join(repoRoot, 'src/widget/index.ts');
export const distDir = join(repoRoot, 'dist');

/**
 * What `npm run build` makes, in two parts that go stale apart: the widget (what `svc serve`
 * and the size bench need) and the mock server bundle (what static pages and its browser test
 * need; it holds the whole service app, so any service edit makes it stale).
 */
export const BUILD_PARTS = {
  widget: {
    outputs: ['widgets.js', 'widgets.mjs', 'widgets.cjs', 'widgets.d.ts', 'widgets-modal.js', 'widgets-modal.de.js'],
    inputs: [
      'src/widget',
      'src/contract',
      'rollup.config.mjs',
      'tsconfig.json',
      'tsconfig.widget.json',
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
