import { httpOrigin } from './api-origin';

/**
 * The member API is where widgets.js came from: the origin of this script's own URL.
 * `currentScript` is set while the script first runs; otherwise the last install script.
 * (A script element's `src` reads as an absolute URL.)
 */
export function scriptOrigin(doc: Document): string | null {
  const current = doc.currentScript as HTMLScriptElement | null;
  return httpOrigin(current?.src || [...doc.querySelectorAll<HTMLScriptElement>('script[src*="/scripts/widgets."]')].pop()?.src);
}
