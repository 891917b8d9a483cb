/**
 * The SQLite store (better-sqlite3). Schema and its versions: ./sqlite-migrations.
 * Same-site references are checked by composite foreign keys; only when an insert fails does a
 * follow-up query find which field was wrong. Batches run in one transaction each.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SiteMetrics } from '../../contract/admin';
import { ConflictError, MissingReferenceError } from './errors';
import type { Page, PageRequest, PlanFilter } from './queries';
import { migrate } from './sqlite-migrations';
import {
  type RawRow,
  type Row,
  type Value,
  EVENT_COLUMNS,
  MEMBER_COLUMNS,
  MEMBERSHIP_COLUMNS,
  PLAN_COLUMNS,
  VIEW_COLUMNS,
  UNIQUE_FIELDS,
  Where,
  apiKeyFrom,
  contentNodeFrom,
  eventFrom,
  isConstraint,
  memberFrom,
  membershipFrom,
  orNull,
  planFrom,
  siteFrom,
  viewFrom,
} from './sqlite-rows';
import type { Store } from './store';

export function openSqliteStore(path: string): Store {
  if (path !== '' && path !== ':memory:' && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 5000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 64 MiB page cache (default 2 MiB): index inserts in random key order, e.g. member e-mails
    // during a seed, ran ~1.8x faster with it in measurements.
    db.pragma('cache_size = -65536');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }

  const statements = new Map<string, Database.Statement>();
  const sql = (text: string): Database.Statement => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
  const first = (text: string, ...params: Value[]): Row | undefined => sql(text).get(...params) as Row | undefined;
  const exists = (table: string, siteId: number, id: number): boolean =>
    first(`SELECT 1 FROM ${table} WHERE site_id = ? AND id = ?`, siteId, id) !== undefined;
  const siteExists = (id: number): boolean => first('SELECT 1 FROM sites WHERE id = ?', id) !== undefined;

  /*
   * Aggregates over a whole site (site metrics, members per plan) take a few hundred ms at a
   * million members and block the event loop meanwhile. They are kept until the database
   * changes: through this connection (`writes`) or any other (`PRAGMA data_version`), so a
   * cached answer is always the answer the data gives now.
   */
  let writes = 0;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const aggregates = new Map<string, { version: string; value: unknown }>();
  function untilChanged<T>(key: string, compute: () => T): T {
    const version = `${dataVersion.get() as number}:${writes}`;
    const hit = aggregates.get(key);
    if (hit?.version === version) return hit.value as T;
    if (aggregates.size >= 1000) aggregates.clear();
    const value = compute();
    aggregates.set(key, { version, value });
    return value;
  }
  const write = (statement: Database.Statement, ...params: Value[]): Database.RunResult => {
    writes++;
    return statement.run(...params);
  };

  /** Raw-mode statements (rows as arrays), cached apart: `raw()` is a mode of the statement. */
  const rawStatements = new Map<string, Database.Statement>();
  const rawSql = (text: string): Database.Statement => {
    let statement = rawStatements.get(text);
    if (!statement) rawStatements.set(text, (statement = db.prepare(text).raw(true)));
    return statement;
  };
  const firstRaw = (text: string, ...params: Value[]) => rawSql(text).get(...params) as RawRow | undefined;

  /** A keyset page: fetches limit + 1 rows to learn whether more follow. */
  function page<T>(select: string, idColumn: string, where: Where, req: PageRequest, map: (r: RawRow) => T): Page<T> {
    where.add(`${idColumn} > ?`, req.afterId ?? 0);
    const rows = rawSql(`${select} WHERE ${where} ORDER BY ${idColumn} LIMIT ?`).all(...where.params, req.limit + 1) as RawRow[];
    const hasMore = rows.length > req.limit;
    return { items: (hasMore ? rows.slice(0, req.limit) : rows).map(map), hasMore };
  }

  /**
   * Inserts every row in one transaction, returning the new ids in input order. On a broken
   * rule it rolls back and throws the store error; `missing` names the bad reference of the
   * failing row (queried only then).
   */
  function insertAll<T>(
    rows: readonly T[],
    insert: (row: T) => Database.RunResult,
    missing: (row: T) => MissingReferenceError | undefined,
  ): number[] {
    let current = 0;
    const run = db.transaction(() => {
      const ids = new Array<number>(rows.length);
      for (current = 0; current < rows.length; current++) ids[current] = Number(insert(rows[current]!).lastInsertRowid);
      return ids;
    });
    try {
      writes++;
      return run();
    } catch (error) {
      if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
        const hit = UNIQUE_FIELDS.find(([column]) => error.message.includes(column));
        if (hit) throw new ConflictError(hit[1], `${hit[1]} is taken: ${error.message}`);
      }
      if (isConstraint(error, 'SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_NOTNULL')) {
        const reference = current < rows.length ? missing(rows[current]!) : undefined;
        if (reference) throw reference;
      }
      throw error;
    }
  }
  const noSite = (siteId: number) =>
    siteExists(siteId) ? undefined : new MissingReferenceError('siteId', `site ${siteId} does not exist`);
  const noRow = (table: string, field: string, siteId: number, id: number) =>
    exists(table, siteId, id) ? undefined : new MissingReferenceError(field, `${field} ${id} does not exist in site ${siteId}`);

  const insertMember = db.prepare(
    'INSERT INTO members (site_id, email, first_name, last_name, status, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertMembership = db.prepare(
    `INSERT INTO memberships (site_id, member_id, plan_id, type, status, created_at, expires_at, cancels_at,
       billing_period_end, payment_failure)
     VALUES (?, ?, ?, (SELECT type FROM plans WHERE id = ? AND site_id = ?), ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO member_events (site_id, member_id, event_type, details, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const insertView = db.prepare('INSERT INTO content_views (site_id, member_id, node_id, viewed_at) VALUES (?, ?, ?, ?)');

  const planWhere = (siteId: number, filter: PlanFilter) =>
    new Where('site_id', siteId)
      .eq('type', filter.type)
      .add(`status IN (${filter.statuses.map(() => '?').join(', ')})`, ...filter.statuses);
  const getSite = (id: number) => {
    const row = first('SELECT * FROM sites WHERE id = ?', id);
    return row && siteFrom(row);
  };

  return {
    async secret(name, create) {
      const found = first('SELECT value FROM secrets WHERE name = ?', name);
      if (found) return found.value as string;
      write(sql('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'), name, create());
      return first('SELECT value FROM secrets WHERE name = ?', name)!.value as string;
    },

    async createSite(s) {
      const [id] = insertAll(
        [s],
        (r) =>
          sql(`INSERT INTO sites (name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
            r.name, r.subdomain, r.domain, r.defaultCurrency, r.locale, r.adminApiEnabled ? 1 : 0, r.createdAt),
        () => undefined,
      );
      return getSite(id!)!;
    },
    getSite: async (id) => getSite(id),
    async getSiteBySubdomain(subdomain) {
      const row = first('SELECT * FROM sites WHERE subdomain = ?', subdomain);
      return row && siteFrom(row);
    },
    listSites: async () => (sql('SELECT * FROM sites ORDER BY id').all() as Row[]).map(siteFrom),
    async updateSite(id, patch) {
      const enabled = patch.adminApiEnabled === undefined ? null : patch.adminApiEnabled ? 1 : 0;
      write(sql('UPDATE sites SET admin_api_enabled = coalesce(?, admin_api_enabled) WHERE id = ?'), enabled, id);
      return getSite(id);
    },
    async siteMetrics(siteId): Promise<SiteMetrics> {
      const metrics = untilChanged(`metrics ${siteId}`, () => {
        const r = first(
          `SELECT count(*) AS active, coalesce(sum(free), 0) AS free, coalesce(sum(paid), 0) AS paid FROM (
             SELECT member_id, max(type = 'free') AS free, max(type <> 'free') AS paid FROM memberships
             WHERE site_id = ? AND status = 'active' GROUP BY member_id)`,
          siteId,
        )!;
        return { activeMemberCount: r.active as number, freeMemberCount: r.free as number, paidMemberCount: r.paid as number };
      });
      return { ...metrics };
    },

    async createPlan(p) {
      const terms = p.type === 'subscription' ? { billing: p.billing }
        : p.type === 'free' ? { expiration: p.expiration } : { expiration: p.expiration, billing: p.billing };
      const [id] = insertAll(
        [p],
        (r) =>
          sql(`INSERT INTO plans (site_id, public_id, name, description, status, is_public, color_code, content_url,
                 welcome_url, created_at, type, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
            r.siteId, r.publicId, r.name, orNull(r.description), r.status, r.isPublic ? 1 : 0, r.colorCode,
            orNull(r.contentUrl), orNull(r.welcomeUrl), r.createdAt, r.type, JSON.stringify(terms)),
        (r) => noSite(r.siteId),
      );
      return planFrom(firstRaw(`SELECT ${PLAN_COLUMNS} FROM plans WHERE id = ?`, id!)!);
    },
    async getPlan(siteId, id) {
      const row = firstRaw(`SELECT ${PLAN_COLUMNS} FROM plans WHERE site_id = ? AND id = ?`, siteId, id);
      return row && planFrom(row);
    },
    listPlans: async (siteId, filter, req) => page(`SELECT ${PLAN_COLUMNS} FROM plans`, 'id', planWhere(siteId, filter), req, planFrom),
    async countPlans(siteId, filter) {
      const where = planWhere(siteId, filter);
      return first(`SELECT count(*) AS n FROM plans WHERE ${where}`, ...where.params)!.n as number;
    },
    async planActiveMemberCounts(siteId, planIds) {
      const ids = JSON.stringify(planIds);
      const counts = untilChanged(`plan counts ${siteId} ${ids}`, () => {
        const rows = sql(
          `SELECT plan_id, count(DISTINCT member_id) AS n FROM memberships
           WHERE site_id = ? AND plan_id IN (SELECT value FROM json_each(?)) AND status = 'active' GROUP BY plan_id`,
        ).all(siteId, ids) as Row[];
        const found = new Map<number, number>(planIds.map((id) => [id, 0]));
        for (const r of rows) found.set(r.plan_id as number, r.n as number);
        return found;
      });
      return new Map(counts);
    },

    createMembers: async (members) =>
      insertAll(
        members,
        (m) => insertMember.run(m.siteId, m.email, orNull(m.firstName), orNull(m.lastName), m.status, m.createdAt),
        (m) => noSite(m.siteId),
      ),
    listMembers: async (siteId, f, req) =>
      page(
        `SELECT ${MEMBER_COLUMNS} FROM members`,
        'id',
        new Where('site_id', siteId).eq('email', f.email).eq('+first_name', f.firstName).eq('+last_name', f.lastName)
          .eq('+status', f.status).range('+created_at', f.created),
        req,
        memberFrom,
      ),

    createMemberships: async (memberships) =>
      insertAll(
        memberships,
        (m) =>
          insertMembership.run(
            m.siteId, m.memberId, m.planId, m.planId, m.siteId, m.status, m.createdAt, orNull(m.expiresAt),
            orNull(m.cancelsAt), orNull(m.billingPeriodEnd), m.paymentFailure ? 1 : 0),
        (m) => noRow('members', 'memberId', m.siteId, m.memberId) ?? noRow('plans', 'planId', m.siteId, m.planId),
      ),
    listMemberships: async (siteId, f, req) =>
      page(
        `SELECT ${MEMBERSHIP_COLUMNS} FROM memberships m JOIN plans p ON p.id = m.plan_id`,
        'm.id',
        new Where('m.site_id', siteId).eq('m.plan_id', f.planId).eq('m.member_id', f.memberId).eq('+m.status', f.status)
          .range('+m.created_at', f.created).range('+m.billing_period_end', f.billingPeriodEnd)
          .range('+m.expires_at', f.expires),
        req,
        membershipFrom,
      ),

    createMemberEvents: async (events) =>
      insertAll(
        events,
        (e) => insertEvent.run(e.siteId, e.memberId, e.eventType, JSON.stringify(e.details), e.createdAt),
        (e) => noRow('members', 'memberId', e.siteId, e.memberId),
      ),
    listMemberEvents: async (siteId, f, req) =>
      page(
        `SELECT ${EVENT_COLUMNS} FROM member_events`,
        'id',
        new Where('site_id', siteId).eq('member_id', f.memberId).range('+created_at', f.created),
        req,
        eventFrom,
      ),

    createContentSpace: async (space) =>
      insertAll(
        [space],
        (s) => sql('INSERT INTO content_spaces (site_id, name) VALUES (?, ?)').run(s.siteId, s.name),
        (s) => noSite(s.siteId),
      )[0]!,
    createContentNode: async (node) =>
      insertAll(
        [node],
        (n) =>
          sql('INSERT INTO content_nodes (site_id, space_id, name, type) VALUES (?, ?, ?, ?)').run(
            n.siteId, n.spaceId, n.name, n.type),
        (n) => noRow('content_spaces', 'spaceId', n.siteId, n.spaceId),
      )[0]!,
    listContentNodes: async (siteId) =>
      (sql('SELECT id, site_id, space_id, name, type FROM content_nodes WHERE site_id = ? ORDER BY id').all(siteId) as Row[])
        .map(contentNodeFrom),
    createContentViews: async (views) =>
      insertAll(
        views,
        (v) => insertView.run(v.siteId, v.memberId, v.nodeId, v.viewedAt),
        (v) => noRow('members', 'memberId', v.siteId, v.memberId) ?? noRow('content_nodes', 'nodeId', v.siteId, v.nodeId),
      ),
    listContentViews: async (siteId, f, req) =>
      page(
        `SELECT ${VIEW_COLUMNS}
         FROM content_views v JOIN content_nodes n ON n.id = v.node_id JOIN content_spaces s ON s.id = n.space_id`,
        'v.id',
        new Where('v.site_id', siteId).eq('v.member_id', f.memberId).eq('v.node_id', f.nodeId)
          .range('+v.viewed_at', f.viewed),
        req,
        viewFrom,
      ),

    async createApiKey(key) {
      const [id] = insertAll(
        [key],
        (k) =>
          sql('INSERT INTO api_keys (site_id, hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
            k.siteId, k.hash, JSON.stringify(k.scopes), k.createdAt, orNull(k.expiresAt)),
        (k) => noSite(k.siteId),
      );
      return apiKeyFrom(first('SELECT * FROM api_keys WHERE id = ?', id!)!);
    },
    async findApiKeyByHash(hash) {
      const row = first('SELECT * FROM api_keys WHERE hash = ?', hash);
      return row && apiKeyFrom(row);
    },
    revokeApiKey: async (hash, at) =>
      write(sql('UPDATE api_keys SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL'), at, hash).changes > 0,

    async close() {
      if (db.open) db.close();
    },
  };
}
