import { el, input, labelled, showErrors } from '../ui';
import { errorText, type ScreenContext } from '../screen';

/**
 * A form that submits once at a time: the button is disabled and the form `aria-busy` while
 * `submit` runs (no double submit; assistive technology hears it is busy), and a failure is
 * shown in words next to the field it concerns (or above the button).
 */
export function actionForm(ctx: ScreenContext, label: string, fields: Node[], submit: (form: HTMLFormElement) => Promise<void>): HTMLFormElement {
  const { doc } = ctx;
  const button = el(doc, 'button', { type: 'submit' }, label);
  const form = el(doc, 'form', { novalidate: '' }, ...fields, el(doc, 'p', { class: 'form-error', role: 'alert' }), button);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    showErrors(form, []);
    submit(form)
      .catch((error: unknown) => {
        // Every bad field at once, each in its own words next to it.
        const all = (error as { errors?: { code: string; path: string; message: string }[] }).errors;
        showErrors(form, all ? all.map((e) => errorText(ctx.t, e)) : [errorText(ctx.t, error)]);
        const invalid = form.querySelector<HTMLElement>('[aria-invalid]');
        // A group (a multiple-select's checkboxes) is not focusable: its first box is.
        (invalid?.querySelector('input') ?? invalid)?.focus();
      })
      .finally(() => {
        button.disabled = false;
        form.removeAttribute('aria-busy');
      });
  });
  return form;
}

/** The value of a named control of the form ('' when absent). */
export const valueOf = (form: HTMLFormElement, name: string): string =>
  (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';

/**
 * A password field with a "Show password" toggle beside its label (a pressed button: the field
 * shows what was typed), so a member on a phone can check it. A new password (`fresh`) says its
 * rule, 8 characters or more, under the field before it is broken, and the field is described by
 * it; the browser's own `minlength` check stays. An `optional` one (a sign-up's) may be left
 * empty, and its rule says what happens then.
 */
export function passwordField(ctx: ScreenContext, label: string, name: string, fresh?: boolean, optional?: boolean): HTMLElement {
  const { doc, t } = ctx;
  const control = input(doc, name, 'password', { autocomplete: fresh ? 'new-password' : 'current-password', ...(!optional && { required: '' }), ...(fresh && { minlength: '8' }) });
  const field = labelled(doc, label, control);
  field.classList.add('pw');
  const toggle = el(doc, 'button', { type: 'button', class: 'link', 'aria-pressed': 'false' }, t.showPassword);
  toggle.addEventListener('click', () => toggle.setAttribute('aria-pressed', String((control.type = control.type === 'text' ? 'password' : 'text') === 'text')));
  control.after(toggle);
  if (fresh) {
    const rule = el(doc, 'span', { class: 'muted', id: `${control.id}-rule` }, optional ? t.passwordOrCode : t.passwordRule);
    toggle.after(rule);
    control.setAttribute('aria-describedby', `${control.getAttribute('aria-describedby')} ${rule.id}`);
  }
  return field;
}
