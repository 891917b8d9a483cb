/**
 * The outbox directory on disk: one `<time>-<message id>.eml` per message, written whole or not
 * at all (a temporary file renamed into place), readable by its owner only, since mails carry
 * sign-in links. Names sort in the order the messages were written.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const OUTBOX_DIR_MODE = 0o700;
export const OUTBOX_FILE_MODE = 0o600;
const EML = '.eml';

/** `2025-03-01T09-30-00.123Z-4f1c…_example.org.eml`: the ISO time with `-` for `:`, which some file systems refuse. */
export function outboxFileName(at: Date, messageId: string): string {
  const safeId = messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return `${at.toISOString().replace(/:/g, '-')}-${safeId}${EML}`;
}

/** Writes `content` as `name` in `dir` (made if missing): complete when it appears, never half. */
export async function writeOutboxFile(dir: string, name: string, content: Uint8Array): Promise<string> {
  await makeOutboxDir(dir);
  const path = join(dir, name);
  // A dot name without .eml: a reader never lists it, even if this process dies before the rename.
  const temporary = join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
  const file = await open(temporary, 'wx', OUTBOX_FILE_MODE);
  try {
    await file.writeFile(content);
    await file.sync();
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporary, path);
  return path;
}

/** The directory, owner-only when this makes it; the folders above it as any other. */
async function makeOutboxDir(dir: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  await mkdir(dir, { mode: OUTBOX_DIR_MODE }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

/** The .eml file names in `dir`, oldest first; none when the directory does not exist yet. */
export async function listOutboxFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => name.endsWith(EML) && !name.startsWith('.')).sort();
}
