/**
 * Which browser origins may call a site's member API: its own domain and every subdomain of
 * it, over http or https on any port; for the demo site also loopback, so the examples work
 * from a developer's machine. Anything else gets no CORS headers and a 403.
 */
import type { SiteRecord } from '../store/records';

const DEMO_SUBDOMAIN = 'demo';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A web page's origin as browsers send it (`https://host:port`): the URL, or undefined for anything else (`null`, a path). */
export function webOrigin(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin ? url : undefined;
  } catch {
    return undefined;
  }
}

export function isAllowedOrigin(origin: string, site: SiteRecord, ownOrigin: string): boolean {
  if (origin === ownOrigin) return true;
  const url = webOrigin(origin);
  if (!url) return false;
  const host = url.hostname.toLowerCase();
  const domain = site.domain.toLowerCase();
  if (host === domain || host.endsWith(`.${domain}`)) return true;
  return site.subdomain === DEMO_SUBDOMAIN && LOOPBACK_HOSTS.has(host);
}

export const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';

export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'Retry-After',
    vary: 'Origin',
  };
}

export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': 'Authorization, Content-Type',
    'access-control-max-age': '600',
  };
}
