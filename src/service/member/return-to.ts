/**
 * Where a mailed link leads: the page the member asked from (`returnTo`, sent by the widget),
 * taken only on the site's own domain, a subdomain of it, or loopback for the demo site (the
 * same rule as CORS). Never built from the request's Host, so a forged Host header cannot point
 * a reset link at someone else's server. Absent, or a page elsewhere (the service's own pages,
 * such as the examples of a site that is not the demo): the site's home page. Something that is
 * no web address at all is refused.
 */
import { siteHome } from '../domain/site-mail';
import type { SiteRecord } from '../store/records';
import { isAllowedOrigin } from './cors';
import { bad, type Problems } from './signup';

const MAX_LENGTH = 2000;

export function readReturnTo(value: unknown, site: SiteRecord, problems: Problems): string {
  if (value === undefined || value === null || value === '') return siteHome(site);
  let url: URL | undefined;
  try {
    url = typeof value === 'string' && value.length <= MAX_LENGTH ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    bad(problems, 'returnTo', 'must be the address (http or https) of a page of this site');
    return siteHome(site);
  }
  // No own origin: the service's address is never a place to send a member back to.
  return isAllowedOrigin(url.origin, site, '') ? url.href : siteHome(site);
}
