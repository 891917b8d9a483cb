/**
 * The member API is where widgets.js came from: the origin of this script's own URL.
 * `currentScript` is set while the script first runs; otherwise the last install script.
 */
export function scriptOrigin(doc: Document): string | null {
  const current = doc.currentScript as HTMLScriptElement | null;
  const src =
    current?.src || [...doc.querySelectorAll<HTMLScriptElement>('script[src*="/scripts/widgets."]')].pop()?.src;
  try {
    return src ? new URL(src, doc.baseURI).origin : null;
  } catch {
    return null;
  }
}
