/**
 * Who is asking, in the order the spec's statuses imply: no usable key → 401, over the key's
 * rate → 429, the site's plan without Admin API → 403. Scopes are checked per route (404).
 */
import type { MiddlewareHandler } from 'hono';
import type { Scope } from '../../contract/admin';
import { findUsableKey } from '../auth/api-keys';
import type { Clock } from '../domain/clock';
import type { ApiKeyRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { AdminError, notFound } from './errors';
import type { RateLimiter } from '../http/rate-limit';

export interface AdminEnv {
  Variables: { key: ApiKeyRecord; site: SiteRecord };
}

const denied = (message: string) =>
  AdminError.of(401, 'accessDenied', message, 'base', { 'www-authenticate': 'Bearer realm="svc-admin"' });

export function authenticate(store: Store, clock: Clock, limiter: RateLimiter | undefined): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) throw denied('Send the API key as "Authorization: Bearer svc_admin_…"');
    const now = clock();
    const key = await findUsableKey(store, now, match[1]!);
    const site = key && (await store.getSite(key.siteId));
    if (!key || !site) throw denied('The API key is unknown, revoked or expired');
    const decision = await limiter?.check(key.id, now);
    if (decision && !decision.allowed) {
      throw AdminError.of(429, 'rateLimited', `Too many requests; retry in ${decision.retryAfterSeconds} s`, 'base', {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
    if (!site.adminApiEnabled) {
      throw AdminError.of(403, 'forbidden', "This site's plan does not include Admin API access");
    }
    c.set('key', key);
    c.set('site', site);
    await next();
  };
}

/** A key without the scope learns nothing, not even that the resource exists (spec 5.1). */
export function requireScope(key: ApiKeyRecord, scope: Scope): void {
  if (!key.scopes.includes(scope)) throw notFound();
}
