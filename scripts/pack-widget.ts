/**
 * `npm run pack:widget`: fills packages/widget/dist from a current widget build, for `npm pack`
 * or `npm publish` there (the widget is a package of its own: the repository's package.json is
 * the service's, private). ESM and CommonJS each get their types (`.d.ts`, `.d.cts`: the same
 * declarations, which are format-neutral), the script-tag build comes along, and nothing else.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuild } from './lib/ensure-build';
import { distDir, repoRoot } from './lib/paths';

export const WIDGET_PACKAGE_DIR = join(repoRoot, 'packages/widget');

/** The files the package's dist/ holds, by the name each has there. */
export const PACKAGE_FILES: Record<string, string> = {
  'widgets.mjs': 'widgets.mjs',
  'widgets.mjs.map': 'widgets.mjs.map',
  'widgets.cjs': 'widgets.cjs',
  'widgets.cjs.map': 'widgets.cjs.map',
  'widgets.d.ts': 'widgets.d.ts',
  'widgets.d.cts': 'widgets.d.ts',
  'widgets.js': 'widgets.js',
  'widgets.js.map': 'widgets.js.map',
};

export async function packWidget(): Promise<string> {
  if ((await ensureBuild(['widget'])) === 'failed') throw new Error('the widget build failed');
  const target = join(WIDGET_PACKAGE_DIR, 'dist');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const [name, from] of Object.entries(PACKAGE_FILES)) copyFileSync(join(distDir, from), join(target, name));
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = await packWidget();
  process.stderr.write(`[pack] ${target} holds the widget package's files; \`npm pack\` there makes the tarball\n`);
}
