import type { MemberValue, MemberValues } from './member-values';

/** Input types that hold no typed text: nothing is filled into them. */
const NOT_TEXT = /^(button|submit|reset|image|file)$/;

/**
 * `data-svc-member-info` on a form control (spec 4.1; ./member-info): filled once, as soon as
 * there is a member to fill it from, and never again, so what the visitor types survives a
 * later login.
 */
export class Prefill {
  readonly _filled = new WeakSet<Element>();

  constructor(readonly _values: MemberValues) {}

  _render(element: Element): void {
    if (this._filled.has(element)) return;
    const value = this._values._value(element);
    if (value === undefined) return;
    const checkbox = (element as HTMLInputElement).type === 'checkbox' && element.tagName === 'INPUT';
    const text = checkbox ? '' : this._values._text(value);
    if (text === null) return; // the site's language is on its way; this runs again then
    this._filled.add(element);
    if (!fill(element, value, text)) return;
    // Frameworks that keep their own copy of a field's value learn of the change as from typing.
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/** Puts the value in the control; false when this control cannot take it. */
function fill(element: Element, value: MemberValue, text: string): boolean {
  // An empty value fills nothing: not even a select's empty placeholder option.
  if (!text && typeof value !== 'boolean') return false;
  if (element.tagName === 'SELECT') {
    const select = element as HTMLSelectElement;
    const wanted = select.multiple && Array.isArray(value) ? value : [text];
    const options = [...select.options];
    if (!options.some((option) => wanted.includes(option.value))) return false;
    for (const option of options) setNative(option, 'selected', wanted.includes(option.value));
    return true;
  }
  const input = element as HTMLInputElement;
  const type = element.tagName === 'INPUT' ? input.type : 'textarea';
  // A checkbox takes only a checkbox field's value; a radio button only its own exact value.
  if (type === 'checkbox') return typeof value === 'boolean' && setNative(input, 'checked', value);
  if (type === 'radio') return input.value === text && setNative(input, 'checked', true);
  return !NOT_TEXT.test(type) && setNative(input, 'value', text);
}

/**
 * Sets a property through the element's native setter. React, for one, shadows `value` and
 * `checked` on the element itself to track them; the native setter lets its change handler fire.
 */
function setNative(element: Element, name: 'value' | 'checked' | 'selected', value: string | boolean): true {
  let proto: object | null = Object.getPrototypeOf(element);
  let descriptor: PropertyDescriptor | undefined;
  while (proto && !(descriptor = Object.getOwnPropertyDescriptor(proto, name))) proto = Object.getPrototypeOf(proto);
  if (descriptor?.set) descriptor.set.call(element, value);
  else (element as unknown as Record<string, unknown>)[name] = value;
  return true;
}
