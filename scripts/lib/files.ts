/**
 * Outputs are written next to their final name and renamed into place, so a server or test
 * reading dist/ while another build runs (vitest runs files in parallel; `svc serve` builds a
 * stale dist on start) sees the old file or the new one, never half of one.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}
