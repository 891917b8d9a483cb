/**
 * The database the bench serves: seeded with `svc seed` into a temp dir, cached as
 * bench/.cache/bench-<N>.db (+ a .json with what the seed reported) so the next run skips
 * seeding. The run itself always works on a copy in the temp dir, so the cache (or a --db the
 * user gave) never gets the bench's API key or a half-written WAL.
 */
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './children';

export interface SeedReport {
  siteId?: number;
  members?: number;
  memberships?: number;
  memberEvents?: number;
  contentViews?: number;
  /** What `svc seed` reported for itself. */
  seconds?: number;
}

export interface PreparedDb {
  /** The working copy the server opens. */
  path: string;
  source: 'seeded' | 'cache' | 'given';
  sourcePath: string;
  seed: SeedReport | undefined;
  /** Wall time of the seed child, measured here (only when seeded now). */
  seedWallSec: number | undefined;
}

export interface DbOptions {
  repoRoot: string;
  tmpDir: string;
  members: number;
  given: string | undefined;
  fresh: boolean;
}

function copyDb(from: string, to: string): void {
  copyFileSync(from, to, constants.COPYFILE_FICLONE);
  // A db last closed uncleanly may still have committed pages in its WAL.
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${to}-wal`, constants.COPYFILE_FICLONE);
}

function lastJsonLine(stdout: string): SeedReport | undefined {
  const line = stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (!line) return undefined;
  try {
    return JSON.parse(line) as SeedReport;
  } catch {
    return undefined;
  }
}

export async function prepareDb(options: DbOptions): Promise<PreparedDb> {
  const working = join(options.tmpDir, 'bench.db');
  const svc = join(options.repoRoot, 'bin/svc.js');

  if (options.given !== undefined) {
    if (!existsSync(options.given)) throw new Error(`--db ${options.given} does not exist`);
    copyDb(options.given, working);
    return { path: working, source: 'given', sourcePath: options.given, seed: undefined, seedWallSec: undefined };
  }

  const cacheDir = join(options.repoRoot, 'bench/.cache');
  const cached = join(cacheDir, `bench-${options.members}.db`);
  const cachedReport = join(cacheDir, `bench-${options.members}.json`);
  if (!options.fresh && existsSync(cached)) {
    copyDb(cached, working);
    const seed = existsSync(cachedReport) ? (JSON.parse(readFileSync(cachedReport, 'utf8')) as SeedReport) : undefined;
    return { path: working, source: 'cache', sourcePath: cached, seed, seedWallSec: undefined };
  }

  process.stderr.write(`[bench] seeding ${options.members.toLocaleString('en-US')} members into ${working}\n`);
  const started = performance.now();
  const stdout = await run(
    process.execPath,
    [svc, 'seed', '--members', String(options.members), '--seed', '1', '--db', working],
    { cwd: options.repoRoot, label: '' },
  );
  const seedWallSec = (performance.now() - started) / 1000;
  const seed = lastJsonLine(stdout);
  if (!seed) process.stderr.write(`[bench] svc seed printed no JSON counts (stdout: ${JSON.stringify(stdout.slice(0, 200))})\n`);

  // Into the cache under a temporary name first, so an interrupted copy is never taken for a db.
  mkdirSync(cacheDir, { recursive: true });
  for (const stale of [cached, `${cached}-wal`, `${cached}-shm`]) rmSync(stale, { force: true });
  copyDb(working, `${cached}.partial`);
  renameSync(`${cached}.partial`, cached);
  if (existsSync(`${cached}.partial-wal`)) renameSync(`${cached}.partial-wal`, `${cached}-wal`);
  writeFileSync(cachedReport, `${JSON.stringify({ ...seed, wallSeconds: Number(seedWallSec.toFixed(1)), cachedAt: new Date().toISOString() })}\n`);
  process.stderr.write(`[bench] cached the seeded db as ${cached}\n`);
  return { path: working, source: 'seeded', sourcePath: cached, seed, seedWallSec };
}
