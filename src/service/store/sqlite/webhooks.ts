/**
 * The SQLite store's webhook endpoints and outbox (issue 31). A claim is one immediate
 * transaction, an UPDATE of the claimable deliveries (../sql-webhooks' CLAIMABLE) and a read of
 * what they carry: SQLite has one writer at a time, so two processes never claim one delivery.
 * The lease is `next_attempt_at` moved forward, and finishing an attempt names it, so a worker
 * whose lease lapsed records nothing.
 *
 * `sqliteAnnouncer(conn)(siteIds)` is what the store's other writes announce with, inside their
 * own transaction (./member-tokens, ./accounts, ./payments, ./index).
 */
import { memberFrom } from '../sql-rows';
import { ACCOUNT_READS } from '../sql-members';
import {
  CLAIMABLE, CLAIMED_COLUMNS, DELETE_OLD, DELIVERIES, ENDPOINTS, INSERT_ATTEMPT, INSERT_DELIVERY, INSERT_ENDPOINT,
  INSERT_MESSAGE, attemptFrom, attemptValues, claimedFrom, deliveryFrom, deliveryPage, endpointFrom, endpointUpdate, endpointValues,
  finishedDelivery, messageValues, pageFrom, subscriberFrom,
} from '../sql-webhooks';
import type { RawRow, Row } from '../sql-rows';
import { type Announcer, Subscribers, memberState } from '../webhook-announcing';
import type { WebhookMethods } from '../store';
import type { SqliteConnection } from './connection';

/**
 * An Announcer over the sites' enabled endpoints, read now, in the caller's transaction. Its rows
 * leave the kept aggregates (site metrics, members per plan) as they are, so they are written
 * without moving the connection's write count.
 */
export function sqliteAnnouncer({ sql, rawSql }: SqliteConnection): (siteIds: Iterable<number>) => Announcer {
  const subscribersOf = rawSql(ENDPOINTS.subscribers);
  const insertMessage = sql(INSERT_MESSAGE);
  const insertDelivery = sql(INSERT_DELIVERY);
  return (siteIds) => {
    const subscribers = new Subscribers([...new Set(siteIds)].flatMap((siteId) => (subscribersOf.all(siteId) as RawRow[]).map(subscriberFrom)));
    return {
      wants: (siteId, type) => subscribers.wants(siteId, type),
      write(messages, dueAt) {
        let made = 0;
        for (const message of messages) {
          const to = subscribers.endpointsFor(message);
          if (to.length === 0) continue;
          const id = Number(insertMessage.run(...messageValues(message)).lastInsertRowid);
          for (const endpointId of to) insertDelivery.run(message.siteId, id, endpointId, dueAt ?? message.createdAt, message.createdAt);
          made += to.length;
        }
        return made;
      },
    };
  };
}

/** What `member.updated` compares (../webhook-announcing), read in the caller's transaction; undefined without such a member. */
export function sqliteMemberState({ sql, firstRaw }: SqliteConnection): (siteId: number, memberId: number) => string | undefined {
  return (siteId, memberId) => {
    const row = firstRaw(ACCOUNT_READS.member, siteId, memberId);
    if (!row) return undefined;
    const values = (sql(ACCOUNT_READS.signupValues).all(siteId, memberId) as Row[]).map((v) => ({ fieldId: v.field_id as number, value: JSON.parse(v.value as string) }));
    return memberState(memberFrom(row), values);
  };
}

export function sqliteWebhooks(conn: SqliteConnection): WebhookMethods {
  const { db, sql, rawSql, firstRaw, insertAll, noSite } = conn;
  const announcer = sqliteAnnouncer(conn);
  const endpointById = (siteId: number, id: number) => {
    const row = firstRaw(ENDPOINTS.byId, siteId, id);
    return row && endpointFrom(row);
  };
  const deliveryById = (siteId: number, id: number) => {
    const row = firstRaw(DELIVERIES.byId, siteId, id);
    return row && deliveryFrom(row);
  };

  const queue = db.transaction((messages: Parameters<WebhookMethods['queueWebhooks']>[0]) =>
    announcer(messages.map((m) => m.siteId)).write(messages));

  const claim = db.transaction((now: number, limit: number, leaseMs: number) => {
    const ids = (rawSql(`UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id IN (${CLAIMABLE}) RETURNING id`)
      .all(now + leaseMs, now, limit) as RawRow[]).map((r) => r[0] as number);
    if (ids.length === 0) return [];
    return (rawSql(`SELECT ${CLAIMED_COLUMNS} FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
        JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id IN (SELECT value FROM json_each(?)) ORDER BY d.id`)
      .all(JSON.stringify(ids)) as RawRow[]).map(claimedFrom);
  });

  const finish = db.transaction((...[id, leaseUntil, attempt, result]: Parameters<WebhookMethods['finishWebhookAttempt']>) => {
    const { text, values } = finishedDelivery(id, leaseUntil, attempt, result);
    const matched = sql(text).get(...values) as Row | undefined;
    if (!matched) return false;
    sql(INSERT_ATTEMPT).run(matched.site_id, id, ...attemptValues(attempt));
    const change = result.endpoint && endpointUpdate(matched.site_id as number, matched.endpoint_id as number, result.endpoint);
    if (change) sql(change.text).run(...change.values);
    return true;
  });

  const replay = db.transaction((siteId: number, id: number, now: number) => {
    const inserted = sql(DELIVERIES.replay).run(now, now, siteId, id);
    return inserted.changes === 0 ? undefined : deliveryById(siteId, Number(inserted.lastInsertRowid));
  });

  const deleteOld = db.transaction((before: number) =>
    sql(DELETE_OLD.attempts).run(before).changes + sql(DELETE_OLD.deliveries).run(before).changes +
    sql(DELETE_OLD.abandoned).run(before, before).changes + sql(DELETE_OLD.messages).run().changes);

  return {
    async createWebhookEndpoint(endpoint) {
      const [id] = insertAll([endpoint], (e) => sql(INSERT_ENDPOINT).run(...endpointValues(e)), (e) => noSite(e.siteId));
      return endpointById(endpoint.siteId, id!)!;
    },
    getWebhookEndpoint: async (siteId, id) => endpointById(siteId, id),
    listWebhookEndpoints: async (siteId) => (rawSql(ENDPOINTS.ofSite).all(siteId) as RawRow[]).map(endpointFrom),
    async updateWebhookEndpoint(siteId, id, patch) {
      const update = endpointUpdate(siteId, id, patch);
      if (update) sql(update.text).run(...update.values);
      return endpointById(siteId, id);
    },
    // Its deliveries and their attempts go with it: the foreign keys cascade.
    deleteWebhookEndpoint: async (siteId, id) => sql(ENDPOINTS.delete).run(siteId, id).changes > 0,

    queueWebhooks: async (messages) => queue.immediate(messages),
    claimWebhookDeliveries: async (now, limit, leaseMs) => claim.immediate(now, limit, leaseMs),
    finishWebhookAttempt: async (id, leaseUntil, attempt, result) => finish.immediate(id, leaseUntil, attempt, result),

    getWebhookDelivery: async (siteId, id) => deliveryById(siteId, id),
    async listWebhookDeliveries(siteId, filter, req) {
      const { text, values } = deliveryPage(siteId, filter, req);
      return pageFrom(rawSql(text).all(...values) as RawRow[], req.limit, deliveryFrom);
    },
    listWebhookAttempts: async (siteId, deliveryId) => (rawSql(DELIVERIES.attempts).all(siteId, deliveryId) as RawRow[]).map(attemptFrom),
    replayWebhookDelivery: async (siteId, id, now) => replay.immediate(siteId, id, now),
    deleteOldWebhookRecords: async (before) => deleteOld.immediate(before),
  };
}
