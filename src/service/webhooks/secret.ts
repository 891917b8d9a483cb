/**
 * A webhook endpoint's signing secret, in the Standard Webhooks form: `whsec_` and the base64 of
 * the key's bytes. The site owner pastes it into their receiver as it is (the `standardwebhooks`
 * packages strip the prefix and decode the rest), so the text is the contract, not the bytes.
 *
 * Portable on purpose (Web Crypto, atob/btoa, no node:*): the command that adds an endpoint and
 * shows its secret may live in the service app, which also runs in a browser (decision 0007).
 */
import { randomBytes } from '../crypto/bytes';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** 256 bits, HMAC-SHA256's own block of security; the specification allows 24 to 64 bytes. */
export const WEBHOOK_SECRET_BYTES = 32;
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

/** Standard base64 (`+` and `/`), padding optional: other senders' secrets come both ways. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export class WebhookSecretError extends Error {
  override readonly name = 'WebhookSecretError';
}

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + btoa(String.fromCharCode(...randomBytes(WEBHOOK_SECRET_BYTES)));
}

/**
 * The key bytes of a `whsec_…` secret, or a WebhookSecretError saying what is wrong with it. The
 * messages never repeat the secret: they may end up in a log.
 */
export function parseWebhookSecret(secret: string): Uint8Array {
  if (typeof secret !== 'string' || !secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    throw new WebhookSecretError(`a webhook secret starts with "${WEBHOOK_SECRET_PREFIX}"`);
  }
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  // Padding, where present, must make a whole number of 4-character groups, as atob wants.
  if (!BASE64.test(encoded) || (encoded.includes('=') && encoded.length % 4 !== 0) || encoded.length % 4 === 1) {
    throw new WebhookSecretError(`a webhook secret is "${WEBHOOK_SECRET_PREFIX}" followed by standard base64`);
  }
  const key = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES) {
    throw new WebhookSecretError(`a webhook secret's key is ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes, this one is ${key.length}`);
  }
  return key;
}
