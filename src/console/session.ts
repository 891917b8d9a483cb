/**
 * The owner's Admin API key, kept in this tab's sessionStorage only: it survives a reload, is gone
 * when the tab closes, is never shared with other tabs, and is forgotten at once by "Sign out /
 * forget key". Never in localStorage, a cookie or the URL.
 */
const STORAGE_KEY = 'svc-console-admin-key';
export const KEY_PREFIX = 'svc_admin_';

export function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined; // storage turned off: the owner signs in again after a reload
  }
}

export function storeKey(key: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Kept in memory only, for this page's life.
  }
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}
