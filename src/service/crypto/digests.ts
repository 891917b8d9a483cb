/**
 * SHA-256 and HMAC-SHA256 from @noble/hashes: audited, synchronous and portable. Node's own
 * crypto is Node-only, and Web Crypto is asynchronous and, in Node, about 40 µs a call — too
 * slow for something every Admin API request does.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from './bytes';

const utf8 = new TextEncoder();

export function sha256Hex(text: string): string {
  return toHex(sha256(utf8.encode(text)));
}

/** A keyed MAC whose key setup is done once; `sign` is then a clone and one pass. */
export function hmacSha256(secret: string): (message: string) => Uint8Array {
  const keyed = hmac.create(sha256, utf8.encode(secret));
  return (message) => keyed.clone().update(utf8.encode(message)).digest();
}
