/**
 * Opaque, tamper-evident keyset cursors. A cursor names the last id a page returned and carries
 * an HMAC over that id together with the site, the endpoint and the exact filter set. A cursor
 * replayed against another endpoint, another site or other filters, or edited by hand, fails
 * the check and the request answers 400 `invalidCursor`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CursorScope {
  siteId: number;
  endpoint: string;
  /** The request's filters in one canonical string (see canonicalFilters). */
  filters: string;
}

const MAC_BYTES = 16;

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(scope: CursorScope, lastId: number): string {
    const id = lastId.toString(36);
    return `${id}.${this.mac(scope, id).toString('base64url')}`;
  }

  /** The last id the cursor names, or undefined when it is not one this service issued for `scope`. */
  decode(scope: CursorScope, cursor: string): number | undefined {
    const match = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
    if (!match) return undefined;
    const [, id, mac] = match as unknown as [string, string, string];
    const given = Buffer.from(mac, 'base64url');
    // The last base64 character has spare bits the decoder ignores; only the one spelling we
    // issue is accepted, so no edited cursor passes.
    if (given.length !== MAC_BYTES || given.toString('base64url') !== mac) return undefined;
    if (!timingSafeEqual(given, this.mac(scope, id))) return undefined;
    const lastId = parseInt(id, 36);
    return Number.isSafeInteger(lastId) ? lastId : undefined;
  }

  private mac(scope: CursorScope, id: string): Buffer {
    return createHmac('sha256', this.secret)
      .update(`${scope.siteId}\n${scope.endpoint}\n${scope.filters}\n${id}`)
      .digest()
      .subarray(0, MAC_BYTES);
  }
}

/** A stable string for a filter object: keys sorted, absent values dropped. */
export function canonicalFilters(filters: object): string {
  return JSON.stringify(filters, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}
