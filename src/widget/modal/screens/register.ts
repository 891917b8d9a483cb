import type { SignupFieldDefinition, SignupFieldValue } from '../../../contract/member';
import { render, type Screen, type ScreenContext } from '../screen';
import { el, input, labelled } from '../ui';
import { actionForm, valueOf } from './form';

/** Create an account with the site's custom sign-up fields; then `next`, or the dialog closes. */
export function registerScreen(next?: Screen): Screen {
  return (ctx: ScreenContext) => {
    const { doc, t, config } = ctx;
    const custom = config.signupFields.map((field) => customField(ctx, field));
    const form = actionForm(
      ctx,
      t.createAccount,
      [
        labelled(doc, t.firstName, input(doc, 'firstName', 'text', { autocomplete: 'given-name' })),
        labelled(doc, t.lastName, input(doc, 'lastName', 'text', { autocomplete: 'family-name' })),
        labelled(doc, t.email, input(doc, 'email', 'email', { autocomplete: 'email', required: '' })),
        labelled(doc, t.password, input(doc, 'password', 'password', { autocomplete: 'new-password', required: '', minlength: '8' })),
        ...custom,
      ],
      async (f) => {
        const customFields: Record<string, SignupFieldValue> = {};
        for (const field of config.signupFields) {
          const value = readCustom(f, field);
          if (value !== undefined) customFields[field.id] = value;
        }
        await ctx.host.register({
          email: valueOf(f, 'email'),
          password: valueOf(f, 'password'),
          firstName: valueOf(f, 'firstName'),
          lastName: valueOf(f, 'lastName'),
          customFields,
        });
        if (next) ctx.show(next);
        else ctx.close();
      },
    );
    const toLogin = el(doc, 'button', { type: 'button', class: 'link' }, t.logIn);
    toLogin.addEventListener('click', () => ctx.show(ctx.screens.login(next)));
    render(ctx, t.register, form, el(doc, 'p', {}, `${t.haveAccount} `, toLogin));
  };
}

/** `customFields.<id>`: the path the service names in its errors, so they land next to the field. */
const nameOf = (field: SignupFieldDefinition) => `customFields.${field.id}`;

function customField(ctx: ScreenContext, field: SignupFieldDefinition): HTMLElement {
  const { doc, t } = ctx;
  const name = nameOf(field);
  const required: Record<string, string> = field.required ? { required: '' } : {};
  const label = field.required ? `${field.label} (${t.required})` : field.label;
  switch (field.type) {
    case 'text':
      return labelled(doc, label, input(doc, name, 'text', required));
    case 'textarea':
      return labelled(doc, label, el(doc, 'textarea', { name, ...required }));
    case 'checkbox':
      return labelled(doc, label, input(doc, name, 'checkbox', required));
    case 'select':
    case 'multiple-select': {
      const multiple = field.type === 'multiple-select';
      const options = (field.options ?? []).map((o) => el(doc, 'option', { value: o.value }, o.label));
      const select = el(doc, 'select', { name, ...required, ...(multiple && { multiple: '' }) }, multiple ? null : el(doc, 'option', { value: '' }, '—'), ...options);
      return labelled(doc, label, select);
    }
  }
}

function readCustom(form: HTMLFormElement, field: SignupFieldDefinition): SignupFieldValue | undefined {
  const control = form.elements.namedItem(nameOf(field));
  if (field.type === 'checkbox') return (control as HTMLInputElement).checked;
  if (field.type === 'multiple-select') return [...(control as HTMLSelectElement).selectedOptions].map((o) => o.value);
  const value = (control as HTMLInputElement).value;
  return value === '' ? undefined : value;
}
