/**
 * Asks before an owner action: a modal <dialog> (the page behind is inert, Tab wraps inside it,
 * Escape cancels, focus goes back where it was) with a title, what will happen, the action's fields and two
 * buttons. Resolves with the form's fields when confirmed, undefined when cancelled.
 */
import { type Child, h, uniqueId } from '../dom';

export interface ConfirmOptions {
  title: string;
  /** What will happen, in words. */
  body: Child;
  /** The fields the action takes (labelled inputs), if any. */
  fields?: Child;
  /** The confirming button's words ("Cancel membership", "Refund"). */
  confirm: string;
  /** Destructive: the button is red, and Cancel has the focus first. */
  danger?: boolean;
}

export function confirmDialog(options: ConfirmOptions): Promise<FormData | undefined> {
  const titleId = uniqueId('dialog-title');
  const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const confirm = h('button', { type: 'submit', class: options.danger ? 'danger' : 'primary' }, options.confirm);
  const form = h(
    'form',
    null,
    h('h2', { id: titleId }, options.title),
    h('div', { class: 'dialog-body' }, options.body),
    options.fields && h('div', { class: 'dialog-fields' }, options.fields),
    h('div', { class: 'dialog-buttons' }, cancel, confirm),
  );
  const dialog = h('dialog', { 'aria-labelledby': titleId, class: 'confirm' }, form);
  // Inside the main landmark, so everything on the page is in one.
  (document.querySelector('main') ?? document.body).append(dialog);

  return new Promise((resolve) => {
    let result: FormData | undefined;
    cancel.addEventListener('click', () => dialog.close());
    form.addEventListener('submit', (event) => {
      // Never a real submission: the page's policy forbids form targets, and nothing needs one.
      event.preventDefault();
      if (!form.reportValidity()) return;
      result = new FormData(form);
      dialog.close();
    });
    // The page behind is inert, but Tab would still leave for the browser's own controls: it wraps instead.
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      const focusable = [...dialog.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href]')].filter((e) => !e.matches(':disabled'));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(result);
    });
    dialog.showModal();
    const first = form.querySelector<HTMLElement>('.dialog-fields input, .dialog-fields select, .dialog-fields textarea');
    (first ?? (options.danger ? cancel : confirm)).focus();
  });
}
