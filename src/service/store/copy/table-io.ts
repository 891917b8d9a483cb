/** What `svc db copy` needs of a database, whichever store it is: tables read in key order and written in batches. */
/** A column's value; bytes for a BLOB (SQLite) or bytea (PostgreSQL) column. */
export type Cell = string | number | null | Uint8Array;
export type TableRow = Cell[];

export interface TableIO {
  /** How logs name it (a URL without its password). */
  readonly label: string;
  /** The tables of the schema, schema bookkeeping left out. */
  tables(): Promise<string[]>;
  columns(table: string): Promise<string[]>;
  count(table: string): Promise<number>;
  /** Up to `limit` rows (the columns in order), ordered by `key`, after the key values `after`. */
  read(table: string, columns: readonly string[], key: readonly string[], after: readonly Cell[] | undefined, limit: number): Promise<TableRow[]>;
  /** The row whose key has these values. */
  find(table: string, columns: readonly string[], key: readonly string[], values: readonly Cell[]): Promise<TableRow | undefined>;
  /** The keys of up to `n` rows picked at random. */
  sampleKeys(table: string, key: readonly string[], n: number): Promise<TableRow[]>;
  /** The last id handed out for the table (its sequence: rows deleted since may have had higher ids); 0 for none. */
  lastId(table: string): Promise<number>;

  /** Reads from here on see one moment of the database (a source under writes stays consistent). */
  beginRead(): Promise<void>;
  /** Writes from here on are one transaction: all or nothing. */
  beginWrite(): Promise<void>;
  write(table: string, columns: readonly string[], rows: readonly TableRow[]): Promise<void>;
  /** After the table's rows are written: the next generated id follows `lastId` of the source. */
  continueIds(table: string, lastId: number): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

/** `(a, b) > (?, ?)`: the rows after a key, in both dialects. */
export const after = (key: readonly string[]) => `(${key.join(', ')}) > (${key.map(() => '?').join(', ')})`;
export const keyEquals = (key: readonly string[]) => key.map((column) => `${column} = ?`).join(' AND ');
