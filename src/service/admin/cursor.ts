/**
 * Opaque, tamper-evident keyset cursors. A cursor names the last id a page returned and carries
 * an HMAC over that id together with the site, the endpoint and the exact filter set. A cursor
 * replayed against another endpoint, another site or other filters, or edited by hand, fails
 * the check and the request answers 400 `invalidCursor`.
 */
import { constantTimeEqual, fromBase64Url, toBase64Url } from '../crypto/bytes';
import { hmacSha256 } from '../crypto/digests';

export interface CursorScope {
  siteId: number;
  endpoint: string;
  /** The request's filters in one canonical string (see canonicalFilters). */
  filters: string;
}

const MAC_BYTES = 16;

export class CursorCodec {
  private readonly sign: (message: string) => Uint8Array;

  constructor(secret: string) {
    this.sign = hmacSha256(secret);
  }

  encode(scope: CursorScope, lastId: number): string {
    const id = lastId.toString(36);
    return `${id}.${toBase64Url(this.mac(scope, id))}`;
  }

  /** The last id the cursor names, or undefined when it is not one this service issued for `scope`. */
  decode(scope: CursorScope, cursor: string): number | undefined {
    const match = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
    if (!match) return undefined;
    const [, id, mac] = match as unknown as [string, string, string];
    // fromBase64Url accepts only the one spelling we issue, so no edited cursor passes.
    const given = fromBase64Url(mac);
    if (given?.length !== MAC_BYTES || !constantTimeEqual(given, this.mac(scope, id))) return undefined;
    const lastId = parseInt(id, 36);
    return Number.isSafeInteger(lastId) ? lastId : undefined;
  }

  private mac(scope: CursorScope, id: string): Uint8Array {
    return this.sign(`${scope.siteId}\n${scope.endpoint}\n${scope.filters}\n${id}`).subarray(0, MAC_BYTES);
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
