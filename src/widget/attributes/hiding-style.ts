import { HIDDEN } from './names';

const RULE = `[${HIDDEN}]{display:none!important}`;

/**
 * The one style the widget adds to the page: what it hides stays hidden whatever the page's
 * own styles say, inline ones included. A constructed sheet where the browser has them, as a
 * Content-Security-Policy without 'unsafe-inline' blocks a <style> element but not these.
 * Answers a function that takes the style away again.
 */
export function addHidingStyle(doc: Document): () => void {
  if ('adoptedStyleSheets' in doc && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(RULE);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    return () => {
      doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    };
  }
  const style = doc.createElement('style');
  style.textContent = RULE;
  (doc.head ?? doc.documentElement).append(style);
  return () => style.remove();
}
