/**
 * The headers every answer of the service carries, whoever made it (a route, an error, a CORS
 * preflight, a static file). Applied at the two places answers leave: the app's outermost
 * middleware (app.ts: the member and Admin APIs, /healthz, every error) and the static files'
 * handler (static-files.ts, which wraps the app under `svc serve`). Pages set their own policy
 * (static-files.ts), which is kept.
 */

/**
 * For a JSON answer opened as a page: nothing loads or runs, and no other site can frame it.
 * JSON is data to `fetch`; this costs nothing there.
 */
export const JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Sets the headers on `response`; answers it, or a copy when its headers cannot be changed. */
export function withSecurityHeaders(response: Response): Response {
  try {
    secure(response.headers);
    return response;
  } catch {
    // Immutable headers (a Response.redirect(), a fetched answer): the same answer, re-headed.
    const copy = new Response(response.body, response);
    secure(copy.headers);
    return copy;
  }
}

function secure(headers: Headers): void {
  // No browser may guess another type than the one sent (a JSON body read as HTML, say).
  headers.set('x-content-type-options', 'nosniff');
  const type = headers.get('content-type') ?? '';
  if (/^application\/([\w.-]+\+)?json\b/i.test(type) && !headers.has('content-security-policy')) {
    headers.set('content-security-policy', JSON_CONTENT_SECURITY_POLICY);
  }
}
