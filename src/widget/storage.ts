import { log } from './diagnostics';

/** String storage: localStorage when the browser allows it, this page's memory otherwise. */
export interface KeyValueStore {
  _get(key: string): string | null;
  _set(key: string, value: string): void;
  _remove(key: string): void;
}

/**
 * Private modes and disabled storage throw on access (sometimes only on write). Then the widget
 * goes on in memory: a login lasts until the page is left. Writes are mirrored in memory so
 * nothing this page wrote is lost when storage fails half-way.
 */
export function openStorage(win: Window): KeyValueStore {
  const memory = new Map<string, string>();
  let local: Storage | null = null;
  let warned = false;
  const fail = (): void => {
    local = null;
    if (!warned) log.warn('localStorage is unavailable: the login lasts only while this page is open.');
    warned = true;
  };
  const attempt = <T>(action: (storage: Storage) => T, otherwise: () => T): T => {
    if (local) {
      try {
        return action(local);
      } catch {
        fail();
      }
    }
    return otherwise();
  };
  try {
    local = win.localStorage;
    local.setItem('svc:probe', '1');
    local.removeItem('svc:probe');
  } catch {
    fail();
  }
  return {
    _get: (key) => attempt((storage) => storage.getItem(key), () => memory.get(key) ?? null),
    _set(key, value) {
      memory.set(key, value);
      attempt((storage) => storage.setItem(key, value), () => undefined);
    },
    _remove(key) {
      memory.delete(key);
      attempt((storage) => storage.removeItem(key), () => undefined);
    },
  };
}
