import type { MemberInfo } from './public-types';
import { isObject } from './json';
import type { KeyValueStore } from './storage';

/**
 * The last MemberInfo seen, so a page can show the member at once, before the service answers.
 * It is stored with a fingerprint of the token it belongs to: with cookieDomain, another
 * subdomain may have logged someone else in, and a cache for another token must not be used.
 */
export interface MemberCache {
  _get(token: string): MemberInfo | null;
  _set(token: string, member: MemberInfo): void;
  _clear(): void;
}

/** FNV-1a: enough to tell tokens apart, and it does not give the token away. */
export function fingerprint(token: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

export function memberCache(storage: KeyValueStore, key: string): MemberCache {
  return {
    _get(token) {
      try {
        const entry: unknown = JSON.parse(storage._get(key) ?? 'null');
        return isObject(entry) && entry.f === fingerprint(token) && isObject(entry.m) ? (entry.m as unknown as MemberInfo) : null;
      } catch {
        return null;
      }
    },
    _set: (token, member) => storage._set(key, JSON.stringify({ f: fingerprint(token), m: member })),
    _clear: () => storage._remove(key),
  };
}
