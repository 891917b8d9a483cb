/**
 * Node 24.19 and later abort a process in which better-sqlite3 12 has a statement collected
 * (issue 25). This runs such a process on the Node that runs the suite: CI runs this file on
 * Node 24 and on Node 22 (`.ci/run`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';

test(`a process whose SQLite statements are collected exits 0 on Node ${process.versions.node}`, () => {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(repoRoot, 'test/platform/sqlite-statements-collected.ts')],
    { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
  );
  expect({ status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  expect(child.stdout.trim()).toBe('collected');
});
