import type { KeyValueStore } from './storage';

/** Where the session token lives: localStorage, or a cookie shared by subdomains (spec 1.2). */
export interface TokenStore {
  _get(): string | null;
  _set(token: string): void;
  _clear(): void;
}

export function storageTokenStore(storage: KeyValueStore, key: string): TokenStore {
  return {
    _get: () => storage._get(key),
    _set: (token) => storage._set(key, token),
    _clear: () => storage._remove(key),
  };
}
