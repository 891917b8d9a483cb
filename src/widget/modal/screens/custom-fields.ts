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
    case 'select': {
      const options = (field.options ?? []).map((o) => el(doc, 'option', { value: o.value, ...(value === o.value && { selected: '' }) }, o.label));
      return labelled(doc, label, el(doc, 'select', { name, ...required }, el(doc, 'option', { value: '' }, '—'), ...options));
    }
    case 'multiple-select': {
      // A group of checkboxes (a list box would need Ctrl-click). The group carries the name, so
      // the service's error for the field lands under it (ui.ts showErrors).
      const id = `svc-group-${field.id}`;
      return el(doc, 'fieldset', { class: 'field', name, id, 'aria-describedby': `${id}-error` },
        el(doc, 'legend', {}, label),
        ...(field.options ?? []).map((o) => el(doc, 'label', {}, el(doc, 'input', { type: 'checkbox', value: o.value, ...(Array.isArray(value) && value.includes(o.value) && { checked: '' }) }), o.label)),
        el(doc, 'span', { class: 'field-error', id: `${id}-error` }));
    }
  }
}

export function readCustom(form: HTMLFormElement, field: SignupFieldDefinition): SignupFieldValue | undefined {
  const control = form.querySelector<HTMLInputElement>(`[name="${nameOf(field)}"]`)!;
  if (field.type === 'checkbox') return control.checked;
  if (field.type === 'multiple-select') return [...control.querySelectorAll<HTMLInputElement>(':checked')].map((o) => o.value);
  const value = control.value;
  return value === '' ? undefined : value;
}
