/**
 * The service's own origin as the client reached it, for the absolute URLs an answer hands out
 * (a member's uploaded picture, decision 0039). The request's URL has the Host the client sent;
 * its scheme is the connection's, which behind a proxy that holds the TLS certificate is plain
 * http. So, as far as SVC_TRUST_PROXY says proxies stand in front, `X-Forwarded-Proto` names the
 * scheme the client used (read like X-Forwarded-For, ./client-address: the N-th entry from the
 * right); any other value, or one no trusted proxy wrote, leaves the connection's scheme.
 */
export function publicOrigin(request: Request, trustedProxies: number): string {
  const url = new URL(request.url);
  if (trustedProxies > 0) {
    const hops = request.headers.get('x-forwarded-proto')?.split(',').map((hop) => hop.trim().toLowerCase()).filter((hop) => hop !== '') ?? [];
    const scheme = hops[Math.max(0, hops.length - trustedProxies)];
    if (scheme === 'https' || scheme === 'http') url.protocol = `${scheme}:`;
  }
  return url.origin;
}
