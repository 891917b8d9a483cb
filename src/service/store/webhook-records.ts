/**
 * The webhooks' records (issue 31): a site's endpoints, the messages announced to them (the
 * outbox), one delivery per message and endpoint, and each delivery's attempts.
 *
 * A message is written in the same transaction as the change it announces, and only when an
 * enabled endpoint of the site wants its type: the writer makes one pending delivery per such
 * endpoint then and there (fan-out at write time), so an endpoint added later does not receive
 * what happened before it. Deliveries of one endpoint go out one at a time, in id order, which is
 * the order their causes committed in for causes that follow one another (a sign-up, then its
 * membership); two concurrent causes have no order to keep.
 */
import type { WebhookEventType } from '../../contract/webhooks';
import type { EpochMs } from './records';

/** Where an endpoint came from: an apply of the site file replaces only the site file's own. */
export type WebhookEndpointSource = 'cli' | 'siteFile';

export interface NewWebhookEndpoint {
  siteId: number;
  /** https, or http with `allowPrivate` (address-policy.ts checks it before it is stored). */
  url: string;
  /** The types it receives, in WEBHOOK_EVENT_TYPES order; absent: every type. Never empty. */
  events?: WebhookEventType[];
  /** Local development: http and private addresses may be reached (cloud metadata never). */
  allowPrivate: boolean;
  /** The signing secret, `whsec_…`; absent when `secretEnv` names where it is kept instead. */
  secret?: string;
  /** A site-file endpoint's secret: the name of the environment variable of `svc serve` holding it. */
  secretEnv?: string;
  source: WebhookEndpointSource;
  createdAt: EpochMs;
}

export interface WebhookEndpointRecord extends NewWebhookEndpoint {
  id: number;
  /** During a rotation: the secret before it, which deliveries are also signed with until `previousSecretUntil`. */
  previousSecret?: string;
  previousSecretUntil?: EpochMs;
  /** The first failed attempt after its last success; absent while it succeeds. */
  failingSince?: EpochMs;
  /** Disabled endpoints get no new deliveries, and their pending ones wait. */
  disabledAt?: EpochMs;
  /** Why, in words for the owner (`failing for 5 days`). */
  disabledReason?: string;
}

/** Absent keys stay as they are; `null` clears. */
export interface WebhookEndpointPatch {
  url?: string;
  events?: WebhookEventType[] | null;
  allowPrivate?: boolean;
  secret?: string;
  secretEnv?: string | null;
  previousSecret?: string | null;
  previousSecretUntil?: EpochMs | null;
  disabledAt?: EpochMs | null;
  disabledReason?: string | null;
}

/** A message to announce, with its body already written: every attempt and replay sends these bytes. */
export interface NewWebhookMessage {
  siteId: number;
  /** `msg_…`, the `webhook-id` of every delivery of it: receivers drop duplicates by it. */
  publicId: string;
  type: WebhookEventType;
  /** The JSON body `{ type, timestamp, data }`. */
  body: string;
  createdAt: EpochMs;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryRecord {
  id: number;
  siteId: number;
  endpointId: number;
  /** The message's `msg_…` id. */
  messageId: string;
  type: WebhookEventType;
  status: WebhookDeliveryStatus;
  /** Attempts finished so far. */
  attempts: number;
  /** When a pending delivery is due next (or its claim ends: the lease is this moved forward). */
  nextAttemptAt: EpochMs;
  /** When its first attempt was made; the retry schedule counts from it. */
  firstAttemptAt?: EpochMs;
  /** When it succeeded or was given up. */
  finishedAt?: EpochMs;
  /** A replay: the delivery it sends again (the same message, the same `webhook-id`). */
  replayOf?: number;
  createdAt: EpochMs;
}

/** What a worker claimed: the delivery, what to send, and where. */
export interface ClaimedWebhookDelivery extends WebhookDeliveryRecord {
  body: string;
  endpoint: WebhookEndpointRecord;
  /** The claim's end (`nextAttemptAt` as claimed): finishing names it, so a worker whose claim lapsed and was taken over records nothing. */
  leaseUntil: EpochMs;
}

export interface WebhookAttemptRecord {
  id: number;
  deliveryId: number;
  at: EpochMs;
  durationMs: number;
  /** A 2xx answer. */
  ok: boolean;
  /** The answer's status, when one came. */
  status?: number;
  /** The first 1 KB of the answer, as text. */
  answer: string;
  /** Why it failed when the status does not say (deliver.ts's DeliveryError), with its detail. */
  error?: string;
}
export type NewWebhookAttempt = Omit<WebhookAttemptRecord, 'id' | 'deliveryId'>;

/**
 * What follows an attempt: the delivery succeeded, is tried again at `retryAt`, or is given up.
 * `endpoint` changes the endpoint in the same transaction (its failing time, or disabled).
 */
export interface WebhookAttemptResult {
  next: { succeeded: true } | { retryAt: EpochMs } | { failed: true };
  endpoint?: Pick<WebhookEndpointPatch, 'disabledAt' | 'disabledReason'> & { failingSince?: EpochMs | null };
}

export interface WebhookDeliveryFilter {
  endpointId?: number;
  status?: WebhookDeliveryStatus;
}
