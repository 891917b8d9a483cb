/**
 * Member sessions. Tokens are `svc_session_` plus 256 random bits; only their SHA-256 is
 * stored (with that much entropy a fast hash suffices and lookup stays one indexed read).
 * A session belongs to one site, slides IDLE_MS ahead on use, and never outlives MAX_AGE_MS.
 */
import { randomBytes, toBase64Url } from '../crypto/bytes';
import { sha256Hex } from '../crypto/digests';
import type { Clock } from '../domain/clock';
import type { MemberRecord, NewSession, SessionRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { MemberError, unauthenticated } from './errors';

export const SESSION_PREFIX = 'svc_session_';
const TOKEN_SHAPE = /^svc_session_[A-Za-z0-9_-]{43}$/;
export const IDLE_MS = 7 * 24 * 3600_000;
export const MAX_AGE_MS = 30 * 24 * 3600_000;
/** A session's expiry moves at most this often, so reads don't each become a write. */
const TOUCH_EVERY_MS = 3600_000;

export interface Authenticated {
  session: SessionRecord;
  member: MemberRecord;
}

/** A new session's bearer token and what the store keeps of it, for a write that stores it (a redeemed mailed token). */
export function newSession(now: number): { token: string; fields: Omit<NewSession, 'siteId' | 'memberId'> } {
  const token = SESSION_PREFIX + toBase64Url(randomBytes(32));
  return { token, fields: { tokenHash: sha256Hex(token), createdAt: now, lastUsedAt: now, expiresAt: now + IDLE_MS } };
}

export async function openSession(store: Store, clock: Clock, siteId: number, memberId: number) {
  const { token, fields } = newSession(clock());
  const session = await store.createSession({ siteId, memberId, ...fields });
  return { token, session };
}

/** The bearer token of the request, or undefined when it carries none of the right shape. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const token = match?.[1];
  return token && TOKEN_SHAPE.test(token) ? token : undefined;
}

/** The live session and member behind the request's token, or a 401. */
export async function authenticate(store: Store, clock: Clock, site: SiteRecord, request: Request): Promise<Authenticated> {
  const token = bearerToken(request);
  if (!token) throw unauthenticated('Sign in first: send the session token as "Authorization: Bearer …"');
  const found = await store.findSessionWithMember(sha256Hex(token));
  const now = clock();
  if (!found || found.session.siteId !== site.id) throw unauthenticated('The session token is not valid for this site');
  const { session, member } = found;
  if (session.revokedAt !== undefined) throw unauthenticated('The session has been signed out');
  if (session.expiresAt <= now) throw unauthenticated('The session has expired; sign in again');
  if (member.status === 'blocked') throw MemberError.of(401, 'unauthenticated', 'The member is blocked');
  if (now - session.lastUsedAt >= TOUCH_EVERY_MS) {
    const expiresAt = Math.min(now + IDLE_MS, session.createdAt + MAX_AGE_MS);
    await store.touchSession(session.id, now, expiresAt);
    return { session: { ...session, lastUsedAt: now, expiresAt }, member };
  }
  return { session, member };
}

/** Signs the request's session out when it is one of this site's; true when there was a live one. */
export async function closeSession(store: Store, clock: Clock, site: SiteRecord, request: Request): Promise<boolean> {
  const token = bearerToken(request);
  if (!token) return false;
  const tokenHash = sha256Hex(token);
  const session = await store.findSessionByHash(tokenHash);
  // Another site's token is not a session here: signing out under the wrong subdomain leaves it alone.
  return session?.siteId === site.id ? store.revokeSession(tokenHash, clock()) : false;
}
