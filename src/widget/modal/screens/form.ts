import { el, showErrors } from '../ui';
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
