/**
 * Building the screens' DOM without a framework: elements with text (never markup), labelled
 * form fields named as the API names them (DESIGN.md), and errors shown next to the form.
 */
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

let fieldCount = 0;

/** A label with its control; `name` is the API field name, so errors can find it by path. */
export function labelled(doc: Document, text: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): HTMLElement {
  const id = `svc-field-${++fieldCount}`;
  control.id = id;
  const error = el(doc, 'span', { class: 'field-error', id: `${id}-error` });
  control.setAttribute('aria-describedby', error.id);
  return el(doc, 'div', { class: 'field' }, el(doc, 'label', { for: id }, text), control, error);
}

export function input(doc: Document, name: string, type: string, attributes: Record<string, string> = {}): HTMLInputElement {
  return el(doc, 'input', { name, type, ...attributes });
}

/** Where a form's errors go: one line for the whole form, and one next to each named field. */
export function showErrors(form: HTMLFormElement, errors: { path: string; message: string }[]): void {
  for (const slot of form.querySelectorAll('.field-error, .form-error')) slot.textContent = '';
  for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  for (const { path, message } of errors) {
    const control = form.querySelector<HTMLElement>(`[name="${CSS.escape(path)}"]`);
    const slot = control && form.querySelector(`#${CSS.escape(control.id)}-error`);
    if (control && slot) {
      control.setAttribute('aria-invalid', 'true');
      slot.textContent = message;
    } else form.querySelector('.form-error')!.textContent = message;
  }
}
