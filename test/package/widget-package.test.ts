/**
 * The widget as a package of its own (packages/widget, issue 30): what `npm pack` ships is the
 * builds and their types and nothing else, and @arethetypeswrong/cli finds no problem in any
 * resolution mode (node10, node16 from CommonJS and from ESM, bundler).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { PACKAGE_FILES, packWidget, WIDGET_PACKAGE_DIR } from '../../scripts/pack-widget';

beforeAll(async () => {
  await packWidget();
}, 120_000);

test('npm pack --dry-run ships the builds, their types and maps, the README, the licence and package.json: nothing else', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: WIDGET_PACKAGE_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ name: string; files: Array<{ path: string }> }>;
  expect(packed!.name).toBe('@svc-membership/widget');
  expect(packed!.files.map((f) => f.path).sort()).toEqual(['LICENSE', 'README.md', 'package.json', ...Object.keys(PACKAGE_FILES).map((name) => `dist/${name}`)].sort());
  // The package's builds are the repository's: the same bytes.
  expect(readFileSync(join(WIDGET_PACKAGE_DIR, 'dist/widgets.mjs'), 'utf8')).toBe(readFileSync(join(repoRoot, 'dist/widgets.mjs'), 'utf8'));
  expect(readFileSync(join(WIDGET_PACKAGE_DIR, 'dist/widgets.mjs'), 'utf8')).toContain('export{');
});

test('are the types wrong? No: every resolution mode resolves to a module with its own types', () => {
  const attw = join(repoRoot, 'node_modules/.bin/attw');
  let output: string;
  try {
    output = execFileSync(attw, ['--pack', WIDGET_PACKAGE_DIR, '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout);
  }
  const report = JSON.parse(output) as { problems: Record<string, unknown> };
  expect(report.problems).toEqual({});
}, 60_000);
