import type { Session } from './session';

/** A member change made elsewhere is picked up when the page comes back after this long. */
export const REFRESH_AFTER_MS = 30_000;
/** How often the login cookie is read, in cookie mode: nothing announces a cookie change. */
export const COOKIE_POLL_MS = 1_500;

/**
 * Keeps the session in step with the world outside this page: other tabs (storage events),
 * other subdomains (the cookie), changes on the service (refresh on return). Answers `stop`.
 */
export function watchSession(win: Window, session: Session, storageKeys: string[], pollCookie: boolean): () => void {
  const doc = win.document;
  const onReturn = (): void => {
    if (doc.visibilityState !== 'hidden') session._refreshIfOlder(REFRESH_AFTER_MS);
  };
  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || storageKeys.includes(event.key)) session._sync();
  };
  doc.addEventListener('visibilitychange', onReturn);
  win.addEventListener('focus', onReturn);
  win.addEventListener('storage', onStorage);
  const timer = pollCookie ? win.setInterval(() => session._sync(), COOKIE_POLL_MS) : undefined;
  return () => {
    doc.removeEventListener('visibilitychange', onReturn);
    win.removeEventListener('focus', onReturn);
    win.removeEventListener('storage', onStorage);
    win.clearInterval(timer);
  };
}
