import { randomBytes } from '../crypto/bytes';

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random id from an unambiguous alphabet (no 0/O, 1/l/I), for ids that appear in URLs. */
export function randomId(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % ALPHABET.length);
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    if (bytes[i]! < limit) out += ALPHABET[bytes[i]! % ALPHABET.length];
  }
  return out.length === length ? out : out + randomId(length - out.length);
}
