/**
 * Elements made in code, for the whole console: attributes and text nodes only, never HTML
 * parsed from a string, so nothing read from the API (a member's name, an event's details) can
 * become markup.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];
type AttributeValue = string | number | boolean | null | undefined;
export interface Props {
  [attribute: string]: AttributeValue | ((event: never) => void) | undefined;
}

function apply(element: Element, props: Props | null | undefined, children: readonly Child[]): void {
  for (const [name, value] of Object.entries(props ?? {})) {
    if (typeof value === 'function') {
      // `onclick` → the `click` event; listeners, never attribute handlers (the CSP forbids those).
      element.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: `h('a', { href: '#/members' }, 'Members')`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, props, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element, for the charts. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  apply(element, props, children);
  return element;
}

/** Replaces everything in `parent` with `children`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let ids = 0;
/** An id unique in the page, for `aria-labelledby` and `for`. */
export const uniqueId = (prefix: string): string => `${prefix}-${++ids}`;
