export const SVCOPEN = 'svcopen';

/**
 * Takes `svcopen` out of the page's address (spec 4.1), without a reload and keeping every
 * other parameter, the hash and the history state, so a reload or a shared link does not open
 * the screen again. Answers the path it held; which screen that is, the modal bundle decides
 * (routes.ts is there, not in widgets.js).
 */
export function takeSvcopen(win: Window): string | null {
  const url = new URL(win.location.href);
  const path = url.searchParams.get(SVCOPEN);
  if (path === null) return null;
  // The other parameters stay exactly as written: rebuilding them through URLSearchParams
  // would re-encode them (%20 to +, / to %2F, a bare `flag` to `flag=`).
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => new URLSearchParams(pair).keys().next().value !== SVCOPEN);
  url.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  win.history.replaceState(win.history.state, '', url.href);
  return path;
}
