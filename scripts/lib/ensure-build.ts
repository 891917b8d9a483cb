/**
 * Builds the parts of dist/ asked for, in a child process, when they are missing or stale:
 * `svc serve` and the size bench ask for the widget, the test setup for everything. A child, so rollup and TypeScript never load into the
 * server, and its output (lines starting `[build]`) goes to our stderr.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildIsStale } from './freshness';
import { repoRoot, widgetEntry, type BuildPart } from './paths';

export type BuildOutcome = 'fresh' | 'built' | 'no-widget' | 'failed';

export async function ensureBuild(parts: readonly BuildPart[]): Promise<BuildOutcome> {
  if (!existsSync(widgetEntry)) return 'no-widget';
  const stale = parts.filter(buildIsStale);
  if (stale.length === 0) return 'fresh';
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/build.ts'), ...stale], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', resolve);
  });
  return code === 0 ? 'built' : 'failed';
}
