import { log } from './diagnostics';
import type { TokenStore } from './token-store';

/** The service's longest session: 30 days after sign-in. */
const MAX_AGE_SECONDS = 30 * 24 * 3600;

/**
 * The token in a cookie on `domain`, so every subdomain's widget reads the same login.
 * When the browser refuses the cookie, the token stays in this page's memory instead.
 */
export function cookieTokenStore(doc: Document, name: string, domain: string, secure: boolean): TokenStore {
  let blocked = false;
  let memory: string | null = null;
  const read = (): string | null => {
    try {
      for (const pair of doc.cookie.split(';')) {
        const at = pair.indexOf('=');
        if (pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1).trim()) || null;
      }
    } catch {
      // Sandboxed documents throw on document.cookie; malformed values throw on decoding.
    }
    return null;
  };
  const write = (value: string, lifetime: string): void => {
    try {
      doc.cookie = `${name}=${value}; Domain=${domain}; Path=/; ${lifetime}; SameSite=Lax${secure ? '; Secure' : ''}`;
    } catch {
      // Read back below.
    }
  };
  return {
    _get: () => (blocked ? memory : read()),
    _set(token) {
      memory = token;
      write(encodeURIComponent(token), `Max-Age=${MAX_AGE_SECONDS}`);
      if (!blocked && read() !== token) {
        blocked = true;
        log.warn(`the browser refused the login cookie on ${domain}: the login holds on this page only.`);
      }
    },
    _clear() {
      memory = null;
      // Expires, not Max-Age=0: a zero lifetime is not "expired" for every cookie jar.
      write('', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    },
  };
}
