/**
 * Opaque, tamper-evident keyset cursors. A cursor names the last id a page returned and carries
 * an HMAC over that id together with the site, the endpoint and the exact filter set. A cursor
 * replayed against another endpoint, another site or other filters, or edited by hand, fails
 * the check and the request answers 400 `invalidCursor`.
 */
import { hmac, type _HMAC } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { constantTimeEqual, fromBase64Url } from '../crypto/bytes';

export interface CursorScope {
  siteId: number;
  endpoint: string;
  /** The request's filters in one canonical string (see canonicalFilters). */
  filters: string;
}

const MAC_BYTES = 16;

const utf8 = new TextEncoder();
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
type Mac = _HMAC<ReturnType<typeof sha256.create>>;

/**
 * Every list page with more after it signs a cursor, so the MAC allocates nothing: the keyed
 * HMAC-SHA256 is copied into one scratch instance per codec and digested into one buffer (the
 * same bytes as `hmacSha256` in crypto/digests.ts, which made a new hash per cursor and cost a
 * page 4% of its req/s: docs/decisions/0027-request-cost.md). Synchronous, so one scratch is enough.
 */
export class CursorCodec {
  private readonly keyed: Mac;
  private readonly scratch: Mac;
  private readonly digest = new Uint8Array(32);

  constructor(secret: string) {
    this.keyed = hmac.create(sha256, utf8.encode(secret));
    this.scratch = this.keyed.clone();
  }

  encode(scope: CursorScope, lastId: number): string {
    const id = lastId.toString(36);
    const mac = this.mac(scope, id);
    // Unpadded base64url of the 16 bytes (crypto/bytes.ts toBase64Url's spelling): five groups of three, then one byte.
    let text = `${id}.`;
    for (let i = 0; i < 15; i += 3) {
      const n = (mac[i]! << 16) | (mac[i + 1]! << 8) | mac[i + 2]!;
      text += BASE64URL[n >> 18]! + BASE64URL[(n >> 12) & 63]! + BASE64URL[(n >> 6) & 63]! + BASE64URL[n & 63]!;
    }
    return text + BASE64URL[mac[15]! >> 2]! + BASE64URL[(mac[15]! & 3) << 4]!;
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

  /** The first MAC_BYTES bytes of the MAC, in the codec's buffer: valid until its next call. */
  private mac(scope: CursorScope, id: string): Uint8Array {
    const mac = this.keyed._cloneInto(this.scratch);
    mac.update(utf8.encode(`${scope.siteId}\n${scope.endpoint}\n${scope.filters}\n${id}`));
    mac.digestInto(this.digest);
    return this.digest.subarray(0, MAC_BYTES);
  }
}

/** A stable string for a filter object: keys sorted, absent values dropped. */
export function canonicalFilters(filters: object): string {
  // No filter at all, the common case: what the replacer below makes of it, without running it.
  if (Object.values(filters).every((value) => value === undefined)) return '{}';
  return JSON.stringify(filters, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}
