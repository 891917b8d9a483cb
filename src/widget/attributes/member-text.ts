import type { MemberValues } from './member-values';

/**
 * `data-svc-member-info` on an element that is not a form control (spec 4.1; ./member-info):
 * while a member is logged in, its content is one text node holding the value (text, never
 * markup); without a value, the page's own content (a placeholder, or nothing) is put back.
 */
export class MemberText {
  readonly _texts = new WeakMap<Element, Text>();
  /** The element's own content, set aside while the value is shown. */
  readonly _saved = new WeakMap<Element, Node[]>();
  /** The value as written into the text node, to tell the page's text added to it. */
  readonly _written = new WeakMap<Element, string>();

  constructor(readonly _values: MemberValues) {}

  _render(element: Element): void {
    const value = this._values._value(element);
    const text = value === undefined ? '' : this._values._text(value);
    if (!text) return this._restore(element);
    const node = this._texts.get(element);
    this._written.set(element, text);
    if (node?.parentNode === element) {
      if (node.data !== text) node.data = text;
      return;
    }
    const fresh = element.ownerDocument.createTextNode(text);
    this._saved.set(element, [...element.childNodes]);
    this._texts.set(element, fresh);
    element.replaceChildren(fresh);
  }

  /**
   * Content that joined the value's text node (the parser's, when the element was drawn before
   * its content arrived) belongs to the page: it is set aside with the rest, for the logout.
   */
  _contentChanged(element: Element): void {
    const node = this._texts.get(element);
    const written = this._written.get(element)!;
    if (node?.parentNode !== element || (element.childNodes.length === 1 && node.data === written)) return;
    const saved = this._saved.get(element)!;
    // The parser adds text to the text node an element ends with: ours, if the element was drawn.
    if (node.data !== written && node.data.startsWith(written)) saved.push(node.ownerDocument.createTextNode(node.data.slice(written.length)));
    saved.push(...[...element.childNodes].filter((child) => child !== node));
    node.data = written;
    element.replaceChildren(node);
  }

  _restore(element: Element): void {
    const node = this._texts.get(element);
    if (!node) return;
    this._texts.delete(element);
    // If the page has replaced the content meanwhile, what it put there stays.
    if (node.parentNode === element) element.replaceChildren(...this._saved.get(element)!);
    this._saved.delete(element);
  }
}
