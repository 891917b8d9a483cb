/** Running `svc` in-process against a temporary SQLite file, one per test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { runSvc, type CliRun } from '../support/svc-main';

export type { CliRun };

/** Registers the per-test directory; `db()` and `dir()` name this test's database and directory. */
export function useTempDatabase(prefix: string) {
  let dir = '';
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), prefix))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const db = () => join(dir, 'svc.db');
  return {
    dir: () => dir,
    db,
    svc: (...argv: string[]): Promise<CliRun> => runSvc(argv, { SVC_DB: db() }),
  };
}
