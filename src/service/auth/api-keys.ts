/**
 * Admin API keys: `svc_admin_` plus 256 random bits, shown once. Only a SHA-256 of the key is
 * stored: with that much entropy a fast hash is enough (no dictionary to guess from), and the
 * lookup stays one indexed read per request.
 */
import { constantTimeEqual, randomBytes, toBase64Url } from '../crypto/bytes';
import { sha256Hex } from '../crypto/digests';
import { SCOPES, type Scope } from '../../contract/admin';
import type { Clock } from '../domain/clock';
import { ValidationError } from '../domain/validation';
import type { ApiKeyRecord } from '../store/records';
import type { Store } from '../store/store';

export const API_KEY_PREFIX = 'svc_admin_';
const KEY_SHAPE = /^svc_admin_[A-Za-z0-9_-]{43}$/;
const utf8 = new TextEncoder();

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export function parseScopes(list: string): Scope[] {
  const scopes = list.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new ValidationError([
      { path: 'scopes', message: `must be a comma-separated list of ${SCOPES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}` },
    ]);
  }
  return [...new Set(scopes)] as Scope[];
}

export async function issueApiKey(
  store: Store,
  clock: Clock,
  input: { siteId: number; scopes: Scope[]; expiresInMs?: number },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = API_KEY_PREFIX + toBase64Url(randomBytes(32));
  const now = clock();
  const record = await store.createApiKey({
    siteId: input.siteId,
    hash: hashApiKey(key),
    scopes: input.scopes,
    createdAt: now,
    ...(input.expiresInMs !== undefined ? { expiresAt: now + input.expiresInMs } : {}),
  });
  return { key, record };
}

/** The key for a presented secret, when it exists, is not revoked and has not expired. */
export async function findUsableKey(store: Store, now: number, presented: string): Promise<ApiKeyRecord | undefined> {
  if (!KEY_SHAPE.test(presented)) return undefined;
  const hash = hashApiKey(presented);
  const record = await store.findApiKeyByHash(hash);
  if (!record) return undefined;
  // The index lookup matched on the hash already; compare again in constant time so the
  // answer never depends on how much of a stored value a guess shares.
  if (!constantTimeEqual(utf8.encode(record.hash), utf8.encode(hash))) return undefined;
  if (record.revokedAt !== undefined && record.revokedAt <= now) return undefined;
  if (record.expiresAt !== undefined && record.expiresAt <= now) return undefined;
  return record;
}
