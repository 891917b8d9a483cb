/** Is dist/ older than what it is built from? Cheap enough for every `svc serve` start. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { distDir, repoRoot, WIDGET_INPUTS, WIDGET_OUTPUTS } from './paths';

function newestMtime(path: string): number {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stats.mtimeMs);
}

function mtimeOrNothing(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** True when an output is missing, or a source of the build changed after the oldest output. */
export function widgetBuildIsStale(): boolean {
  const outputs = WIDGET_OUTPUTS.map((name) => mtimeOrNothing(join(distDir, name)));
  if (outputs.some((mtime) => mtime === undefined)) return true;
  const oldestOutput = Math.min(...(outputs as number[]));
  return WIDGET_INPUTS.some((input) => newestMtime(join(repoRoot, input)) > oldestOutput);
}
