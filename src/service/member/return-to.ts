/**
 * Where a mailed link leads: the page the member asked from (`returnTo`, sent by the widget),
 * taken only on the site's own origin: its domain or a subdomain of it (the same hosts as CORS,
 * loopback too for the demo site), over the site's own scheme and port. A site on the internet
 * is served over https on the default port, so `http://` and any other port of its domain are
 * not its pages; a site on a loopback name (localhost, *.localhost, 127.0.0.1, [::1]) is served
 * by a developer's machine, so there http and any port are its own. (A site record has no
 * setting that says it is served over http or on a port: the domain is a host name alone.)
 * Never built from the request's Host, so a forged Host header cannot point a reset link at
 * someone else's server. Absent, or a page elsewhere (the service's own pages, such as the
 * examples of a site that is not the demo; another scheme or port of the site's domain): the
 * site's home page. Something that is no web address at all (a control character in it too) is refused.
 */
import { siteHome } from '../domain/site-mail';
import { textProblem } from '../domain/validation';
import type { SiteRecord } from '../store/records';
import { isAllowedOrigin } from './cors';
import { bad, type Problems } from './signup';

const MAX_LENGTH = 2000;

/** Host names a browser resolves to the machine it runs on. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';
}

/** Whether `url` is on the scheme and port of the site's pages: https on the default port, anything on loopback. */
function onSitesSchemeAndPort(url: URL): boolean {
  return isLoopbackHost(url.hostname) || (url.protocol === 'https:' && url.port === '');
}

export function readReturnTo(value: unknown, site: SiteRecord, problems: Problems): string {
  if (value === undefined || value === null || value === '') return siteHome(site);
  let url: URL | undefined;
  try {
    // A tab or a line break the URL parser would drop unseen is no part of an address: the one text rule.
    url = typeof value === 'string' && value.length <= MAX_LENGTH && textProblem(value) === undefined ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    bad(problems, 'returnTo', 'must be the address (http or https) of a page of this site');
    return siteHome(site);
  }
  // No own origin: the service's address is never a place to send a member back to.
  return isAllowedOrigin(url.origin, site, '') && onSitesSchemeAndPort(url) ? url.href : siteHome(site);
}
