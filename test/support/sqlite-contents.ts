/**
 * What a SQLite file holds, read as it is (better-sqlite3, read-only): to compare a database
 * with its copy, or with itself before and after something that should have changed nothing.
 */
import Database from 'better-sqlite3';
import { COPIED_TABLES } from '../../src/service/store/copy/tables';

/** Every copied table's rows (values in column order, by key), and SQLite's sequences. */
export type TableRows = Record<string, unknown[][]>;

export function sqliteRows(path: string): TableRows {
  const db = new Database(path, { readonly: true });
  try {
    const rows: TableRows = {};
    for (const { name, key } of COPIED_TABLES) {
      rows[name] = db.prepare(`SELECT * FROM ${name} ORDER BY ${key.join(', ')}`).raw(true).all() as unknown[][];
    }
    rows.sqlite_sequence = db.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').raw(true).all() as unknown[][];
    return rows;
  } finally {
    db.close();
  }
}

/** All a SQLite file holds, schema included: to show that a refused copy changed nothing. */
export function sqliteFile(path: string): { version: number; schema: unknown[]; rows: Record<string, unknown[]> } {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      schema: db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all(),
      rows: Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1`).raw(true).all()])),
    };
  } finally {
    db.close();
  }
}

/** Each table's columns, in their order. */
export function sqliteColumns(path: string): Map<string, string[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    return new Map(tables.map((t) => [t, db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(t) as string[]]));
  } finally {
    db.close();
  }
}
