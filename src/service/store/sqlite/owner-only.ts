/**
 * The database file holds what only the service may read: live reset and sign-in links in the
 * mail outbox, session hashes, members' data. SQLite makes a new file 0644 (less the umask) and
 * gives its -wal and -shm files the database's mode, so another local user could read a live
 * reset link and complete the reset (audit, issue 26). The file is made owner-only before SQLite
 * opens it, so it never exists readable by others; one found readable by others is tightened,
 * with a line in the log, as the outbox beside it is made 0700.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { log } from '../../diagnostics';

const OTHERS = 0o077;

/** Makes `path` (a file path, not `:memory:` or a `file:` URI) and its -wal and -shm owner-only. */
export function ownerOnlyDatabase(path: string): void {
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return;
  // A directory made here is the owner's alone too; an existing one is the operator's choice.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    let mode: number;
    try {
      mode = statSync(file).mode;
    } catch {
      continue; // -wal and -shm exist only while a connection has the database open
    }
    if ((mode & OTHERS) === 0) continue;
    chmodSync(file, mode & 0o700);
    log.info(`${file} was readable by other users (mode ${(mode & 0o777).toString(8)}); made it owner-only (600)`);
  }
}
