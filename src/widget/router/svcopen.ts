import { log } from '../diagnostics';
import { matchRoute, type Route } from './routes';

export const SVCOPEN = 'svcopen';

/**
 * Takes `svcopen` out of the page's address (spec 4.1), without a reload and keeping every
 * other parameter, the hash and the history state, so a reload or a shared link does not open
 * the screen again. Answers its route; a value that names no route is reported once and null.
 */
export function takeSvcopen(win: Window): Route | null {
  const url = new URL(win.location.href);
  const path = url.searchParams.get(SVCOPEN);
  if (path === null) return null;
  url.searchParams.delete(SVCOPEN);
  win.history.replaceState(win.history.state, '', url.href);
  const route = matchRoute(path);
  if (!route) log.warn(`${SVCOPEN}=${path} names no screen; see the svcopen paths of the widget's documentation.`);
  return route;
}
