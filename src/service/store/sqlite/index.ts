/**
 * The SQLite store (better-sqlite3). Schema and its versions: ./migrations.
 * Same-site references are checked by composite foreign keys; only when an insert fails does a
 * follow-up query find which field was wrong. Batches run in one transaction each.
 */
import type { SiteMetrics } from '../../../contract/admin';
import type { PlanFilter } from '../queries';
import type { MembershipPatch, NewMemberEvent, NewMembership } from '../records';
import type { MembershipAnnouncement, Store } from '../store';
import { DUE_AT_ONCE, announcedAt, batchWanted, eventMessages } from '../webhook-announcing';
import { membershipMessage } from '../../webhooks/messages';
import { sqliteAccounts, sqliteEventWriter } from './accounts';
import { connect } from './connection';
import { sqliteLeases } from './leases';
import { sqliteLimits } from './limits';
import { sqliteMemberTokens } from './member-tokens';
import { sqliteOutbox } from './outbox';
import { sqlitePictures } from './pictures';
import { sqlitePayments } from './payments';
import { sqliteSiteDefinition } from './site-definition';
import { sqliteProcessorEvents } from './processor-events';
import { sqliteTestProcessor } from './test-processor';
import { sqliteAnnouncer, sqliteWebhooks } from './webhooks';
import { sqliteOwner } from './owner';
import {
  type RawRow,
  type Row,
  EVENT_COLUMNS,
  INSERT_MEMBERSHIP,
  INSERT_PLAN,
  MEMBER_COLUMNS,
  MEMBER_SUMMARY_COLUMNS,
  MEMBERSHIP_BY_ID,
  MEMBERSHIP_COLUMNS,
  NODE_COLUMNS,
  PLAN_COLUMNS,
  VIEW_COLUMNS,
  Where,
  apiKeyFrom,
  contentNodeFrom,
  eventFrom,
  memberFrom,
  memberSummaryFrom,
  memberWhere,
  membershipFrom,
  membershipPatchColumns,
  membershipValues,
  orNull,
  planFrom,
  planValues,
  siteFrom,
  viewFrom,
} from '../sql-rows';

export function openSqliteStore(path: string): Store {
  const conn = connect(path);
  const { db, sql, rawSql, first, firstRaw, untilChanged, definition, write, page, insertAll, noSite, noRow } = conn;

  const insertMembership = db.prepare(INSERT_MEMBERSHIP);
  const announcer = sqliteAnnouncer(conn);
  /**
   * One transaction for the update, the read after it and what it announces. Through `write`: a
   * status change moves the cached aggregates, so every membership update counts as a change to them.
   */
  const patchMembership = db.transaction((siteId: number, id: number, patch: MembershipPatch, announce?: MembershipAnnouncement) => {
    const columns = membershipPatchColumns(patch);
    if (columns.length > 0) {
      write(
        sql(`UPDATE memberships SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE site_id = ? AND id = ?`),
        ...columns.map(([, v]) => v), siteId, id);
    }
    const row = firstRaw(MEMBERSHIP_BY_ID, siteId, id);
    const membership = row && membershipFrom(row);
    if (membership && announce) {
      const hooks = announcer([siteId]);
      if (hooks.wants(siteId, announce)) hooks.write([membershipMessage(announce, membership, announcedAt())], DUE_AT_ONCE);
    }
    return membership;
  });
  const addMemberships = (memberships: readonly NewMembership[]) =>
    insertAll(
      memberships,
      (m) =>
        insertMembership.run(membershipValues(m)),
      (m) => noRow('members', 'memberId', m.siteId, m.memberId) ?? noRow('plans', 'planId', m.siteId, m.planId),
    );
  /** The batch and its `membership.created` messages in one transaction; the memberships are read back only when someone is told. */
  const createMemberships = db.transaction((memberships: readonly NewMembership[]) => {
    const ids = addMemberships(memberships);
    const hooks = announcer(memberships.map((m) => m.siteId));
    if (batchWanted(hooks, memberships, 'membership.created')) {
      const rows = rawSql(`SELECT ${MEMBERSHIP_COLUMNS} FROM memberships m JOIN plans p ON p.id = m.plan_id
        WHERE m.id IN (SELECT value FROM json_each(?)) ORDER BY m.id`).all(JSON.stringify(ids)) as RawRow[];
      hooks.write(rows.map(membershipFrom).map((m) => membershipMessage('membership.created', m, m.createdAt)));
    }
    return ids;
  });
  const writeEvents = sqliteEventWriter(conn);
  /** Conversions and abandoned ones announced with their events; the events sign-up and redemption write are not (./member-tokens). */
  const createMemberEvents = db.transaction((events: readonly NewMemberEvent[]) => {
    const ids = writeEvents(events);
    const hooks = announcer(events.map((e) => e.siteId));
    hooks.write(eventMessages(hooks, events, ids));
    return ids;
  });
  const insertView = db.prepare('INSERT INTO content_views (site_id, member_id, node_id, viewed_at) VALUES (?, ?, ?, ?)');

  const planWhere = (siteId: number, filter: PlanFilter) =>
    new Where('site_id', siteId)
      .eq('type', filter.type)
      .add(`status IN (${filter.statuses.map(() => '?').join(', ')})`, ...filter.statuses);
  const getSite = (id: number) =>
    definition(`site ${id}`, () => {
      const row = first('SELECT * FROM sites WHERE id = ?', id);
      return row && siteFrom(row);
    });

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
          sql(`INSERT INTO sites (name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at,
                 member_menu, after_registration, checkbox_labels, theme, mail)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
            r.name, r.subdomain, r.domain, r.defaultCurrency, r.locale, r.adminApiEnabled ? 1 : 0, r.createdAt,
            r.memberMenu ? 1 : 0, r.afterRegistration ? JSON.stringify(r.afterRegistration) : null,
            r.checkboxLabels ? JSON.stringify(r.checkboxLabels) : null, r.theme ? JSON.stringify(r.theme) : null,
            r.mail ? JSON.stringify(r.mail) : null),
        () => undefined,
      );
      return getSite(id!)!;
    },
    getSite: async (id) => getSite(id),
    getSiteBySubdomain: async (subdomain) =>
      definition(`subdomain ${subdomain}`, () => {
        const row = first('SELECT * FROM sites WHERE subdomain = ?', subdomain);
        return row && siteFrom(row);
      }),
    listSites: async () => (sql('SELECT * FROM sites ORDER BY id').all() as Row[]).map(siteFrom),
    // updateSite, getSiteDefinition and applySiteChanges: a site's settings and its whole definition.
    ...sqliteSiteDefinition(conn),
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
      const [id] = insertAll([p], (r) => sql(INSERT_PLAN).run(...planValues(r.siteId, r)), (r) => noSite(r.siteId));
      return planFrom(firstRaw(`SELECT ${PLAN_COLUMNS} FROM plans WHERE id = ?`, id!)!);
    },
    getPlan: async (siteId, id) =>
      definition(`plan ${siteId} ${id}`, () => {
        const row = firstRaw(`SELECT ${PLAN_COLUMNS} FROM plans WHERE site_id = ? AND id = ?`, siteId, id);
        return row && planFrom(row);
      }),
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

    // Sign-up fields, members' accounts (createMembers and the reads of one member), sessions, metadata.
    ...sqliteAccounts(conn),
    ...sqlitePictures(conn),

    listMembers: async (siteId, f, req) => page(`SELECT ${MEMBER_COLUMNS} FROM members`, 'id', memberWhere(siteId, f), req, memberFrom),
    listMemberSummaries: async (siteId, f, req) =>
      page(`SELECT ${MEMBER_SUMMARY_COLUMNS} FROM members`, 'id', memberWhere(siteId, f), req, memberSummaryFrom),

    createMemberships: async (memberships) => createMemberships(memberships),
    async listMemberships(siteId, f, req) {
      const where = new Where('m.site_id', siteId).eq('m.plan_id', f.planId).eq('m.member_id', f.memberId).eq('+m.status', f.status)
        .range('+m.created_at', f.created).range('+m.billing_period_end', f.billingPeriodEnd)
        .range('+m.expires_at', f.expires).range('+m.cancels_at', f.cancels);
      // A primary-key look-up per membership the other conditions left (the due ones, a few).
      if (f.billable) where.add('EXISTS (SELECT 1 FROM members mb WHERE mb.id = m.member_id AND mb.processor_customer_id IS NOT NULL)');
      return page(`SELECT ${MEMBERSHIP_COLUMNS} FROM memberships m JOIN plans p ON p.id = m.plan_id`, 'm.id', where, req, membershipFrom);
    },
    updateMembership: async (siteId, id, patch, announce) => patchMembership.immediate(siteId, id, patch, announce),

    // Saved cards and the invoice ledger.
    ...sqlitePayments(conn),
    ...sqliteTestProcessor(conn),
    ...sqliteProcessorEvents(conn),
    ...sqliteOutbox(conn),
    ...sqliteMemberTokens(conn),
    // Webhook endpoints and their deliveries (issue 31).
    ...sqliteWebhooks(conn),
    // What the owner's actions read and write (issue 32).
    ...sqliteOwner(conn),

    createMemberEvents: async (events) => createMemberEvents(events),
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
        (s) => {
          const inserted = sql('INSERT INTO content_spaces (site_id, name) VALUES (?, ?)').run(s.siteId, s.name);
          const link = sql('INSERT OR IGNORE INTO content_space_plans (site_id, space_id, plan_id) VALUES (?, ?, ?)');
          for (const planId of s.planIds ?? []) link.run(s.siteId, inserted.lastInsertRowid, planId);
          return inserted;
        },
        (s) => noSite(s.siteId) ?? (s.planIds ?? []).map((id) => noRow('plans', 'planIds', s.siteId, id)).find(Boolean),
      )[0]!,
    createContentNode: async (node) =>
      insertAll(
        [node],
        (n) =>
          sql('INSERT INTO content_nodes (site_id, key, space_id, name, type, url, body) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
            n.siteId, orNull(n.key), n.spaceId, n.name, n.type, n.url ?? null, n.body ?? null),
        (n) => noRow('content_spaces', 'spaceId', n.siteId, n.spaceId),
      )[0]!,
    listContentNodes: async (siteId) =>
      (sql(`SELECT ${NODE_COLUMNS} FROM content_nodes WHERE site_id = ? AND archived_at IS NULL
         AND space_id IN (SELECT id FROM content_spaces WHERE site_id = ? AND archived_at IS NULL) ORDER BY id`).all(siteId, siteId) as Row[])
        .map(contentNodeFrom),
    async getContentItem(siteId, nodeId) {
      const row = first(
        `SELECT ${NODE_COLUMNS}, (SELECT name FROM content_spaces s WHERE s.id = space_id AND s.archived_at IS NULL) AS space_name
         FROM content_nodes WHERE site_id = ? AND id = ? AND archived_at IS NULL`,
        siteId,
        nodeId,
      );
      // An archived item, or one in an archived space, cannot be opened.
      if (!row || row.space_name === null) return undefined;
      const plans = sql('SELECT plan_id FROM content_space_plans WHERE site_id = ? AND space_id = ? ORDER BY plan_id')
        .all(siteId, row.space_id) as Row[];
      return {
        ...contentNodeFrom(row),
        space: { id: row.space_id as number, name: row.space_name as string },
        planIds: plans.map((p) => p.plan_id as number),
      };
    },
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
    findApiKeyByHash: async (hash) =>
      definition(`key ${hash}`, () => {
        const row = first('SELECT * FROM api_keys WHERE hash = ?', hash);
        return row && apiKeyFrom(row);
      }),
    revokeApiKey: async (hash, at) =>
      write(sql('UPDATE api_keys SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL'), at, hash).changes > 0,

    // Rate cells, throttled checks and leases: state every process must share (issue 16).
    ...sqliteLimits(conn),
    ...sqliteLeases(conn),

    // Nothing to gain: its batch methods already write many rows per statement, in one transaction each.
    bulkLoad(work) {
      return work(this);
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
