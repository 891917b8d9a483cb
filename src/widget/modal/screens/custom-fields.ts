import type { SignupFieldDefinition, SignupFieldValue } from '../../../contract/member';
import type { ScreenContext } from '../screen';
import { el, input, labelled } from '../ui';

/** `customFields.<id>`: the path the service names in its errors, so they land next to the field. */
const nameOf = (field: SignupFieldDefinition) => `customFields.${field.id}`;

/** The control of a custom sign-up field, holding `value` when given (account edit). */
export function customField(ctx: ScreenContext, field: SignupFieldDefinition, value?: SignupFieldValue): HTMLElement {
  const { doc, t } = ctx;
  const name = nameOf(field);
  const required: Record<string, string> = field.required ? { required: '' } : {};
  const label = field.required ? `${field.label} (${t.required})` : field.label;
  switch (field.type) {
    case 'text':
      return labelled(doc, label, input(doc, name, 'text', { ...required, ...(typeof value === 'string' && { value }) }));
    case 'textarea': {
      const area = el(doc, 'textarea', { name, ...required });
      if (typeof value === 'string') area.value = value;
      return labelled(doc, label, area);
    }
    case 'checkbox':
      return labelled(doc, label, input(doc, name, 'checkbox', { ...required, ...(value === true && { checked: '' }) }));
    case 'select':
    case 'multiple-select': {
      const multiple = field.type === 'multiple-select';
      const chosen = (v: string) => (Array.isArray(value) ? value.includes(v) : value === v);
      const options = (field.options ?? []).map((o) => el(doc, 'option', { value: o.value, ...(chosen(o.value) && { selected: '' }) }, o.label));
      const select = el(doc, 'select', { name, ...required, ...(multiple && { multiple: '' }) }, multiple ? null : el(doc, 'option', { value: '' }, '—'), ...options);
      return labelled(doc, label, select);
    }
  }
}

export function readCustom(form: HTMLFormElement, field: SignupFieldDefinition): SignupFieldValue | undefined {
  const control = form.elements.namedItem(nameOf(field));
  if (field.type === 'checkbox') return (control as HTMLInputElement).checked;
  if (field.type === 'multiple-select') return [...(control as HTMLSelectElement).selectedOptions].map((o) => o.value);
  const value = (control as HTMLInputElement).value;
  return value === '' ? undefined : value;
}
