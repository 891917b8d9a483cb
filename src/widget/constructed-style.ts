/**
 * A stylesheet of the widget's own in `root` (the page, or a dialog's shadow root) that a page's
 * Content-Security-Policy leaves alone: a constructed sheet (`adoptedStyleSheets`), which no
 * `style-src` governs, where a `<style>` element would be refused by a policy without
 * 'unsafe-inline' (docs/security.md). Browsers without constructed sheets (before Safari 16.4)
 * get the `<style>` element, as before. Answers how to set the rules, and how to take the sheet
 * away again.
 */
export function constructedStyle(root: Document | ShadowRoot): { _set(css: string): void; _remove(): void } {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return {
      _set: (css) => sheet.replaceSync(css),
      _remove: () => void (root.adoptedStyleSheets = root.adoptedStyleSheets.filter((adopted) => adopted !== sheet)),
    };
  }
  const doc = (root as Node).ownerDocument ?? (root as Document);
  const style = doc.createElement('style');
  ('head' in root ? (root.head ?? root.documentElement) : root).append(style);
  return { _set: (css) => void (style.textContent = css), _remove: () => style.remove() };
}
