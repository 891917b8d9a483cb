/** Where the widget build reads and writes, from the repository root. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const widgetEntry = join(repoRoot, 'src/widget/index.ts');
export const distDir = join(repoRoot, 'dist');

/** What `npm run build` produces. */
export const WIDGET_OUTPUTS = ['widgets.js', 'widgets.mjs', 'widgets.d.ts', 'mock-server.js', 'mockServiceWorker.js'] as const;

/** What the build reads: a newer file here makes the outputs stale. */
export const WIDGET_INPUTS = [
  'src/widget',
  'src/contract',
  // the mock server bundle holds the whole service app
  'src/service',
  'mock-server',
  'rollup.config.mjs',
  'tsconfig.json',
  'tsconfig.widget.json',
  'tsconfig.types.json',
  'api-extractor.json',
  'scripts/build.ts',
  'scripts/lib',
];
