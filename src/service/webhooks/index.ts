/**
 * Webhook delivery's primitives (issue 31): secrets, signatures, the address policy, one
 * delivery attempt and the retry schedule. The store, outbox and commands build on these.
 * deliver.ts, guarded-lookup.ts and signature.ts are Node-only (sockets, node:crypto); secret.ts,
 * address-policy.ts and retry-schedule.ts are portable, so the service app may import them
 * directly (not through this index) and still run in a browser.
 */
export { checkEndpointUrl, endpointHost, isIpAddress, isPublicAddress, isReachableAddress } from './address-policy';
export { ANSWER_CHARS, DELIVERY_TIMEOUT_MS, deliverWebhook, MAX_ANSWER_BYTES } from './deliver';
export { guardedLookup, RefusedAddressError, resolveReachable, resolveWithDns } from './guarded-lookup';
export { DISABLE_AFTER_FAILING_MS, nextAttemptAt, RETRY_WAITS_MS, RETRY_WINDOW_MS, shouldDisable } from './retry-schedule';
export { newWebhookSecret, parseWebhookSecret, WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX, WebhookSecretError } from './secret';
export { signWebhook, WEBHOOK_USER_AGENT, webhookHeaders } from './signature';

export type { EndpointUrlProblem } from './address-policy';
export type { DeliveryError, DeliveryRequest, DeliveryResult } from './deliver';
export type { AddressGuard, ResolveHost } from './guarded-lookup';
export type { WebhookMessage } from './signature';
