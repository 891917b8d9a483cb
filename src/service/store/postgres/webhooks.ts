/**
 * The PostgreSQL store's webhook endpoints and outbox (issue 31; ../sqlite/webhooks ported).
 * Several processes send at once, so a claim is one statement on the pool at READ COMMITTED that
 * locks the deliveries it takes with `FOR UPDATE SKIP LOCKED`, as the mail outbox's does
 * (./outbox): a concurrent claim skips them instead of waiting, and one that reads a delivery
 * after the claim committed finds it no longer due (READ COMMITTED checks the row again once
 * locked). Only each endpoint's oldest pending delivery is claimable (../sql-webhooks' CLAIMABLE),
 * so two claims never send one endpoint two deliveries at once either. Finishing an attempt is a
 * SERIALIZABLE transaction that names the lease: a claim that took the delivery over meanwhile
 * makes it match nothing (or run again, and then match nothing).
 *
 * `postgresAnnouncer(tx, siteIds)` is what the store's other writes announce with, in their own
 * transaction (./member-tokens, ./accounts, ./payments, ./index). It lets PostgreSQL's errors through.
 */
import { memberFrom } from '../sql-rows';
import { ACCOUNT_READS } from '../sql-members';
import {
  CLAIMABLE, CLAIMED_COLUMNS, DELETE_OLD, DELIVERIES, ENDPOINT_COLUMNS, ENDPOINTS, INSERT_ATTEMPT, INSERT_DELIVERY, INSERT_ENDPOINT,
  INSERT_MESSAGE, attemptFrom, attemptValues, claimedFrom, deliveryFrom, deliveryPage, endpointFrom, endpointUpdate, endpointValues,
  finishedDelivery, messageValues, pageFrom, subscriberFrom,
} from '../sql-webhooks';
import { type Announcer, Subscribers, memberState } from '../webhook-announcing';
import type { WebhookMethods } from '../store';
import { type PostgresConnection, type Sql, insertAll, newId, noSite } from './connection';

/** An Announcer over the sites' enabled endpoints, read now, in the caller's transaction `tx`. */
export async function postgresAnnouncer(tx: Sql, siteIds: Iterable<number>): Promise<Announcer<Promise<number>>> {
  const found = [];
  for (const siteId of new Set(siteIds)) found.push(...(await tx.raw(ENDPOINTS.subscribers, siteId)).map(subscriberFrom));
  const subscribers = new Subscribers(found);
  return {
    wants: (siteId, type) => subscribers.wants(siteId, type),
    async write(messages, dueAt) {
      let made = 0;
      for (const message of messages) {
        const to = subscribers.endpointsFor(message);
        if (to.length === 0) continue;
        const id = await newId(tx, INSERT_MESSAGE, ...messageValues(message));
        for (const endpointId of to) await tx.run(INSERT_DELIVERY, message.siteId, id, endpointId, dueAt ?? message.createdAt, message.createdAt);
        made += to.length;
      }
      return made;
    },
  };
}

/** What `member.updated` compares (../webhook-announcing), read in `tx`; undefined without such a member. */
export async function postgresMemberState(tx: Sql, siteId: number, memberId: number): Promise<string | undefined> {
  const row = await tx.firstRaw(ACCOUNT_READS.member, siteId, memberId);
  if (!row) return undefined;
  const values = (await tx.all(ACCOUNT_READS.signupValues, siteId, memberId)).map((v) => ({ fieldId: v.field_id as number, value: JSON.parse(v.value as string) }));
  return memberState(memberFrom(row), values);
}

/**
 * On the pool, outside any transaction: one statement at READ COMMITTED, which is what makes
 * SKIP LOCKED a queue. Values: now, limit, the lease's end.
 */
const CLAIM = `WITH due AS (${CLAIMABLE} FOR UPDATE OF d SKIP LOCKED),
  claimed AS (UPDATE webhook_deliveries w SET next_attempt_at = ? FROM due WHERE w.id = due.id RETURNING w.*)
  SELECT ${CLAIMED_COLUMNS} FROM claimed d JOIN webhook_messages m ON m.id = d.message_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
  ORDER BY d.id`;

export function postgresWebhooks(conn: PostgresConnection): WebhookMethods {
  const endpointById = async (siteId: number, id: number) => {
    const row = await conn.firstRaw(ENDPOINTS.byId, siteId, id);
    return row && endpointFrom(row);
  };
  const deliveryById = async (sql: Sql, siteId: number, id: number) => {
    const row = await sql.firstRaw(DELIVERIES.byId, siteId, id);
    return row && deliveryFrom(row);
  };

  return {
    async createWebhookEndpoint(endpoint) {
      const [id] = await insertAll(conn, [endpoint], (tx, e) => newId(tx, INSERT_ENDPOINT, ...endpointValues(e)), (e) => noSite(conn, e.siteId));
      return (await endpointById(endpoint.siteId, id!))!;
    },
    getWebhookEndpoint: endpointById,
    listWebhookEndpoints: async (siteId) => (await conn.raw(ENDPOINTS.ofSite, siteId)).map(endpointFrom),
    async updateWebhookEndpoint(siteId, id, patch) {
      const update = endpointUpdate(siteId, id, patch);
      if (!update) return endpointById(siteId, id);
      // One statement for the change and the endpoint after it.
      const row = await conn.firstRaw(`${update.text} RETURNING ${ENDPOINT_COLUMNS}`, ...update.values);
      return row && endpointFrom(row);
    },
    // Its deliveries and their attempts go with it: the foreign keys cascade.
    deleteWebhookEndpoint: async (siteId, id) => (await conn.run(ENDPOINTS.delete, siteId, id)) > 0,

    queueWebhooks: (messages) => conn.transaction(async (tx) => (await postgresAnnouncer(tx, messages.map((m) => m.siteId))).write(messages)),

    async claimWebhookDeliveries(now, limit, leaseMs) {
      return (await conn.raw(CLAIM, now, limit, now + leaseMs)).map(claimedFrom);
    },

    finishWebhookAttempt: (id, leaseUntil, attempt, result) =>
      conn.transaction(async (tx) => {
        const { text, values } = finishedDelivery(id, leaseUntil, attempt, result);
        const matched = await tx.first(text, ...values);
        if (!matched) return false;
        await tx.run(INSERT_ATTEMPT, matched.site_id as number, id, ...attemptValues(attempt));
        const change = result.endpoint && endpointUpdate(matched.site_id as number, matched.endpoint_id as number, result.endpoint);
        if (change) await tx.run(change.text, ...change.values);
        return true;
      }),

    getWebhookDelivery: (siteId, id) => deliveryById(conn, siteId, id),
    async listWebhookDeliveries(siteId, filter, req) {
      const { text, values } = deliveryPage(siteId, filter, req);
      return pageFrom(await conn.raw(text, ...values), req.limit, deliveryFrom);
    },
    listWebhookAttempts: async (siteId, deliveryId) => (await conn.raw(DELIVERIES.attempts, siteId, deliveryId)).map(attemptFrom),

    replayWebhookDelivery: (siteId, id, now) =>
      conn.transaction(async (tx) => {
        const inserted = await tx.first(`${DELIVERIES.replay} RETURNING id`, now, now, siteId, id);
        return inserted && deliveryById(tx, siteId, inserted.id as number);
      }),

    // One transaction: a replay of a delivery being swept either comes first (and keeps its message) or finds it gone.
    deleteOldWebhookRecords: (before) =>
      conn.transaction(async (tx) =>
        (await tx.run(DELETE_OLD.attempts, before)) + (await tx.run(DELETE_OLD.deliveries, before)) +
        (await tx.run(DELETE_OLD.abandoned, before, before)) + (await tx.run(DELETE_OLD.messages))),
  };
}
