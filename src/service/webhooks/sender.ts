/**
 * Sends what the webhook outbox holds (issue 31): claims due deliveries from the store (each the
 * oldest pending one of its endpoint, so an endpoint gets its messages one at a time and in
 * order), signs each attempt anew, posts it (deliver.ts), and records how it went with what
 * follows: done, tried again on the retry schedule, or given up once the schedule is over. An
 * endpoint that has failed for five days is disabled and said so in the log.
 *
 * Claims are leases in the store, so any number of processes and hosts may run this side by side
 * and a delivery goes out once (at least once: a process that dies mid-attempt leaves it to the
 * next once the lease ends; receivers drop a repeat by its `webhook-id`).
 */
import type { Clock } from '../domain/clock';
import { isoTime } from '../http/json';
import { runPeriodically } from '../periodic';
import type { Store } from '../store/store';
import type { ClaimedWebhookDelivery, WebhookAttemptResult } from '../store/webhook-records';
import { type DeliveryRequest, type DeliveryResult, DELIVERY_TIMEOUT_MS, deliverWebhook } from './deliver';
import { nextAttemptAt, shouldDisable } from './retry-schedule';
import { webhookHeaders } from './signature';

export interface WebhookSendDeps {
  store: Store;
  clock: Clock;
  /** Where site-file endpoints' secrets are (`secretEnv` names a variable of it). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where a given-up delivery or a disabled endpoint is reported. */
  report(message: string): void;
  /** One attempt; deliver.ts's unless a test stands in for the network. */
  deliver?: (request: DeliveryRequest) => Promise<DeliveryResult>;
}

/** How long a claim holds a delivery: an attempt's whole time and then some. */
export const WEBHOOK_LEASE_MS = DELIVERY_TIMEOUT_MS + 50_000;
/** How often the sender looks for due deliveries: "as they happen", within a couple of seconds. */
export const WEBHOOK_EVERY_MS = 2_000;
/** Deliveries claimed (and sent at once, to different endpoints) a pass. */
const BATCH = 20;

/** The secrets a delivery is signed with now: the endpoint's, and during a rotation the one before it. */
export function signingSecrets(endpoint: ClaimedWebhookDelivery['endpoint'], env: WebhookSendDeps['env'], now: number): string[] {
  const current = endpoint.secret ?? (endpoint.secretEnv === undefined ? undefined : env[endpoint.secretEnv]);
  const previous = endpoint.previousSecret !== undefined && (endpoint.previousSecretUntil ?? 0) > now ? [endpoint.previousSecret] : [];
  return [...(current ? [current] : []), ...previous];
}

/** One pass: claims up to a batch and attempts each. Answers how many were claimed. */
export async function sendQueuedWebhooks(deps: WebhookSendDeps): Promise<number> {
  const claimed = await deps.store.claimWebhookDeliveries(deps.clock(), BATCH, WEBHOOK_LEASE_MS);
  // One delivery an endpoint at most: they go to different receivers, so at once.
  await Promise.all(claimed.map((delivery) => attempt(deps, delivery)));
  return claimed.length;
}

async function attempt(deps: WebhookSendDeps, delivery: ClaimedWebhookDelivery): Promise<void> {
  const { store, clock, env, report, deliver = deliverWebhook } = deps;
  const at = clock();
  const { endpoint } = delivery;
  const secrets = signingSecrets(endpoint, env, at);
  let result: DeliveryResult;
  if (secrets.length === 0) {
    // A site-file endpoint whose variable is not set in this process: nothing can be signed.
    result = { ok: false, durationMs: 0, answer: '', cut: false, error: 'connection', detail: `no secret: ${endpoint.secretEnv} is not set` };
  } else {
    const timestamp = Math.floor(at / 1000);
    const headers = webhookHeaders({ id: delivery.messageId, timestamp, body: delivery.body, secrets });
    result = await deliver({ url: endpoint.url, allowPrivate: endpoint.allowPrivate, headers, body: delivery.body });
  }
  const outcome = whatFollows(delivery, result, at);
  const recorded = await store.finishWebhookAttempt(
    delivery.id,
    delivery.leaseUntil,
    {
      at,
      durationMs: result.durationMs,
      ok: result.ok,
      ...(result.status !== undefined && { status: result.status }),
      answer: result.answer,
      ...(result.error !== undefined && { error: result.detail ? `${result.error}: ${result.detail}` : result.error }),
    },
    outcome,
  );
  if (!recorded) return; // the claim lapsed and another sender took the delivery over
  if ('failed' in outcome.next) {
    report(`webhooks: delivery ${delivery.id} (${delivery.type} ${delivery.messageId}) to endpoint ${endpoint.id} given up after ${delivery.attempts + 1} attempts`);
  }
  if (outcome.endpoint?.disabledAt !== undefined && outcome.endpoint.disabledAt !== null) {
    report(`webhooks: endpoint ${endpoint.id} (${endpoint.url}) disabled: ${outcome.endpoint.disabledReason}`);
  }
}

/** Done, again later, or given up; and the endpoint's failing time, or its end. */
export function whatFollows(delivery: ClaimedWebhookDelivery, result: DeliveryResult, now: number): WebhookAttemptResult {
  const { endpoint } = delivery;
  if (result.ok) return { next: { succeeded: true }, ...(endpoint.failingSince !== undefined && { endpoint: { failingSince: null } }) };
  const retryAt = nextAttemptAt(delivery.firstAttemptAt ?? now, delivery.attempts + 1);
  const next = retryAt === undefined ? { failed: true as const } : { retryAt: Math.max(retryAt, now) };
  const failingSince = endpoint.failingSince ?? now;
  if (shouldDisable(failingSince, now)) {
    return { next, endpoint: { failingSince, disabledAt: now, disabledReason: `every delivery failed since ${isoTime(failingSince)}` } };
  }
  return { next, ...(endpoint.failingSince === undefined && { endpoint: { failingSince } }) };
}

/** The sender in `svc serve`: a pass at once, then every WEBHOOK_EVERY_MS, while there is work. */
export function startWebhookSender(deps: WebhookSendDeps, everyMs = WEBHOOK_EVERY_MS): { wake(): void; stop(): Promise<void> } {
  return runPeriodically(
    async (stopped) => {
      while (!stopped() && (await sendQueuedWebhooks(deps)) > 0);
    },
    everyMs,
    (error) => deps.report(`webhooks: a pass failed and is tried again in ${everyMs / 1000} s: ${(error as Error).message}`),
  );
}
