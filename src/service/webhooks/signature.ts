/**
 * Signing a webhook the Standard Webhooks way: HMAC-SHA256 over `${id}.${timestamp}.${body}`,
 * keyed with the secret's decoded bytes, sent as `v1,<base64>`. Node-only (node:crypto): only the
 * sender signs, and the sender is Node-only anyway (it opens sockets).
 */
import { createHmac } from 'node:crypto';
import { parseWebhookSecret } from './secret';

export interface WebhookMessage {
  /** The message's id: the same on every attempt, so a receiver can drop the duplicates. */
  id: string;
  /**
   * Unix seconds of this attempt, not of the first one: receivers refuse a timestamp more than
   * a few minutes away from their clock (5 in the reference libraries), so each retry signs anew.
   */
  timestamp: number;
  /** Exactly the text that is sent: a receiver verifies the bytes it got, not their meaning. */
  body: string;
  /**
   * The endpoint's secrets, usually one; two while a secret is being rotated (the old one stays
   * valid for 24 h), so a receiver that knows either one accepts the delivery.
   */
  secrets: readonly string[];
}

export const WEBHOOK_USER_AGENT = 'svc-webhooks/1';

/**
 * The id goes into the signed text before a `.`, and into a header: letters, digits, `_` and `-`
 * keep both unambiguous (a `msg_` prefix and base64url fit).
 */
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function signWebhook({ id, timestamp, body, secrets }: WebhookMessage): string {
  if (!MESSAGE_ID.test(id)) throw new TypeError('a webhook id is 1 to 128 letters, digits, "_" or "-"');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('a webhook timestamp is whole unix seconds');
  if (secrets.length === 0) throw new TypeError('a webhook is signed with at least one secret');
  const signed = `${id}.${timestamp}.${body}`;
  // One `v1,` signature a secret, space-separated: the specification's way to carry several.
  return secrets.map((secret) => `v1,${createHmac('sha256', parseWebhookSecret(secret)).update(signed, 'utf8').digest('base64')}`).join(' ');
}

/** Every header a delivery carries: the three of the specification and what the body is. */
export function webhookHeaders(message: WebhookMessage): Record<string, string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': signWebhook(message),
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
  };
}
