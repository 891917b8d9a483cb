import type { SiteConfig } from '../contract/member';
import type { ApiRequest } from './api-client';
import { log } from './diagnostics';
import type { KeyValueStore } from './storage';

/** A stored locale older than this is used once more while the service is asked again. */
export const LOCALE_MAX_AGE_MS = 86_400_000;

/**
 * The site's locale (an ISO 639-1 code, from `GET /config`), asked for only when a page needs
 * it, and kept in storage so the next page has it at once.
 */
export interface SiteLocale {
  /** The locale when known; otherwise null, and it is being fetched: `_loaded` follows. */
  _get(): string | null;
  /** Called when a fetched locale arrives (or the fetch fails, and English stands in). */
  _loaded: () => void;
}

export function siteLocale(request: ApiRequest, storage: KeyValueStore, key: string): SiteLocale {
  let locale: string | null = null;
  let fetching = false;
  const fetchLocale = (): void => {
    if (fetching) return;
    fetching = true;
    request<SiteConfig>('GET', '/config').then(
      (config) => {
        const fresh = typeof config.locale === 'string' ? config.locale : 'en';
        storage._set(key, JSON.stringify([fresh, Date.now()]));
        if (fresh === locale) return;
        locale = fresh;
        self._loaded();
      },
      (error: Error) => {
        log.warn(`could not read the site's locale, English stands in: ${error.message}`);
        if (locale) return;
        locale = 'en';
        self._loaded();
      },
    );
  };
  const self: SiteLocale = {
    _get() {
      if (locale || fetching) return locale;
      let stored: unknown;
      try {
        stored = JSON.parse(storage._get(key) ?? 'null');
      } catch {
        // unreadable: fetched again below
      }
      if (Array.isArray(stored) && typeof stored[0] === 'string' && typeof stored[1] === 'number') {
        locale = stored[0];
        if (Date.now() - stored[1] > LOCALE_MAX_AGE_MS) fetchLocale();
      } else fetchLocale();
      return locale;
    },
    _loaded: () => undefined,
  };
  return self;
}
