/**
 * Audit finding of issue 26: the SQLite file was created 0644 while the outbox beside it is 0700,
 * so another local user read a live reset link from `mail_outbox` and completed the reset. The
 * database, its -wal and -shm are now the owner's alone. Failed before the fix.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import { openSqliteStore } from '../../src/service/store/sqlite';

const dir = mkdtempSync(join(tmpdir(), 'svc-db-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const modeOf = (file: string) => statSync(file).mode & 0o777;

test.skipIf(process.platform === 'win32')('a new database, its -wal and -shm are created owner-only (600), in a directory made owner-only (700), whatever the umask', async () => {
  const previous = process.umask(0o022);
  try {
    const path = join(dir, 'fresh', 'svc.db');
    const store = openSqliteStore(path);
    try {
      await store.createSite({ subdomain: 'files', name: 'Files', domain: 'files.example', defaultCurrency: 'usd', locale: 'en', adminApiEnabled: true, createdAt: Date.now() });
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect(existsSync(`${path}-shm`)).toBe(true);
      expect([path, `${path}-wal`, `${path}-shm`].map(modeOf)).toEqual([0o600, 0o600, 0o600]);
      expect(modeOf(join(dir, 'fresh'))).toBe(0o700);
    } finally {
      await store.close();
    }
  } finally {
    process.umask(previous);
  }
});

test.skipIf(process.platform === 'win32')('a database found readable by others is made owner-only when opened, and the log says so', async () => {
  const path = join(dir, 'old.db');
  writeFileSync(path, '');
  chmodSync(path, 0o644);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const store = openSqliteStore(path);
  await store.close();
  expect(modeOf(path)).toBe(0o600);
  expect(logged.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringContaining(`${path} was readable by other users (mode 644)`));
  logged.mockRestore();
});
