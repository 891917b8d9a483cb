import type { MemberValues } from './member-values';

/**
 * `data-svc-member-info` on an element that is not a form control (spec 4.1; ./member-info):
 * while a member is logged in, its content is one text node holding the value (text, never
 * markup); without a value, the page's own content (a placeholder, or nothing) is put back. An
 * `<img>` has no content: the value is its `src` (a `profileImageUrl`), and its own comes back.
 */
export class MemberText {
  readonly _texts = new WeakMap<Element, Text>();
  /** The element's own content, set aside while the value is shown. */
  readonly _saved = new WeakMap<Element, Node[]>();
  /** An image's own `src` (null: none), set aside while the value is its source. */
  readonly _srcs = new WeakMap<Element, string | null>();

  constructor(readonly _values: MemberValues) {}

  _render(element: Element): void {
    const value = this._values._value(element);
    const text = value === undefined ? '' : this._values._text(value);
    if (!text) return this._restore(element);
    if (element.tagName === 'IMG') {
      if (!this._srcs.has(element)) this._srcs.set(element, element.getAttribute('src'));
      // The same source again would fetch it again.
      if (element.getAttribute('src') !== text) element.setAttribute('src', text);
      return;
    }
    const node = this._texts.get(element);
    if (node?.parentNode === element) {
      if (node.data !== text) node.data = text;
      return;
    }
    const fresh = element.ownerDocument.createTextNode(text);
    this._saved.set(element, [...element.childNodes]);
    this._texts.set(element, fresh);
    element.replaceChildren(fresh);
  }

  _restore(element: Element): void {
    if (this._srcs.has(element)) {
      const src = this._srcs.get(element)!;
      this._srcs.delete(element);
      if (src === null) element.removeAttribute('src');
      else element.setAttribute('src', src);
    }
    const node = this._texts.get(element);
    if (!node) return;
    this._texts.delete(element);
    // If the page has replaced the content meanwhile, what it put there stays.
    if (node.parentNode === element) element.replaceChildren(...this._saved.get(element)!);
    this._saved.delete(element);
  }
}
