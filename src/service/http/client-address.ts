/**
 * Who sent a request, as far as the service can tell. The fetch-standard app sees no socket, so
 * the server passes what it knows of the connection beside the Request (server.ts); inside MSW
 * or `app.request` there is none, and limits per client address do not apply there.
 *
 * Behind reverse proxies the socket's peer is the nearest proxy, and the client is named in
 * `X-Forwarded-For`, which anyone can also send. So the header is believed only as far as the
 * operator says proxies stand in front (SVC_TRUST_PROXY=N): each trusted proxy appends the
 * address it saw, and the client is the N-th entry from the right. Entries further left were
 * written by the client itself and are never used.
 */

/** What the server knows of a request's connection. */
export interface Connection {
  remoteAddress?: string;
  /** The request's id in `svc serve`'s logs (access-log.ts), for the app's own lines about it. */
  requestId?: string;
}

export function clientAddress(request: Request, connection: Connection | undefined, trustedProxies: number): string | undefined {
  if (trustedProxies > 0) {
    const forwarded = request.headers.get('x-forwarded-for');
    const hops = forwarded?.split(',').map((hop) => hop.trim()).filter((hop) => hop !== '') ?? [];
    if (hops.length > 0) return hops[Math.max(0, hops.length - trustedProxies)];
  }
  return connection?.remoteAddress;
}

/** Parses SVC_TRUST_PROXY: how many proxies stand in front (0 to 9; `false`/`true` as 0/1). */
export function parseTrustProxy(text: string | undefined): number | undefined {
  if (text === undefined || text === '' || text === 'false' || text === 'off') return 0;
  if (text === 'true' || text === 'on') return 1;
  return /^\d$/.test(text) ? Number(text) : undefined;
}
