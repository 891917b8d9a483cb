import { log } from '../diagnostics';

/**
 * The one check of every address the widget goes to, links to, plays or downloads, whatever the
 * data behind the API says. Decided the way the browser will resolve it (its URL parser drops
 * tabs and newlines anywhere, trims C0 controls and spaces, reads `\` as `/`): an http(s) URL,
 * or an address written without a scheme (a path: `/…`, `page`, `?…`) that stays on the page's
 * origin, so `//host`, `/\t/host` or `\\host` never leave the site and `javascript:`, `data:`,
 * `blob:`, `file:` are never followed. Answers the address, or undefined after one `[Service]`
 * warning (`quiet`: none, for sanitized rich text).
 */
export function webAddress(address: string | undefined, quiet?: boolean): string | undefined {
  try {
    const url = new URL(address || 'about:', document.baseURI);
    // Same origin, or written as an absolute http(s) URL (parsing without a base throws on a path).
    if (/^https?:$/.test(url.protocol) && (url.origin === location.origin || /^https?:$/.test(new URL(address!).protocol))) return address;
  } catch {
    // a path leaving the page's origin, or no URL at all
  }
  if (!quiet) log.warn(`${JSON.stringify(address)} is neither an http(s) URL nor a path on this site; the widget does not follow it.`);
}
