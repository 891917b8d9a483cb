/**
 * Answers whose headers stay a plain object until they reach the socket. Under `svc serve`,
 * @hono/node-server writes a Response made with a plain headers object straight to the socket;
 * reading or setting `response.headers` first builds a WHATWG Headers object, and copying it back
 * out costs more than the rest of the way out (docs/decisions/0027-request-cost.md). So the
 * layers that add headers on the way out (the security headers, the Admin API's no-store, the
 * member API's CORS headers) go through `withHeaders`, which makes an answer of ours anew with the
 * extra headers instead of touching its Headers. Everywhere else (tests, MSW) the same calls give
 * the same answers.
 *
 * An answer made here must be changed only through `withHeaders`: its plain headers are what
 * `withHeaders` builds on.
 */
import type { Context } from 'hono';

interface Parts {
  body: string | null;
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
}

const made = new WeakMap<Response, Parts>();

/** A Response with `headers` kept plain (names as given, lower-cased when they are not). */
export function answer(body: string | null, status: number, headers: Record<string, string>): Response {
  let plain = headers;
  for (const name in headers) {
    if (name !== name.toLowerCase()) {
      plain = Object.fromEntries(Object.entries(headers).map(([n, v]) => [n.toLowerCase(), v]));
      break;
    }
  }
  const response = new Response(body, { status, headers: plain });
  made.set(response, { body, status, headers: plain });
  return response;
}

/** The value of header `name` (lower case), without building a Headers object for an answer of ours. */
export function headerOf(response: Response, name: string): string | null {
  const parts = made.get(response);
  return parts ? (parts.headers[name] ?? null) : response.headers.get(name);
}

/**
 * `response` with `headers` set, each replacing one of the same name: an answer of ours made anew,
 * any other changed in place, or copied when its headers cannot be changed (a
 * `Response.redirect()`, a fetched answer).
 */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  const parts = made.get(response);
  if (parts) {
    // Already so (the security headers jsonResponse sets from the start): the same answer.
    let same = true;
    for (const name in headers) if (parts.headers[name] !== headers[name]) same = false;
    return same ? response : answer(parts.body, parts.status, { ...parts.headers, ...headers });
  }
  try {
    for (const name in headers) response.headers.set(name, headers[name]!);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const name in headers) copy.headers.set(name, headers[name]!);
    return copy;
  }
}

/**
 * Puts `response` in place of the context's answer. Hono copies the old answer's headers into a
 * new one on assignment (building both Headers objects); clearing it first makes that a plain swap.
 */
export function replaceAnswer(c: Context, response: Response): void {
  if (response === c.res) return;
  c.res = undefined;
  c.res = response;
}
