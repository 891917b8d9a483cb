/**
 * `svc db copy`: a whole installation from one database to another (SQLite or PostgreSQL, either
 * way), table by table, as it is: ids, hashes, secrets and the mail outbox included, so keys,
 * sessions, cursors and links issued before keep working. The target must be empty. Both are
 * migrated to this build's schema first, so their tables and columns agree. The source is read
 * at one moment (one read transaction) and the target written in one transaction: a copy that
 * fails leaves the target as empty as it was. A PostgreSQL target sets its foreign keys and the
 * indexes that decide nothing aside for that transaction and makes them again before it commits,
 * as a bulk load does (../postgres/bulk-load). Afterwards every table's count and a sample of its
 * rows are compared between the two.
 */
import { COPIED_TABLES } from './tables';
import type { Cell, TableIO } from './table-io';

/** Rows per read and write: memory stays flat whatever the size of a table. */
const BATCH = 5000;

export interface CopyOptions {
  /** Rows per table compared field by field afterwards (chosen at random). */
  sample?: number;
  onProgress?: (table: string, copied: number, total: number) => void;
}

export interface TableReport {
  table: string;
  rows: number;
  /** Rows compared after the copy, and how many were equal. */
  sampled: number;
  equal: number;
}

export class CopyRefusedError extends Error {
  override readonly name = 'CopyRefusedError';
}

export async function copyDatabase(source: TableIO, target: TableIO, { sample = 100, onProgress }: CopyOptions = {}): Promise<TableReport[]> {
  await checkSchemas(source, target);
  for (const { name } of COPIED_TABLES) {
    if ((await target.count(name)) > 0) {
      throw new CopyRefusedError(`${target.label} is not empty (table ${name} has rows): svc db copy writes only into an empty database`);
    }
  }
  await source.beginRead();
  const totals = new Map<string, number>();
  try {
    await target.beginWrite();
    try {
      for (const { name, key, generatedId, batch = BATCH } of COPIED_TABLES) {
        const columns = await source.columns(name);
        const keyAt = key.map((column) => columns.indexOf(column));
        const total = await source.count(name);
        let copied = 0;
        let last: Cell[] | undefined;
        for (;;) {
          const rows = await source.read(name, columns, key, last, batch);
          if (rows.length === 0) break;
          await target.write(name, columns, rows);
          copied += rows.length;
          onProgress?.(name, copied, total);
          const final = rows[rows.length - 1]!;
          last = keyAt.map((at) => final[at]!);
          if (rows.length < batch) break;
        }
        if (generatedId) await target.continueIds(name, await source.lastId(name));
        totals.set(name, copied);
      }
      await target.commit();
    } catch (error) {
      await target.rollback();
      throw error;
    }
    return await compare(source, target, totals, sample);
  } finally {
    await source.rollback();
  }
}

/** The same tables with the same columns on both sides, and none the copy does not know. */
async function checkSchemas(source: TableIO, target: TableIO): Promise<void> {
  const known = new Set(COPIED_TABLES.map((t) => t.name));
  for (const side of [source, target]) {
    const unknown = (await side.tables()).filter((table) => !known.has(table));
    if (unknown.length > 0) throw new CopyRefusedError(`${side.label} has tables svc db copy does not know: ${unknown.join(', ')}`);
  }
  for (const { name } of COPIED_TABLES) {
    const [from, to] = [await source.columns(name), await target.columns(name)];
    if (from.join() !== to.join()) {
      throw new CopyRefusedError(`table ${name} differs: ${source.label} has (${from.join(', ')}), ${target.label} has (${to.join(', ')})`);
    }
  }
}

/** Counts, then a random sample of rows, compared value by value, still in the source's read moment. */
async function compare(source: TableIO, target: TableIO, totals: Map<string, number>, sample: number): Promise<TableReport[]> {
  const reports: TableReport[] = [];
  for (const { name, key } of COPIED_TABLES) {
    const rows = await target.count(name);
    if (rows !== totals.get(name)) throw new Error(`table ${name}: copied ${totals.get(name)} rows, but ${target.label} has ${rows}`);
    const columns = await source.columns(name);
    const keys = await source.sampleKeys(name, key, sample);
    let equal = 0;
    for (const values of keys) {
      const [from, to] = [await source.find(name, columns, key, values), await target.find(name, columns, key, values)];
      if (JSON.stringify(from) === JSON.stringify(to)) equal++;
    }
    if (equal !== keys.length) throw new Error(`table ${name}: ${keys.length - equal} of ${keys.length} sampled rows differ after the copy`);
    reports.push({ table: name, rows, sampled: keys.length, equal });
  }
  return reports;
}
