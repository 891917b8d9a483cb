/**
 * The CSS the widget gives its constructed stylesheets (`replaceSync`), as written: happy-dom
 * parses a sheet's rules but drops what it does not know (`rgb(0 0 0/.5)`), so the tests read the
 * text handed to each sheet a root has adopted. Importing this module starts the recording.
 */
const texts = new WeakMap<CSSStyleSheet, string>();
const replaceSync = CSSStyleSheet.prototype.replaceSync;
CSSStyleSheet.prototype.replaceSync = function (this: CSSStyleSheet, text: string) {
  texts.set(this, text);
  return replaceSync.call(this, text);
};

/** The CSS of every sheet `root` has adopted, in order; a sheet not written through replaceSync counts as ''. */
export const adoptedCss = (root: Document | ShadowRoot): string => root.adoptedStyleSheets.map((sheet) => texts.get(sheet) ?? '').join('');
