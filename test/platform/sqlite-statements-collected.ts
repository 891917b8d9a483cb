/**
 * Child process of sqlite-statements-collected.test.ts: opens a SQLite database the way the
 * service does, runs many statements (more than the connection keeps prepared, so the rest
 * become garbage), has them collected, and exits. Under better-sqlite3 12 on Node 24.19+ a
 * statement finalized by the garbage collector aborted the process (SIGABRT, "Assertion failed:
 * (env) != nullptr" in RemoveEnvironmentCleanupHook).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../../src/service/store/sqlite/connection';

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');

const dir = mkdtempSync(join(tmpdir(), 'svc-statements-'));
try {
  const connection = connect(join(dir, 'svc.db'));
  // Distinct texts: each is a new prepared statement; past the kept 2,000 the cache lets go of them.
  for (let round = 0; round < 3; round += 1) {
    for (let i = 0; i < 2_500; i += 1) connection.first(`SELECT ${i} + ${round} AS n FROM sites LIMIT ${i + 1}`);
    collect();
  }
  // And statements nobody keeps at all, straight from the driver.
  for (let i = 0; i < 20_000; i += 1) connection.db.prepare(`SELECT ${i} AS n`).get();
  collect();
  connection.db.close();
  collect();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log('collected');
