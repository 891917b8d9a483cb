/**
 * Password hashing with scrypt, the memory-hard KDF DESIGN.md asks for. The encoded hash
 * carries its own cost (`scrypt$ln=17,r=8,p=1$salt$hash`), so hashes made at any cost verify,
 * and raising the cost later needs no migration.
 *
 * The KDF itself is a platform piece passed in when the app is built: Node's native scrypt on
 * the server (./platform/node-scrypt.ts), @noble/hashes' portable one in the browser mock.
 */
import { constantTimeEqual, fromBase64Url, randomBytes, toBase64Url } from '../crypto/bytes';

export interface ScryptCost {
  /** log2 of N. */
  ln: number;
  r: number;
  p: number;
}

/** OWASP's current scrypt minimum: N = 2^17, r = 8, p = 1 (128 MiB per hash). */
export const PRODUCTION_SCRYPT: ScryptCost = { ln: 17, r: 8, p: 1 };
/**
 * For tests and the mock server only: N = 2^4, 8,192 times cheaper (0.2 ms a hash in plain
 * JavaScript, 0.1 ms natively, against 5.7 and 2.5 ms at 2^10). Thousands of tests sign members
 * in and load fixtures with hashed passwords; what they test is the flow, not the cost. The
 * tests of hashing itself (test/unit/passwords.test.ts) run the production cost too.
 */
export const TEST_SCRYPT: ScryptCost = { ln: 4, r: 8, p: 1 };

/** Derives `length` bytes; implementations may queue calls to bound memory. */
export type ScryptFunction = (password: Uint8Array, salt: Uint8Array, cost: ScryptCost, length: number) => Promise<Uint8Array>;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for an encoded hash this hasher cannot read. */
  verify(password: string, encoded: string): Promise<boolean>;
}

const KEY_LENGTH = 32;
const ENCODED = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{43})$/;
const utf8 = new TextEncoder();

export function createPasswordHasher(scrypt: ScryptFunction, cost: ScryptCost): PasswordHasher {
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await scrypt(utf8.encode(password), salt, cost, KEY_LENGTH);
      return `scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${toBase64Url(salt)}$${toBase64Url(key)}`;
    },
    async verify(password, encoded) {
      const match = ENCODED.exec(encoded);
      if (!match) return false;
      const stored = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
      // A stored cost above production's is refused rather than run: it could only be an attack.
      if (stored.ln < 1 || stored.ln > PRODUCTION_SCRYPT.ln || stored.r < 1 || stored.r > 16 || stored.p < 1 || stored.p > 4) return false;
      const salt = fromBase64Url(match[4]!);
      const expected = fromBase64Url(match[5]!);
      if (!salt || !expected) return false;
      const key = await scrypt(utf8.encode(password), salt, stored, expected.length);
      return constantTimeEqual(key, expected);
    },
  };
}
