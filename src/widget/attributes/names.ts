/** The attributes of spec 4.1 a page writes, and the one the widget writes back. */
export const SHOW = 'data-svc-show';
export const HIDE = 'data-svc-hide';
export const MEMBER_INFO = 'data-svc-member-info';
/** Set by the widget on a conditional element it hides; the page's own styles are untouched. */
export const HIDDEN = 'data-svc-hidden';

/** Elements a value is filled into (prefill) rather than written into (embedding). */
export const isFormControl = (element: Element): boolean => /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName);

/**
 * While the document loads, an element on its last-child edge may still be getting content from
 * the parser (a placeholder's text, a select's options): it is drawn once the document is parsed.
 */
export function stillArriving(element: Element): boolean {
  if (element.ownerDocument.readyState !== 'loading') return false;
  for (let node: Node | null = element; node; node = node.parentNode) if (node.nextSibling) return false;
  return true;
}
