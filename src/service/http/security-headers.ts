/**
 * The headers every answer of the service carries, whoever made it (a route, an error, a CORS
 * preflight, a static file). Applied at the two places answers leave: the app's outermost
 * middleware (app.ts: the member and Admin APIs, /healthz, every error) and the static files'
 * handler (static-files.ts, which wraps the app under `svc serve`). Pages set their own policy
 * (static-files.ts), which is kept.
 *
 * An answer made by `securedResponse` (every JSON answer: http/json.ts) carries them from the
 * start, in the plain headers object it is made with, and the way out leaves it as it is: under
 * `svc serve` a Response whose headers were never read as a Headers object goes to the socket
 * without one being built (@hono/node-server), and building one, setting two headers on it and
 * reading them back cost more than the rest of the way out (docs/decisions/0027-request-cost.md).
 */

/**
 * For a JSON answer opened as a page: nothing loads or runs, and no other site can frame it.
 * JSON is data to `fetch`; this costs nothing there.
 */
export const JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

/** Answers made with the security headers in place: nothing is added on the way out. */
const secured = new WeakSet<Response>();

/** Sets the headers on `response`; answers it, or a copy when its headers cannot be changed. */
export function withSecurityHeaders(response: Response): Response {
  if (secured.has(response)) return response;
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

/**
 * A response with `headers` and the security headers `withSecurityHeaders` would add, decided
 * the same way on the plain object. Names must be lower case, as everywhere in the service; with
 * any other the answer is made as given and secured on the way out instead.
 */
export function securedResponse(body: string | null, status: number, headers: Record<string, string>): Response {
  for (const name in headers) {
    if (name !== name.toLowerCase()) return new Response(body, { status, headers });
  }
  const all: Record<string, string> = { ...headers, 'x-content-type-options': 'nosniff' };
  if (JSON_TYPE.test(all['content-type'] ?? '') && all['content-security-policy'] === undefined) {
    all['content-security-policy'] = JSON_CONTENT_SECURITY_POLICY;
  }
  const response = new Response(body, { status, headers: all });
  secured.add(response);
  return response;
}

function secure(headers: Headers): void {
  // No browser may guess another type than the one sent (a JSON body read as HTML, say).
  headers.set('x-content-type-options', 'nosniff');
  const type = headers.get('content-type') ?? '';
  if (JSON_TYPE.test(type) && !headers.has('content-security-policy')) {
    headers.set('content-security-policy', JSON_CONTENT_SECURITY_POLICY);
  }
}
