/** Webhook secrets: the `whsec_` form the Standard Webhooks libraries read, and what is refused. */
import { Webhook } from 'standardwebhooks';
import { expect, test } from 'vitest';
import { newWebhookSecret, parseWebhookSecret, WEBHOOK_SECRET_BYTES, WebhookSecretError } from '../../src/service/webhooks';

const bytes = (n: number) => btoa(String.fromCharCode(...new Uint8Array(n).fill(7)));

test('a new secret is whsec_ and the base64 of 32 random bytes, a new one each time', () => {
  const secret = newWebhookSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(parseWebhookSecret(secret)).toHaveLength(WEBHOOK_SECRET_BYTES);
  expect(new Set(Array.from({ length: 20 }, newWebhookSecret)).size).toBe(20);
});

test('the reference library takes a new secret as it is', () => {
  expect(() => new Webhook(newWebhookSecret())).not.toThrow();
});

test('parsing gives the key bytes, with or without base64 padding', () => {
  expect([...parseWebhookSecret(`whsec_${bytes(32)}`)]).toEqual(new Array(32).fill(7));
  expect([...parseWebhookSecret(`whsec_${bytes(32).replace(/=+$/, '')}`)]).toEqual(new Array(32).fill(7));
  expect(parseWebhookSecret(`whsec_${bytes(24)}`)).toHaveLength(24);
  expect(parseWebhookSecret(`whsec_${bytes(64)}`)).toHaveLength(64);
});

test.each([
  ['no prefix', bytes(32), /starts with "whsec_"/],
  ['another prefix', `wh_${bytes(32)}`, /starts with "whsec_"/],
  ['nothing after the prefix', 'whsec_', /standard base64/],
  ['base64url characters', `whsec_${bytes(32).replace(/.$/, '_')}`, /standard base64/],
  ['padding that does not end a group', `whsec_${bytes(32)}=`, /standard base64/],
  ['a space', `whsec_ ${bytes(32)}`, /standard base64/],
  ['too short a key (23 bytes)', `whsec_${bytes(23)}`, /24 to 64 bytes, this one is 23/],
  ['too long a key (65 bytes)', `whsec_${bytes(65)}`, /24 to 64 bytes, this one is 65/],
])('a secret with %s is refused, with a reason', (_, secret, reason) => {
  expect(() => parseWebhookSecret(secret)).toThrow(WebhookSecretError);
  expect(() => parseWebhookSecret(secret)).toThrow(reason);
});

test('a refusal never repeats the secret', () => {
  const secret = `whsec_${bytes(23)}`;
  const error = (() => {
    try {
      parseWebhookSecret(secret);
    } catch (e) {
      return e as Error;
    }
  })();
  expect(error?.message).not.toContain(secret.slice(6, 20));
});
