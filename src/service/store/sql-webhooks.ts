/**
 * The webhooks' statements both SQL stores (./sqlite, ./postgres) run as they are (issue 31;
 * ./webhook-records), each with what lists its values, and the row mappers. How a claim takes
 * its deliveries is each store's own (SQLite has one writer; PostgreSQL skips locked rows), but
 * which deliveries are eligible is CLAIMABLE, here.
 */
import type { WebhookEventType } from '../../contract/webhooks';
import type { Page, PageRequest } from './queries';
import { type RawRow, type Row, type Value, json, opt, orNull } from './sql-rows';
import type { Subscriber } from './webhook-announcing';
import type {
  ClaimedWebhookDelivery,
  NewWebhookAttempt,
  NewWebhookEndpoint,
  NewWebhookMessage,
  WebhookAttemptRecord,
  WebhookAttemptResult,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookEndpointPatch,
  WebhookEndpointRecord,
} from './webhook-records';

// Endpoints.

const ENDPOINT_FIELDS = [
  'id', 'site_id', 'url', 'events', 'allow_private', 'secret', 'secret_env', 'source', 'created_at', 'previous_secret',
  'previous_secret_until', 'failing_since', 'disabled_at', 'disabled_reason',
];
export const ENDPOINT_COLUMNS = ENDPOINT_FIELDS.join(', ');
export function endpointFrom(r: RawRow): WebhookEndpointRecord {
  const endpoint: Row = { id: r[0], siteId: r[1], url: r[2], allowPrivate: r[4] === 1, source: r[7], createdAt: r[8] };
  if (r[3] !== null) endpoint.events = JSON.parse(r[3] as string);
  opt(endpoint, 'secret', r[5]);
  opt(endpoint, 'secretEnv', r[6]);
  opt(endpoint, 'previousSecret', r[9]);
  opt(endpoint, 'previousSecretUntil', r[10]);
  opt(endpoint, 'failingSince', r[11]);
  opt(endpoint, 'disabledAt', r[12]);
  opt(endpoint, 'disabledReason', r[13]);
  return endpoint as unknown as WebhookEndpointRecord;
}

export const INSERT_ENDPOINT = `INSERT INTO webhook_endpoints (site_id, url, events, allow_private, secret, secret_env, source, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
export const endpointValues = (e: NewWebhookEndpoint): Value[] => [
  e.siteId, e.url, json(e.events), e.allowPrivate ? 1 : 0, orNull(e.secret), orNull(e.secretEnv), e.source, e.createdAt,
];

export const ENDPOINTS = {
  /** Raw rows. Values: site id, id. */
  byId: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE site_id = ? AND id = ?`,
  /** Raw rows, in id order. Values: site id. */
  ofSite: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE site_id = ? ORDER BY id`,
  /** Its deliveries and their attempts go with it (the foreign keys cascade). Values: site id, id. */
  delete: 'DELETE FROM webhook_endpoints WHERE site_id = ? AND id = ?',
  /** The site's enabled endpoints as a write reads them (subscriberFrom). Values: site id. */
  subscribers: 'SELECT id, site_id, events FROM webhook_endpoints WHERE site_id = ? AND disabled_at IS NULL ORDER BY id',
} as const;
export const subscriberFrom = (r: RawRow): Subscriber => ({
  id: r[0] as number,
  siteId: r[1] as number,
  ...(r[2] !== null && { events: JSON.parse(r[2] as string) as WebhookEventType[] }),
});

/** What an attempt's result changes of the endpoint besides the patches an owner makes. */
type EndpointChange = WebhookEndpointPatch & { failingSince?: number | null };

/** The UPDATE of the endpoint's columns a patch sets (`null` clears), with its values; undefined when it sets none. */
export function endpointUpdate(siteId: number, id: number, patch: EndpointChange): { text: string; values: Value[] } | undefined {
  const columns: Array<[string, Value]> = [];
  const set = (column: string, value: Value | undefined) => value !== undefined && columns.push([column, value]);
  set('url', patch.url);
  if (patch.events !== undefined) columns.push(['events', json(patch.events)]);
  if (patch.allowPrivate !== undefined) columns.push(['allow_private', patch.allowPrivate ? 1 : 0]);
  set('secret', patch.secret);
  set('secret_env', patch.secretEnv);
  set('previous_secret', patch.previousSecret);
  set('previous_secret_until', patch.previousSecretUntil);
  set('failing_since', patch.failingSince);
  set('disabled_at', patch.disabledAt);
  set('disabled_reason', patch.disabledReason);
  if (columns.length === 0) return undefined;
  return {
    text: `UPDATE webhook_endpoints SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE site_id = ? AND id = ?`,
    values: [...columns.map(([, v]) => v), siteId, id],
  };
}

// Messages and their deliveries, written by the announcing writes.

/** Values: messageValues. A store appends `RETURNING id` or reads the rowid. */
export const INSERT_MESSAGE = 'INSERT INTO webhook_messages (site_id, public_id, type, body, created_at) VALUES (?, ?, ?, ?, ?)';
export const messageValues = (m: NewWebhookMessage): Value[] => [m.siteId, m.publicId, m.type, m.body, m.createdAt];

/** A new message's pending delivery to one endpoint. Values: site id, message id, endpoint id, due at, created at (the message's). */
export const INSERT_DELIVERY = `INSERT INTO webhook_deliveries (site_id, message_id, endpoint_id, status, attempts, next_attempt_at, created_at)
  VALUES (?, ?, ?, 'pending', 0, ?, ?)`;

// Deliveries as they are read.

/** A delivery with its message's public id and type: what DELIVERY_COLUMNS reads. */
export const DELIVERIES_FROM = 'webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id';
export const DELIVERY_COLUMNS =
  'd.id, d.site_id, d.endpoint_id, m.public_id, m.type, d.status, d.attempts, d.next_attempt_at, d.first_attempt_at, d.finished_at, ' +
  'd.replay_of, d.created_at';
export function deliveryFrom(r: RawRow): WebhookDeliveryRecord {
  const delivery: Row = {
    id: r[0], siteId: r[1], endpointId: r[2], messageId: r[3], type: r[4], status: r[5], attempts: r[6], nextAttemptAt: r[7],
    createdAt: r[11],
  };
  opt(delivery, 'firstAttemptAt', r[8]);
  opt(delivery, 'finishedAt', r[9]);
  opt(delivery, 'replayOf', r[10]);
  return delivery as unknown as WebhookDeliveryRecord;
}

/** A claimed delivery: the delivery's columns, the body, then its endpoint's (ENDPOINT_COLUMNS of `e`). */
export const CLAIMED_COLUMNS = `${DELIVERY_COLUMNS}, m.body, ${ENDPOINT_FIELDS.map((c) => `e.${c}`).join(', ')}`;
const DELIVERY_WIDTH = DELIVERY_COLUMNS.split(', ').length;
export function claimedFrom(r: RawRow): ClaimedWebhookDelivery {
  const delivery = deliveryFrom(r);
  return { ...delivery, body: r[DELIVERY_WIDTH] as string, endpoint: endpointFrom(r.slice(DELIVERY_WIDTH + 1)), leaseUntil: delivery.nextAttemptAt };
}

/**
 * The deliveries a claim may take at `now`: of each enabled endpoint its oldest pending delivery
 * (the partial index webhook_deliveries_pending finds it), when it is due; the longest waiting
 * first. An endpoint's next delivery is never eligible while an earlier one is pending, so one
 * endpoint has at most one in flight and gets them in order. `d.status` is repeated outside the
 * subquery so that PostgreSQL, checking a row again once it has locked it, sees it finished.
 * Values: now, limit.
 */
export const CLAIMABLE = `SELECT d.id FROM webhook_endpoints e JOIN webhook_deliveries d ON d.id = (
    SELECT min(p.id) FROM webhook_deliveries p WHERE p.endpoint_id = e.id AND p.status = 'pending')
  WHERE e.disabled_at IS NULL AND d.status = 'pending' AND d.next_attempt_at <= ?
  ORDER BY d.next_attempt_at, d.id LIMIT ?`;

export const DELIVERIES = {
  /** Raw rows. Values: site id, id. */
  byId: `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES_FROM} WHERE d.site_id = ? AND d.id = ?`,
  /**
   * A new pending delivery of the same message to the same endpoint, due at `now`: a replay.
   * Values: now, now, site id, id. A store appends `RETURNING id` or reads the rowid.
   */
  replay: `INSERT INTO webhook_deliveries (site_id, message_id, endpoint_id, status, attempts, next_attempt_at, replay_of, created_at)
    SELECT site_id, message_id, endpoint_id, 'pending', 0, ?, id, ? FROM webhook_deliveries WHERE site_id = ? AND id = ?`,
  /** Raw rows, oldest first. Values: site id, delivery id. */
  attempts: `SELECT a.id, a.delivery_id, a.at, a.duration_ms, a.ok, a.status, a.answer, a.error FROM webhook_attempts a
    WHERE a.site_id = ? AND a.delivery_id = ? ORDER BY a.id`,
} as const;

/** listWebhookDeliveries' page: newest first, `afterId` pages to smaller ids; limit + 1 rows tell whether more follow. */
export function deliveryPage(siteId: number, filter: WebhookDeliveryFilter, req: PageRequest): { text: string; values: Value[] } {
  if (!Number.isSafeInteger(req.limit) || req.limit < 0) throw new RangeError(`a page's limit must be a whole number, got ${req.limit}`);
  const where = ['d.site_id = ?'];
  const values: Value[] = [siteId];
  const and = (condition: string, value: Value | undefined) => {
    if (value === undefined) return;
    where.push(condition);
    values.push(value);
  };
  and('d.endpoint_id = ?', filter.endpointId);
  and('d.status = ?', filter.status);
  and('d.id < ?', req.afterId);
  // The limit written in, as SQLite's pages have it (decision 0027); it is checked above.
  const text = `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES_FROM} WHERE ${where.join(' AND ')} ORDER BY d.id DESC LIMIT ${req.limit + 1}`;
  return { text, values };
}
export function pageFrom<T>(rows: RawRow[], limit: number, map: (r: RawRow) => T): Page<T> {
  const hasMore = rows.length > limit;
  return { items: (hasMore ? rows.slice(0, limit) : rows).map(map), hasMore };
}

// Attempts and what follows them.

/** Values: site id, delivery id, then attemptValues. */
export const INSERT_ATTEMPT = `INSERT INTO webhook_attempts (site_id, delivery_id, at, duration_ms, ok, status, answer, error)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
export const attemptValues = (a: NewWebhookAttempt): Value[] => [a.at, a.durationMs, a.ok ? 1 : 0, orNull(a.status), a.answer, orNull(a.error)];
export function attemptFrom(r: RawRow): WebhookAttemptRecord {
  const attempt: Row = { id: r[0], deliveryId: r[1], at: r[2], durationMs: r[3], ok: r[4] === 1, answer: r[6] };
  opt(attempt, 'status', r[5]);
  opt(attempt, 'error', r[7]);
  return attempt as unknown as WebhookAttemptRecord;
}

/**
 * The UPDATE that counts an attempt and records what follows it, of a delivery still pending
 * under the claim ending at `leaseUntil` (none other: the claim lapsed and another took it);
 * RETURNING the site and endpoint when it matched. A finished delivery ends when its attempt did.
 */
export function finishedDelivery(id: number, leaseUntil: number, attempt: NewWebhookAttempt, result: WebhookAttemptResult): { text: string; values: Value[] } {
  const end = attempt.at + attempt.durationMs;
  const [status, nextAttemptAt, finishedAt]: [string, Value, Value] =
    'retryAt' in result.next ? ['pending', result.next.retryAt, null] : ['succeeded' in result.next ? 'succeeded' : 'failed', null, end];
  return {
    text: `UPDATE webhook_deliveries SET attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, ?), status = ?,
        next_attempt_at = coalesce(?, next_attempt_at), finished_at = ?
      WHERE id = ? AND status = 'pending' AND next_attempt_at = ? RETURNING site_id, endpoint_id`,
    values: [attempt.at, status, nextAttemptAt, finishedAt, id, leaseUntil],
  };
}

/**
 * deleteOldWebhookRecords' statements, run in this order, each answering how many rows went:
 * attempts made before `before`, deliveries finished before it (their attempts were made before
 * they finished, so went with the first), then messages no delivery sends any more.
 */
export const DELETE_OLD = {
  /** Values: before. */
  attempts: 'DELETE FROM webhook_attempts WHERE at < ?',
  /** Values: before. */
  deliveries: 'DELETE FROM webhook_deliveries WHERE finished_at < ?',
  /**
   * Pending deliveries made before the time for endpoints that have been disabled since before
   * it: nobody turned the endpoint back on within the history's time, so what waits for it goes
   * (their attempts with them: the foreign key cascades). Values: before, before.
   */
  abandoned: `DELETE FROM webhook_deliveries WHERE status = 'pending' AND created_at < ? AND endpoint_id IN (
    SELECT e.id FROM webhook_endpoints e WHERE e.site_id = webhook_deliveries.site_id AND e.disabled_at < ?)`,
  messages: `DELETE FROM webhook_messages WHERE NOT EXISTS (
    SELECT 1 FROM webhook_deliveries d WHERE d.site_id = webhook_messages.site_id AND d.message_id = webhook_messages.id)`,
} as const;
