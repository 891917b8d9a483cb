/** Running `svc` in-process against a temporary SQLite file, one per test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { main } from '../../src/cli/main';

export interface CliRun {
  code: number;
  /** Lines as a terminal shows them: one `out` call may write several (export writes a file in one). */
  out: string[];
  err: string;
}

/** Registers the per-test directory; `db()` and `dir()` name this test's database and directory. */
export function useTempDatabase(prefix: string) {
  let dir = '';
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), prefix))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const db = () => join(dir, 'svc.db');
  return {
    dir: () => dir,
    db,
    async svc(...argv: string[]): Promise<CliRun> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(argv, { SVC_DB: db() }, { out: (l) => out.push(l), err: (l) => err.push(l) });
      return { code, out: out.flatMap((l) => l.split('\n')), err: err.join('\n') };
    },
  };
}
