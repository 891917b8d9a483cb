/**
 * The PostgreSQL store's connection (`pg`, pooled): migrated at open, SQL written as for SQLite
 * (`?` placeholders, numbered here, and prepared once per pooled connection), keyset pages,
 * transactions that behave like SQLite's, and broken rules reported as store errors.
 * ./index builds the Store on top of it.
 *
 * Transactions run SERIALIZABLE and are retried on a serialization failure or deadlock: SQLite
 * runs one writer at a time, and every read-check-write the store does inside a transaction
 * (a send limit counted before a mail is queued, a revision compared before a site changes)
 * relies on that. Under SERIALIZABLE, PostgreSQL gives the same outcome as some one-at-a-time
 * order or fails the transaction, which is then run again from the start. So the work passed to
 * `transaction` must do nothing outside the database (or nothing that matters twice).
 */
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { ConflictError, MissingReferenceError } from '../errors';
import type { Page, PageRequest } from '../queries';
import type { RawRow, Row, Where } from '../sql-rows';
import { migratePostgres } from './migrations';

/** A value bound to a placeholder (arrays are for `= ANY(?)` and unnest), or a COPY row's. */
export type Param = string | number | boolean | null | Uint8Array | readonly (string | number | boolean | null)[];

/** Queries on the pool (each statement on its own) or inside one transaction. */
export interface Sql {
  /** Rows as objects named by column. */
  all(text: string, ...params: Param[]): Promise<Row[]>;
  first(text: string, ...params: Param[]): Promise<Row | undefined>;
  /** Rows as arrays, in the order of the select list (what ../sql-rows' list mappers read). */
  raw(text: string, ...params: Param[]): Promise<RawRow[]>;
  firstRaw(text: string, ...params: Param[]): Promise<RawRow | undefined>;
  /** Runs a statement; answers how many rows it changed. */
  run(text: string, ...params: Param[]): Promise<number>;
  /** Writes rows with `COPY t (a, b) FROM STDIN` (`into` is `t (a, b)`), each row's values in that order. */
  copy(into: string, rows: ReadonlyArray<readonly Param[]>): Promise<void>;
}

export interface PostgresConnection extends Sql {
  readonly pool: pg.Pool;
  /** Runs `work` in one SERIALIZABLE transaction, retried from the start when PostgreSQL asks to. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one REPEATABLE READ, READ ONLY transaction: every read sees the database at
   * the same moment. It writes nothing, so it never conflicts and is never retried.
   */
  snapshot<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /** A keyset page: fetches limit + 1 rows to learn whether more follow. */
  page<T>(select: string, idColumn: string, where: Where, req: PageRequest, map: (r: RawRow) => T): Promise<Page<T>>;
  /**
   * Runs `work` inside one SERIALIZABLE transaction on one pooled connection (COMMIT when it
   * returns, ROLLBACK when it throws; not retried), handing it a PostgresConnection whose every
   * query goes there, one at a time: its `transaction` is a savepoint (one at a time, so callers
   * that write at once take turns), its `snapshot` the transaction as it is. Calls still under
   * way when `work` returns finish before COMMIT; later ones are refused. A bulk load runs this
   * way (./bulk-load).
   */
  within<T>(work: (conn: PostgresConnection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A unique constraint or index (by its name in ./migrations) and the field a ConflictError names. */
export const UNIQUE_CONSTRAINTS: Readonly<Record<string, string>> = {
  sites_subdomain: 'subdomain',
  plans_public_id: 'publicId',
  members_site_email: 'email',
  api_keys_hash: 'hash',
  sessions_token_hash: 'tokenHash',
  invoices_site_processor_invoice: 'processorInvoiceId',
  plans_site_key: 'key',
  signup_fields_site_key: 'key',
  content_nodes_site_key: 'key',
  member_tokens_token_hash: 'tokenHash',
};

/** SQLSTATEs of a transaction PostgreSQL asks to run again: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
/**
 * How long a transaction is run again before its error goes to the caller: a time, not a count of
 * attempts. When transactions all read what the others write (a burst of sign-ups), about one of
 * them commits a round, and the last of the burst can lose many rounds: a limit of 20 attempts
 * refused a sign-up in a burst of 20 on a busy machine.
 */
const RETRY_FOR_MS = 10_000;
/** A random wait before the next attempt, its ceiling doubling from 10 to 100 ms, so the ones that collided do not meet again at once. */
const retryWaitMs = (attempt: number) => Math.random() * Math.min(100, 5 * 2 ** attempt);
/** Broken rules: unique, foreign key, not null, check. */
const CONSTRAINT_CODES = new Set(['23505', '23503', '23502', '23514']);

export const isConstraintViolation = (error: unknown): error is pg.DatabaseError =>
  error instanceof pg.DatabaseError && CONSTRAINT_CODES.has(error.code ?? '');

/** A unique violation as the store's ConflictError; undefined for any other error. */
export function conflictFrom(error: unknown): ConflictError | undefined {
  if (!(error instanceof pg.DatabaseError) || error.code !== '23505') return undefined;
  const field = UNIQUE_CONSTRAINTS[error.constraint ?? ''];
  return field === undefined ? undefined : new ConflictError(field, `${field} is taken: ${error.detail ?? error.message}`);
}

/**
 * A foreign key (by its name in ./migrations) whose failure names one field whatever the row:
 * the field a MissingReferenceError names. Keys that may fail on the site or on the row alike
 * (`sessions_member`: an unknown site, or a member not in it) are left out: insertAll's `missing`
 * asks the database which, after the rollback.
 */
export const REFERENCE_CONSTRAINTS: Readonly<Record<string, string>> = {
  members_site_id_fkey: 'siteId',
  signup_fields_site_id_fkey: 'siteId',
  signup_values_field: 'fieldId',
  member_events_member: 'memberId',
  mail_outbox_site_id_fkey: 'siteId',
  member_tokens_site_id_fkey: 'siteId',
  member_tokens_member_id_fkey: 'memberId',
};

/** A foreign-key violation of REFERENCE_CONSTRAINTS as the store's MissingReferenceError; undefined for any other error. */
export function referenceFrom(error: unknown): MissingReferenceError | undefined {
  if (!(error instanceof pg.DatabaseError) || error.code !== '23503') return undefined;
  const field = REFERENCE_CONSTRAINTS[error.constraint ?? ''];
  return field === undefined ? undefined : new MissingReferenceError(field, `${field} does not exist: ${error.detail ?? error.message}`);
}

/**
 * What a transaction that writes several kinds of rows throws (signing up, redeeming a token):
 * the store's error when the broken rule's name tells it (conflictFrom, referenceFrom), else
 * the error as it came.
 */
export const storeError = (error: unknown): unknown => conflictFrom(error) ?? referenceFrom(error) ?? error;

/*
 * bigint columns (ids, epoch milliseconds) and counts come back as numbers, as SQLite gives
 * them: every value the store keeps is far below 2^53. `sum()` of a bigint is a numeric.
 */
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** `?` placeholders numbered ($1, $2, …) and the unary `+` index hints SQLite reads (../sql-rows' Where) dropped. */
function toPostgres(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`).replace(/(^|[\s(,])\+(?=[a-z_])/g, '$1');
}

export async function connectPostgres(url: string, { max = 10 }: { max?: number } = {}): Promise<PostgresConnection> {
  const pool = new pg.Pool({ connectionString: url, max, types, application_name: 'svc' });
  // An idle pooled connection that fails (the server restarted) is dropped, not a crash.
  pool.on('error', () => undefined);
  const client = await pool.connect().catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  try {
    await migratePostgres(client);
  } catch (error) {
    client.release();
    await pool.end();
    throw error;
  }
  client.release();

  /** Statement texts as PostgreSQL reads them, each with the name it is prepared under. */
  const statements = new Map<string, { text: string; name: string }>();
  const statement = (text: string) => {
    let found = statements.get(text);
    if (!found) statements.set(text, (found = { text: toPostgres(text), name: `svc${statements.size}` }));
    return found;
  };
  type Target = pg.Pool | pg.PoolClient;
  const query = async (on: Target, text: string, params: Param[], rowMode?: 'array') => {
    const { text: sql, name } = statement(text);
    return on.query({ text: sql, name, values: params as unknown[], ...(rowMode && { rowMode }) });
  };
  const sqlOn = (on: Target): Sql => ({
    all: async (text, ...params) => (await query(on, text, params)).rows as Row[],
    first: async (text, ...params) => (await query(on, text, params)).rows[0] as Row | undefined,
    raw: async (text, ...params) => (await query(on, text, params, 'array')).rows as RawRow[],
    firstRaw: async (text, ...params) => (await query(on, text, params, 'array')).rows[0] as RawRow | undefined,
    run: async (text, ...params) => (await query(on, text, params)).rowCount ?? 0,
    // COPY runs on one client: on the pool, a transaction of its own lends it one.
    copy: (into, rows) => (on instanceof pg.Pool ? transaction((tx) => tx.copy(into, rows)) : copyRows(on, into, rows)),
  });
  const onPool = sqlOn(pool);

  /** `work` in a transaction begun with `begin` on a client of the pool, rolled back when it throws. */
  async function onClient<T>(begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(begin);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async function transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await onClient('BEGIN ISOLATION LEVEL SERIALIZABLE', (client) => work(sqlOn(client)));
      } catch (error) {
        if (!(error instanceof pg.DatabaseError && RETRYABLE.has(error.code ?? '')) || Date.now() - started > RETRY_FOR_MS) throw error;
        await new Promise((resolve) => setTimeout(resolve, retryWaitMs(attempt)));
      }
    }
  }

  const snapshot = <T>(work: (tx: Sql) => Promise<T>) => onClient('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', (client) => work(sqlOn(client)));

  const within = <T>(work: (conn: PostgresConnection) => Promise<T>) =>
    onClient('BEGIN ISOLATION LEVEL SERIALIZABLE', async (client) => {
      const pinned = connectionOn(client, sqlOn(client), pool);
      try {
        return await work(pinned.conn);
      } finally {
        // Before COMMIT or ROLLBACK, and before the client goes back to the pool.
        await pinned.end();
      }
    });

  return {
    pool,
    ...onPool,
    transaction,
    snapshot,
    page: (select, idColumn, where, req, map) => keysetPage(onPool, select, idColumn, where, req, map),
    within,
    close: () => pool.end(),
  };
}

async function keysetPage<T>(sql: Sql, select: string, idColumn: string, where: Where, req: PageRequest, map: (r: RawRow) => T): Promise<Page<T>> {
  where.add(`${idColumn} > ?`, req.afterId ?? 0);
  const rows = await sql.raw(`${select} WHERE ${where} ORDER BY ${idColumn} LIMIT ?`, ...where.params, req.limit + 1);
  const hasMore = rows.length > req.limit;
  return { items: (hasMore ? rows.slice(0, req.limit) : rows).map(map), hasMore };
}

/**
 * The PostgresConnection of `within`: every query on `client`, already inside a transaction, one
 * call at a time (pg refuses a query sent while another runs on the client). A `transaction` is a
 * savepoint: its work goes straight to the client, and the others wait until it ends. A query from
 * outside it that was sent meanwhile would run inside the savepoint; there is none in the store,
 * whose transactions use only the `tx` they are handed. `end` waits for the calls under way (work
 * that returned without awaiting a write still has it committed) and refuses any later one, which
 * would otherwise run outside the transaction, on a client back in the pool.
 */
function connectionOn(client: pg.PoolClient, sql: Sql, pool: pg.Pool): { conn: PostgresConnection; end(): Promise<void> } {
  let turn: Promise<unknown> = Promise.resolve();
  let ended = false;
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    if (ended) return Promise.reject(new Error('the transaction this connection belonged to has ended'));
    const result = turn.then(work);
    turn = result.catch(() => undefined);
    return result;
  };
  const inSavepoint = <T>(work: (tx: Sql) => Promise<T>) =>
    inTurn(async () => {
      await client.query('SAVEPOINT svc_within');
      try {
        const result = await work(sql);
        await client.query('RELEASE SAVEPOINT svc_within');
        return result;
      } catch (error) {
        await client.query('ROLLBACK TO SAVEPOINT svc_within');
        await client.query('RELEASE SAVEPOINT svc_within');
        throw error;
      }
    });
  const conn: PostgresConnection = {
    pool,
    all: (text, ...params) => inTurn(() => sql.all(text, ...params)),
    first: (text, ...params) => inTurn(() => sql.first(text, ...params)),
    raw: (text, ...params) => inTurn(() => sql.raw(text, ...params)),
    firstRaw: (text, ...params) => inTurn(() => sql.firstRaw(text, ...params)),
    run: (text, ...params) => inTurn(() => sql.run(text, ...params)),
    copy: (into, rows) => inTurn(() => sql.copy(into, rows)),
    transaction: inSavepoint,
    snapshot: (work) => inTurn(() => work(sql)),
    page: (select, idColumn, where, req, map) => inTurn(() => keysetPage(sql, select, idColumn, where, req, map)),
    within: (work) => work(conn),
    // The client goes back to the pool when `within` ends.
    close: async () => undefined,
  };
  return {
    conn,
    async end() {
      ended = true;
      await turn;
    },
  };
}

/**
 * Inserts every row in one transaction, answering the new ids in input order (`insert` answers
 * a row's id). On a broken rule it rolls back and throws the store error: a ConflictError for a
 * unique value, else what `missing` finds wrong with the failing row (queried only then, after
 * the rollback, so it sees the data as it is).
 */
export async function insertAll<T>(
  conn: PostgresConnection,
  rows: readonly T[],
  insert: (tx: Sql, row: T) => Promise<number>,
  missing: (row: T) => Promise<MissingReferenceError | undefined>,
): Promise<number[]> {
  let current = 0;
  try {
    return await conn.transaction(async (tx) => {
      const ids = new Array<number>(rows.length);
      for (current = 0; current < rows.length; current++) ids[current] = await insert(tx, rows[current]!);
      return ids;
    });
  } catch (error) {
    const conflict = conflictFrom(error);
    if (conflict) throw conflict;
    if (isConstraintViolation(error) && current < rows.length) {
      const reference = await missing(rows[current]!);
      if (reference) throw reference;
    }
    throw error;
  }
}

/**
 * Inserts many rows into `into` (`t (a, b)`), each row's values in that order, in the caller's
 * transaction: one COPY … FROM STDIN per ROWS_PER_STATEMENT. COPY costs the server about half of
 * what an INSERT … SELECT FROM unnest(…) of the same rows did (no arrays to parse and unpack),
 * and the client less than building the arrays.
 */
export const ROWS_PER_STATEMENT = 5000;
export async function insertRows(tx: Pick<Sql, 'copy'>, into: string, rows: ReadonlyArray<readonly Param[]>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) await tx.copy(into, rows.slice(start, start + ROWS_PER_STATEMENT));
}

/**
 * insertRows for a statement COPY cannot make: rows that go through `onConflict` (`ON CONFLICT
 * …`). One INSERT … SELECT FROM unnest(…) per ROWS_PER_STATEMENT, each column one array of its
 * PostgreSQL type (`columnTypes`: `bigint`, `text`, …).
 */
export async function upsertRows(
  tx: Pick<Sql, 'run'>,
  into: string,
  columnTypes: readonly string[],
  rows: ReadonlyArray<readonly Param[]>,
  onConflict: string,
): Promise<void> {
  const insert = `INSERT INTO ${into} SELECT * FROM unnest(${columnTypes.map((type) => `?::${type}[]`).join(', ')}) ${onConflict}`;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    await tx.run(insert, ...columnTypes.map((_, c) => chunk.map((row) => row[c]!) as Param));
  }
}

/** COPY's text format: `\N` for null, a backslash before a backslash, tab, newline or carriage return. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
function copyText(value: Param | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return COPY_SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot COPY the number ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // bytea's hex form (`\x0a1b…`), its backslash doubled as COPY's text format wants it (a picture's bytes, `svc db copy`).
  if (value instanceof Uint8Array) return `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  throw new TypeError('cannot COPY an array value');
}

export async function copyRows(client: pg.ClientBase, into: string, rows: ReadonlyArray<readonly Param[]>): Promise<void> {
  let text = '';
  for (const row of rows) {
    for (let c = 0; c < row.length; c++) text += (c === 0 ? '' : '\t') + copyText(row[c]);
    text += '\n';
  }
  const stream = client.query(copyFrom(`COPY ${into} FROM STDIN`));
  stream.end(text);
  await finished(stream);
}

/**
 * Writes a batch with `write` (COPY statements, see insertRows) in one transaction. On a
 * broken rule it rolls back and writes the rows one at a time with insertAll instead, in one
 * transaction too: that throws the store error of the first row the one-row method would reject
 * (and, should every row pass after all, writes them as the one-row method would). As the SQLite
 * store's insertBatch does: the fast path for the demo seed's batches, the exact error for a bad row.
 */
export async function insertBatch<T>(
  conn: PostgresConnection,
  rows: readonly T[],
  write: (tx: Sql, rows: readonly T[]) => Promise<number[]>,
  insert: (tx: Sql, row: T) => Promise<number>,
  missing: (row: T) => Promise<MissingReferenceError | undefined>,
): Promise<number[]> {
  if (rows.length === 0) return [];
  try {
    return await conn.transaction((tx) => write(tx, rows));
  } catch (error) {
    if (!isConstraintViolation(error)) throw error;
    return insertAll(conn, rows, insert, missing);
  }
}

/**
 * insertRows' `into` for rows with reserved ids (reserveIds), from a single-row INSERT both
 * stores run (`INSERT INTO t (a, b) VALUES (?, ?)`, or its head alone): `t (id, a, b)`.
 */
export function intoWithId(insert: string): string {
  const values = insert.indexOf(' VALUES');
  return (values < 0 ? insert : insert.slice(0, values)).replace(/^INSERT INTO /, '').replace('(', '(id, ');
}

/** Runs an INSERT with `RETURNING id` appended; answers the new row's id. */
export async function newId(sql: Sql, insert: string, ...values: Param[]): Promise<number> {
  return (await sql.first(`${insert} RETURNING id`, ...values))!.id as number;
}

/**
 * `count` new ids of `table`'s identity column, ascending, for rows a batch inserts with their
 * ids given (insertUnnest): the caller knows each row's id without relying on the order of
 * RETURNING, which PostgreSQL does not promise.
 */
export async function reserveIds(tx: Sql, table: string, count: number): Promise<number[]> {
  // The sequence is looked up once: written inside nextval(), pg_get_serial_sequence ran for every
  // id, a catalog search each time (29% of the server's time in a seed, by perf).
  const rows = await tx.raw(
    `WITH s AS MATERIALIZED (SELECT pg_get_serial_sequence('${table}', 'id')::regclass AS seq)
     SELECT nextval(s.seq) FROM s, generate_series(1, ?::integer)`,
    count,
  );
  return rows.map((r) => r[0] as number).sort((a, b) => a - b);
}

/** The MissingReferenceError for a site that does not exist; undefined when it does. */
export async function noSite(sql: Sql, siteId: number): Promise<MissingReferenceError | undefined> {
  return (await sql.first('SELECT 1 FROM sites WHERE id = ?', siteId))
    ? undefined
    : new MissingReferenceError('siteId', `site ${siteId} does not exist`);
}

/** The MissingReferenceError (naming `field`) for a row of `table` not in the site; undefined when it is. */
export async function noRow(sql: Sql, table: string, field: string, siteId: number, id: number): Promise<MissingReferenceError | undefined> {
  return (await sql.first(`SELECT 1 FROM ${table} WHERE site_id = ? AND id = ?`, siteId, id))
    ? undefined
    : new MissingReferenceError(field, `${field} ${id} does not exist in site ${siteId}`);
}
