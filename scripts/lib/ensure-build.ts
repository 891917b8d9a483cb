/**
 * Builds the widget in a child process when dist/ is missing or stale: `svc serve`, the size
 * bench and the test setup call this. A child, so rollup and TypeScript never load into the
 * server, and its output (lines starting `[build]`) goes to our stderr.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { widgetBuildIsStale } from './freshness';
import { repoRoot, widgetEntry } from './paths';

export type BuildOutcome = 'fresh' | 'built' | 'no-widget' | 'failed';

export async function ensureWidgetBuild(): Promise<BuildOutcome> {
  if (!existsSync(widgetEntry)) return 'no-widget';
  if (!widgetBuildIsStale()) return 'fresh';
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/build.ts')], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', resolve);
  });
  return code === 0 ? 'built' : 'failed';
}
