/**
 * The headers every answer of the service carries, whoever made it (a route, an error, a CORS
 * preflight, a static file). Applied at the two places answers leave: the app's outermost
 * middleware (app.ts: the member and Admin APIs, /healthz, every error) and the static files'
 * handler (static-files.ts, which wraps the app under `svc serve`). Pages set their own policy
 * (static-files.ts), which is kept.
 */
import { headerOf, withHeaders } from './answer';

/**
 * For a JSON answer opened as a page: nothing loads or runs, and no other site can frame it.
 * JSON is data to `fetch`; this costs nothing there.
 */
export const JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

/**
 * `response` with the headers (./answer: an answer of ours made anew with them, any other changed
 * in place or copied when its headers cannot be changed).
 */
export function withSecurityHeaders(response: Response): Response {
  // No browser may guess another type than the one sent (a JSON body read as HTML, say).
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (JSON_TYPE.test(headerOf(response, 'content-type') ?? '') && headerOf(response, 'content-security-policy') === null) {
    headers['content-security-policy'] = JSON_CONTENT_SECURITY_POLICY;
  }
  return withHeaders(response, headers);
}
