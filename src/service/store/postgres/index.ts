/**
 * The PostgreSQL store (`pg`). Schema and its versions: ./migrations; the pooled connection,
 * transactions and error mapping: ./connection. One schema with the SQLite store, so both read
 * rows with ../sql-rows. Same-site references are checked by composite foreign keys; only when
 * an insert fails does a follow-up query find which field was wrong.
 *
 * Unlike SQLite's, the aggregates (siteMetrics, planActiveMemberCounts) are not cached: nothing
 * cheap tells one process that another changed the data, and a query here waits on the server,
 * not on the event loop.
 */
import type { NewContentView, NewMemberEvent, NewMembership } from '../records';
import { membershipMessage } from '../../webhooks/messages';
import { DUE_AT_ONCE, announcedAt, batchWanted, eventMessages } from '../webhook-announcing';
import { bulkLoadOn } from './bulk-load';
import {
  type Param,
  type PostgresConnection,
  type Sql,
  connectPostgres,
  intoWithId,
  insertAll,
  insertBatch,
  insertRows,
  newId,
  noRow,
  noSite,
  reserveIds,
} from './connection';
import { postgresAccounts, postgresEventWriter } from './accounts';
import { postgresLeases, postgresLimits } from './limits';
import { postgresMemberTokens } from './member-tokens';
import { postgresOutbox } from './outbox';
import { postgresPictures } from './pictures';
import { postgresPayments } from './payments';
import { postgresSiteDefinition } from './site-definition';
import { postgresProcessorEvents } from './processor-events';
import { postgresTestProcessor } from './test-processor';
import { postgresAnnouncer, postgresWebhooks } from './webhooks';
import { postgresOwner } from './owner';
import { listenForDefinitionChanges, type SharedDefinitionListener } from './definition-listener';
import { keepDefinitionReads } from './kept-definition';
import {
  EVENT_COLUMNS,
  INSERT_API_KEY,
  INSERT_CONTENT_NODE,
  INSERT_CONTENT_SPACE,
  INSERT_CONTENT_VIEW,
  INSERT_EVENT,
  INSERT_MEMBERSHIP,
  INSERT_PLAN,
  INSERT_SITE,
  LIVE_CONTENT_NODES,
  MEMBER_COLUMNS,
  MEMBER_SUMMARY_COLUMNS,
  MEMBERSHIP_BY_ID,
  MEMBERSHIP_COLUMNS,
  MEMBERSHIPS_FROM,
  NODE_COLUMNS,
  PLAN_COLUMNS,
  VIEW_COLUMNS,
  VIEWS_FROM,
  apiKeyFrom,
  apiKeyValues,
  contentNodeFrom,
  contentNodeValues,
  contentViewValues,
  eventFrom,
  eventValues,
  eventWhere,
  memberFrom,
  memberSummaryFrom,
  memberWhere,
  membershipFrom,
  membershipPatchColumns,
  membershipValues,
  membershipWhere,
  planFrom,
  planValues,
  planWhere,
  siteFrom,
  siteValues,
  viewFrom,
  viewWhere,
} from '../sql-rows';
import type { Store } from '../store';

/*
 * A membership batch's columns: ids given (reserved up front, so the answer is in input order).
 * The type, which the one-row statement copies from the plan with a subquery, is looked up first
 * (planTypes).
 */
const MEMBERSHIP_BATCH_INTO = `memberships (id, site_id, member_id, plan_id, type, status, created_at, expires_at, cancels_at,
  billing_period_end, payment_failure, payments_made, comp)`;

/** The plans' types by `site:plan`, for a membership batch: its rows copy their plan's type. */
async function planTypes(tx: Sql, memberships: readonly NewMembership[]): Promise<Map<string, string>> {
  const ids = [...new Set(memberships.map((m) => m.planId))];
  const rows = await tx.all('SELECT site_id, id, type FROM plans WHERE id = ANY(?::bigint[])', ids);
  return new Map(rows.map((r) => [`${r.site_id as number}:${r.id as number}`, r.type as string]));
}

/*
 * The batch writers (insertBatch's fast path): ids reserved, then COPY statements, in the
 * caller's transaction; the ids answer in input order.
 */
async function writeMemberships(tx: Sql, rows: readonly NewMembership[]): Promise<number[]> {
  const ids = await reserveIds(tx, 'memberships', rows.length);
  const types = await planTypes(tx, rows);
  await insertRows(tx, MEMBERSHIP_BATCH_INTO, rows.map((m, i): Param[] => {
    // The one-row statement's values less the two its type look-up takes (plan and site again).
    const [siteId, memberId, planId, , , ...rest] = membershipValues(m);
    return [ids[i]!, siteId!, memberId!, planId!, types.get(`${m.siteId}:${m.planId}`) ?? null, ...rest];
  }));
  return ids;
}

/** `membership.created` for the memberships a write added, in its transaction: read back only when someone is told. */
async function announceMemberships(tx: Sql, rows: readonly NewMembership[], ids: readonly number[]): Promise<void> {
  const hooks = await postgresAnnouncer(tx, rows.map((m) => m.siteId));
  if (!batchWanted(hooks, rows, 'membership.created')) return;
  const written = (await tx.raw(`SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS_FROM} WHERE m.id = ANY(?::bigint[]) ORDER BY m.id`, ids)).map(membershipFrom);
  await hooks.write(written.map((m) => membershipMessage('membership.created', m, m.createdAt)));
}
/** Conversions and abandoned ones, announced with their events (not the events sign-up and redemption write: ./member-tokens). */
async function announceEvents(tx: Sql, rows: readonly NewMemberEvent[], ids: readonly number[]): Promise<void> {
  const hooks = await postgresAnnouncer(tx, rows.map((e) => e.siteId));
  await hooks.write(eventMessages(hooks, rows, ids));
}
/** A batch writer (or a one-row insert) followed by what it announces, in the same transaction. */
const announcing = <T>(announce: (tx: Sql, rows: readonly T[], ids: readonly number[]) => Promise<void>) => ({
  batch: (write: (tx: Sql, rows: readonly T[]) => Promise<number[]>) => async (tx: Sql, rows: readonly T[]) => {
    const ids = await write(tx, rows);
    await announce(tx, rows, ids);
    return ids;
  },
  row: (insert: (tx: Sql, row: T) => Promise<number>) => async (tx: Sql, row: T) => {
    const id = await insert(tx, row);
    await announce(tx, [row], [id]);
    return id;
  },
});
const membershipsAnnounced = announcing(announceMemberships);
const eventsAnnounced = announcing(announceEvents);

async function writeViews(tx: Sql, rows: readonly NewContentView[]): Promise<number[]> {
  const ids = await reserveIds(tx, 'content_views', rows.length);
  await insertRows(tx, intoWithId(INSERT_CONTENT_VIEW), rows.map((v, i) => [ids[i]!, ...contentViewValues(v)]));
  return ids;
}

export async function openPostgresStore(url: string, options: { max?: number } = {}): Promise<Store> {
  return keepDefinitionReads(postgresStoreOn(await connectPostgres(url, options)), (changed) => listenForDefinitionChanges(url, changed));
}

/**
 * The store over a pool opened already by connectPostgres and a shared definition listener,
 * which closing the store leaves open. The test suites keep one pool and one listener a schema
 * for the hundreds of stores they open on it one after another (a new pool's first connection
 * and migration check are about 19 ms a store, a listener's connection about 28 ms).
 */
export function openPostgresStoreOver(conn: PostgresConnection, listener: SharedDefinitionListener): Promise<Store> {
  return keepDefinitionReads(postgresStoreOn({ ...conn, close: async () => undefined }), async (changed) => listener.subscribe(changed));
}

/** The store over a connection: the pool, or one transaction of it in a bulk load (./bulk-load). */
function postgresStoreOn(conn: PostgresConnection): Store {
  const { page } = conn;
  let closing: Promise<void> | undefined;
  const getSite = async (id: number) => {
    const row = await conn.first('SELECT * FROM sites WHERE id = ?', id);
    return row && siteFrom(row);
  };

  return {
    async secret(name, create) {
      const found = await conn.first('SELECT value FROM secrets WHERE name = ?', name);
      if (found) return found.value as string;
      // Two processes creating it at once: the first insert wins and both read the winner.
      await conn.run('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', name, create());
      return (await conn.first('SELECT value FROM secrets WHERE name = ?', name))!.value as string;
    },

    async createSite(s) {
      const [id] = await insertAll(conn, [s], (tx, r) => newId(tx, INSERT_SITE, ...siteValues(r)), async () => undefined);
      return (await getSite(id!))!;
    },
    getSite,
    async getSiteBySubdomain(subdomain) {
      const row = await conn.first('SELECT * FROM sites WHERE subdomain = ?', subdomain);
      return row && siteFrom(row);
    },
    listSites: async () => (await conn.all('SELECT * FROM sites ORDER BY id')).map(siteFrom),
    // updateSite, getSiteDefinition and applySiteChanges: a site's settings and its whole definition.
    ...postgresSiteDefinition(conn),
    async siteMetrics(siteId) {
      // From the covering index memberships_site_status_member, grouped by member.
      const r = (await conn.first(
        `SELECT count(*) AS active, coalesce(sum(free), 0) AS free, coalesce(sum(paid), 0) AS paid FROM (
           SELECT max((type = 'free')::integer) AS free, max((type <> 'free')::integer) AS paid FROM memberships
           WHERE site_id = ? AND status = 'active' GROUP BY member_id) AS per_member`,
        siteId,
      ))!;
      return { activeMemberCount: r.active as number, freeMemberCount: r.free as number, paidMemberCount: r.paid as number };
    },

    async createPlan(p) {
      const [id] = await insertAll(conn, [p], (tx, r) => newId(tx, INSERT_PLAN, ...planValues(r.siteId, r)), (r) => noSite(conn, r.siteId));
      return planFrom((await conn.firstRaw(`SELECT ${PLAN_COLUMNS} FROM plans WHERE id = ?`, id!))!);
    },
    async getPlan(siteId, id) {
      const row = await conn.firstRaw(`SELECT ${PLAN_COLUMNS} FROM plans WHERE site_id = ? AND id = ?`, siteId, id);
      return row && planFrom(row);
    },
    listPlans: (siteId, filter, req) => page(`SELECT ${PLAN_COLUMNS} FROM plans`, 'id', planWhere(siteId, filter), req, planFrom),
    async countPlans(siteId, filter) {
      const where = planWhere(siteId, filter);
      return (await conn.first(`SELECT count(*) AS n FROM plans WHERE ${where}`, ...where.params))!.n as number;
    },
    async planActiveMemberCounts(siteId, planIds) {
      const rows = await conn.all(
        `SELECT plan_id, count(DISTINCT member_id) AS n FROM memberships
         WHERE site_id = ? AND plan_id = ANY(?::bigint[]) AND status = 'active' GROUP BY plan_id`,
        siteId, planIds,
      );
      const counts = new Map<number, number>(planIds.map((id) => [id, 0]));
      for (const r of rows) counts.set(r.plan_id as number, r.n as number);
      return counts;
    },

    // Sign-up fields, members' accounts (createMembers and the reads of one member), sessions, metadata.
    ...postgresAccounts(conn),
    ...postgresPictures(conn),
    listMembers: (siteId, f, req) => page(`SELECT ${MEMBER_COLUMNS} FROM members`, 'id', memberWhere(siteId, f), req, memberFrom),
    listMemberSummaries: (siteId, f, req) =>
      page(`SELECT ${MEMBER_SUMMARY_COLUMNS} FROM members`, 'id', memberWhere(siteId, f), req, memberSummaryFrom),

    createMemberships: (memberships) =>
      insertBatch(conn, memberships, membershipsAnnounced.batch(writeMemberships),
        membershipsAnnounced.row((tx, m) => newId(tx, INSERT_MEMBERSHIP, ...membershipValues(m))),
        async (m) => (await noRow(conn, 'members', 'memberId', m.siteId, m.memberId)) ?? noRow(conn, 'plans', 'planId', m.siteId, m.planId)),
    listMemberships: (siteId, f, req) =>
      page(`SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS_FROM}`, 'm.id', membershipWhere(siteId, f), req, membershipFrom),
    async updateMembership(siteId, id, patch, announce) {
      const columns = membershipPatchColumns(patch);
      // One statement for the change and the row after it: nothing comes between them.
      const change = (sql: Sql) => columns.length === 0
        ? sql.firstRaw(MEMBERSHIP_BY_ID, siteId, id)
        : sql.firstRaw(
          // The row after reads the plan it is on after the change (RETURNING's join sees the old plan_id).
          `UPDATE memberships m SET ${columns.map(([c]) => `${c} = ?`).join(', ')} FROM plans p
           WHERE p.id = coalesce(?::bigint, m.plan_id) AND m.site_id = ? AND m.id = ? RETURNING ${MEMBERSHIP_COLUMNS}`,
          ...columns.map(([, v]) => v), patch.planId ?? null, siteId, id);
      if (!announce) {
        const row = await change(conn);
        return row && membershipFrom(row);
      }
      // A change that announces itself: the statement and its message in one transaction.
      return conn.transaction(async (tx) => {
        const row = await change(tx);
        const membership = row && membershipFrom(row);
        const hooks = await postgresAnnouncer(tx, [siteId]);
        if (membership && hooks.wants(siteId, announce)) await hooks.write([membershipMessage(announce, membership, announcedAt())], DUE_AT_ONCE);
        return membership;
      });
    },

    // Saved cards and the invoice ledger; the mail outbox; mailed tokens and what redeeming them writes.
    ...postgresPayments(conn),
    ...postgresTestProcessor(conn),
    ...postgresProcessorEvents(conn),
    ...postgresOutbox(conn),
    ...postgresMemberTokens(conn),
    // Webhook endpoints and their deliveries (issue 31).
    ...postgresWebhooks(conn),
    // What the owner's actions read and write (issue 32).
    ...postgresOwner(conn),

    createMemberEvents: (events) =>
      insertBatch(conn, events, eventsAnnounced.batch(postgresEventWriter), eventsAnnounced.row((tx, e) => newId(tx, INSERT_EVENT, ...eventValues(e))),
        (e) => noRow(conn, 'members', 'memberId', e.siteId, e.memberId)),
    listMemberEvents: (siteId, f, req) => page(`SELECT ${EVENT_COLUMNS} FROM member_events`, 'id', eventWhere(siteId, f), req, eventFrom),

    createContentSpace: async (space) =>
      (await insertAll(
        conn,
        [space],
        async (tx, s) => {
          const id = await newId(tx, INSERT_CONTENT_SPACE, s.siteId, s.name);
          await tx.run(
            `INSERT INTO content_space_plans (site_id, space_id, plan_id) SELECT ?::bigint, ?::bigint, unnest(?::bigint[])
             ON CONFLICT DO NOTHING`,
            s.siteId, id, s.planIds ?? []);
          return id;
        },
        async (s) => {
          let missing = await noSite(conn, s.siteId);
          for (const id of s.planIds ?? []) missing ??= await noRow(conn, 'plans', 'planIds', s.siteId, id);
          return missing;
        },
      ))[0]!,
    createContentNode: async (node) =>
      (await insertAll(conn, [node], (tx, n) => newId(tx, INSERT_CONTENT_NODE, ...contentNodeValues(n.siteId, n.spaceId, n)),
        (n) => noRow(conn, 'content_spaces', 'spaceId', n.siteId, n.spaceId)))[0]!,
    listContentNodes: async (siteId) => (await conn.all(LIVE_CONTENT_NODES, siteId, siteId)).map(contentNodeFrom),
    async getContentItem(siteId, nodeId) {
      // The item, its space if live and the space's plans in one statement: one moment.
      const row = await conn.first(
        `SELECT ${NODE_COLUMNS.split(', ').map((c) => `n.${c}`).join(', ')}, s.name AS space_name,
           ARRAY(SELECT plan_id FROM content_space_plans l WHERE l.site_id = n.site_id AND l.space_id = n.space_id ORDER BY plan_id)
             AS plan_ids
         FROM content_nodes n JOIN content_spaces s ON s.id = n.space_id AND s.archived_at IS NULL
         WHERE n.site_id = ? AND n.id = ? AND n.archived_at IS NULL`,
        siteId,
        nodeId,
      );
      // An archived item, or one in an archived space, cannot be opened.
      if (!row) return undefined;
      return {
        ...contentNodeFrom(row),
        space: { id: row.space_id as number, name: row.space_name as string },
        // bigint[] comes back as strings (only bigint itself is parsed as a number, ./connection).
        planIds: (row.plan_ids as string[]).map(Number),
      };
    },
    createContentViews: (views) =>
      insertBatch(conn, views, writeViews, (tx, v) => newId(tx, INSERT_CONTENT_VIEW, ...contentViewValues(v)),
        async (v) => (await noRow(conn, 'members', 'memberId', v.siteId, v.memberId)) ?? noRow(conn, 'content_nodes', 'nodeId', v.siteId, v.nodeId)),
    listContentViews: (siteId, f, req) => page(`SELECT ${VIEW_COLUMNS} FROM ${VIEWS_FROM}`, 'v.id', viewWhere(siteId, f), req, viewFrom),

    async createApiKey(key) {
      const [id] = await insertAll(conn, [key], (tx, k) => newId(tx, INSERT_API_KEY, ...apiKeyValues(k)), (k) => noSite(conn, k.siteId));
      return apiKeyFrom((await conn.first('SELECT * FROM api_keys WHERE id = ?', id!))!);
    },
    async findApiKeyByHash(hash) {
      const row = await conn.first('SELECT * FROM api_keys WHERE hash = ?', hash);
      return row && apiKeyFrom(row);
    },
    revokeApiKey: async (hash, at) => (await conn.run('UPDATE api_keys SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL', at, hash)) > 0,

    // Rate cells, throttled checks and leases: state every process must share (issue 16).
    ...postgresLimits(conn),
    ...postgresLeases(conn),

    bulkLoad: (work) => bulkLoadOn(conn, postgresStoreOn, work),

    // Safe to call twice, as SQLite's: the pool ends once.
    close: () => (closing ??= conn.close()),
  };
}
