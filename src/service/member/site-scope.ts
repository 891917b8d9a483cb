/**
 * Every route under /sites/:subdomain/ is one site's: the site is found by its subdomain, and
 * browsers may call it only from that site's origins (./cors). Preflights are answered here;
 * every answer says it depends on the Origin.
 */
import { answer, replaceAnswer, withHeaders } from '../http/answer';
import { textProblem } from '../domain/validation';
import type { Store } from '../store/store';
import type { MemberApp } from './context';
import { corsHeaders, isAllowedOrigin, preflightHeaders, webOrigin } from './cors';
import { MemberError } from './errors';

const VARY_ORIGIN = { vary: 'Origin' };

export function siteScope(app: MemberApp, store: Store): void {
  app.use('/sites/:subdomain/*', async (c, next) => {
    const origin = c.req.header('origin');
    const subdomain = c.req.param('subdomain');
    // PostgreSQL refuses a NUL with an error of its own (a 500): such a name is no site's.
    const site = textProblem(subdomain) === undefined ? await store.getSiteBySubdomain(subdomain) : undefined;
    let allowed = false;
    try {
      // Said to any origin: a widget with a wrong subdomain should be able to read why.
      allowed = origin !== undefined && (!site || isAllowedOrigin(origin, site, new URL(c.req.url).origin));
      if (!site) throw MemberError.of(404, 'notFound', 'No site with that subdomain');
      if (origin !== undefined && !allowed) {
        throw MemberError.of(403, 'originNotAllowed', `Pages on ${origin} may not call this site's member API: it answers pages on ${site.domain} and its subdomains`);
      }
      if (origin !== undefined && c.req.method === 'OPTIONS') {
        replaceAnswer(c, answer(null, 204, preflightHeaders(origin)));
      } else {
        c.set('site', site);
        await next();
      }
    } catch (error) {
      if (!(error instanceof MemberError)) throw error;
      replaceAnswer(c, error.toResponse());
    }
    // Every answer depends on the Origin (CORS headers, or a 403), so caches must key on it. A
    // refused page may read the refusal of a GET (what it asked for is the site's public
    // settings at most, and it gets none of them), so the widget can tell its developer which
    // domain the site answers instead of "could not be reached"; nothing else it sends (a
    // preflight, a write) is answered in a way its page can read.
    const readable = allowed || (origin !== undefined && c.req.method === 'GET' && webOrigin(origin) !== undefined);
    replaceAnswer(c, withHeaders(c.res, readable ? corsHeaders(origin!) : VARY_ORIGIN));
  });
}
