/**
 * SHA-256 and HMAC-SHA256 from @noble/hashes: audited, synchronous and portable. Node's own
 * crypto is Node-only, and Web Crypto is asynchronous and, in Node, about 40 µs a call — too
 * slow for something every Admin API request does. Node's entry point (the `svc` command) hands
 * in node:crypto's SHA-256 all the same (../platform/node-digests.ts: 1.0 µs against noble's
 * 3.1 µs for a key or token, and every Admin API and member API request hashes one); the app
 * itself imports nothing Node-only, so the mock server's browser build still loads.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from './bytes';

const utf8 = new TextEncoder();

/** SHA-256 of the text's UTF-8 bytes, as lower-case hex: the same answer whichever way it is computed. */
export type Sha256Hex = (text: string) => string;

/** The portable way, used unless a platform hands in a faster one. */
export const portableSha256Hex: Sha256Hex = (text) => toHex(sha256(utf8.encode(text)));

let platformSha256Hex: Sha256Hex = portableSha256Hex;

/** A platform's own SHA-256 (it must answer what portableSha256Hex answers: test/unit/digests.test.ts). */
export function useSha256Hex(implementation: Sha256Hex): void {
  platformSha256Hex = implementation;
}

export function sha256Hex(text: string): string {
  return platformSha256Hex(text);
}

/** A keyed MAC whose key setup is done once; `sign` is then a clone and one pass. */
export function hmacSha256(secret: string): (message: string) => Uint8Array {
  const keyed = hmac.create(sha256, utf8.encode(secret));
  return (message) => keyed.clone().update(utf8.encode(message)).digest();
}
