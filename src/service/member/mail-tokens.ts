/**
 * The secrets mailed to members (issue 15): a link's token (32 random bytes, base64url) and a
 * 6-digit code. The store keeps only hashes: SHA-256 of the token, and SHA-256 of the code
 * joined to the token's hash, so equal codes of two tokens never hash alike. A code has a million
 * values, so its hash would not stand up to someone holding the database; it lives 10 minutes to
 * a day and allows CODE_TRIES guesses, which is what protects it.
 */
import { MAIL_TOKEN_SHAPE, SIGN_IN_CODE_DIGITS } from '../../contract/member';
import { constantTimeEqual, randomBytes, toBase64Url } from '../crypto/bytes';
import { sha256Hex } from '../crypto/digests';

export interface MailedToken {
  /** What goes into the link. */
  token: string;
  tokenHash: string;
}

export function newMailedToken(): MailedToken {
  const token = toBase64Url(randomBytes(32));
  return { token, tokenHash: sha256Hex(token) };
}

/** The hash a link's token is stored by; undefined for text that cannot be one of ours. */
export const tokenHashOf = (token: unknown): string | undefined =>
  typeof token === 'string' && MAIL_TOKEN_SHAPE.test(token) ? sha256Hex(token) : undefined;

const CODE_SPACE = 10 ** SIGN_IN_CODE_DIGITS;
/** The largest multiple of CODE_SPACE below 2^32: values above it would favour low codes. */
const UNBIASED_LIMIT = Math.floor(2 ** 32 / CODE_SPACE) * CODE_SPACE;

/** A uniformly random code of SIGN_IN_CODE_DIGITS digits, leading zeros kept. */
export function newCode(): string {
  for (;;) {
    const [value] = new Uint32Array(randomBytes(4).buffer);
    if (value! < UNBIASED_LIMIT) return String(value! % CODE_SPACE).padStart(SIGN_IN_CODE_DIGITS, '0');
  }
}

export const codeHashOf = (tokenHash: string, code: string): string => sha256Hex(`${tokenHash}:${code}`);

/** Whether `typed` is the token's code, compared in constant time. */
export function codeMatches(token: { tokenHash: string; codeHash?: string }, typed: string): boolean {
  if (token.codeHash === undefined) return false;
  const utf8 = new TextEncoder();
  return constantTimeEqual(utf8.encode(codeHashOf(token.tokenHash, typed)), utf8.encode(token.codeHash));
}

/** A typed code as the service reads it: spaces and dashes a member may copy along are dropped. */
export function readCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${SIGN_IN_CODE_DIGITS}}$`).test(code) ? code : undefined;
}
