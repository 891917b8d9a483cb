/** `svc db copy` on a SQLite file: better-sqlite3 on the migrated file, one transaction per side. */
import { connect } from '../sqlite/connection';
import { after, keyEquals, type Cell, type TableIO, type TableRow } from './table-io';
import { BOOKKEEPING_TABLES } from './tables';

/** Rows to one INSERT: under SQLite's 32,766 variables for the widest table. */
const ROWS_PER_INSERT = 100;

export function sqliteTables(path: string): TableIO {
  const { db } = connect(path);
  const all = (text: string, ...params: Cell[]) => db.prepare(text).raw(true).all(...params) as TableRow[];
  return {
    label: path,
    async tables() {
      return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[])
        .filter((table) => !BOOKKEEPING_TABLES.includes(table));
    },
    async columns(table) {
      return (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).pluck().all(table) as string[]);
    },
    async count(table) {
      return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    },
    async read(table, columns, key, afterKey, limit) {
      const where = afterKey ? `WHERE ${after(key)}` : '';
      return all(`SELECT ${columns.join(', ')} FROM ${table} ${where} ORDER BY ${key.join(', ')} LIMIT ?`, ...(afterKey ?? []), limit);
    },
    async find(table, columns, key, values) {
      return all(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${keyEquals(key)}`, ...values)[0];
    },
    async sampleKeys(table, key, n) {
      return all(`SELECT ${key.join(', ')} FROM ${table} ORDER BY random() LIMIT ?`, n);
    },
    async lastId(table) {
      // AUTOINCREMENT tables never hand out an id again, and remember the last in sqlite_sequence.
      const sequence = db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table) as number | undefined;
      const max = db.prepare(`SELECT coalesce(max(id), 0) FROM ${table}`).pluck().get() as number;
      return Math.max(sequence ?? 0, max);
    },
    async beginRead() {
      db.exec('BEGIN');
    },
    async beginWrite() {
      db.exec('BEGIN IMMEDIATE');
    },
    async write(table, columns, rows) {
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        const chunk = rows.slice(start, start + ROWS_PER_INSERT);
        db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`).run(chunk.flat());
      }
    },
    async continueIds(table, lastId) {
      // Only AUTOINCREMENT tables keep a sequence; the others hand out max(id) + 1, as SQLite does.
      const kept = db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table) as number | undefined;
      const autoincrement = (db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").pluck().get(table) as string).includes('AUTOINCREMENT');
      if (!autoincrement || lastId <= (kept ?? 0)) return;
      if (kept === undefined) db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, lastId);
      else db.prepare('UPDATE sqlite_sequence SET seq = ? WHERE name = ?').run(lastId, table);
    },
    async commit() {
      if (db.inTransaction) db.exec('COMMIT');
    },
    async rollback() {
      if (db.inTransaction) db.exec('ROLLBACK');
    },
    async close() {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    },
  };
}
