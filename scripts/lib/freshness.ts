/** Is a part of dist/ older than what it is built from? Cheap enough for every `svc serve` start. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_PARTS, distDir, repoRoot, type BuildPart } from './paths';

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

/** True when an output of `part` is missing, or one of its sources changed after its oldest output. */
export function buildIsStale(part: BuildPart): boolean {
  const { inputs, outputs } = BUILD_PARTS[part];
  const mtimes = outputs.map((name) => mtimeOrNothing(join(distDir, name)));
  if (mtimes.some((mtime) => mtime === undefined)) return true;
  const oldestOutput = Math.min(...(mtimes as number[]));
  return inputs.some((input) => newestMtime(join(repoRoot, input)) > oldestOutput);
}
