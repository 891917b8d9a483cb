/**
 * The modal's frame (DESIGN.md, "Widget modal"): a host element carrying `data-svc-modal` with an
 * open shadow root, so the page's styles cannot reach the screens and theirs cannot leak out.
 * Inside, a native `<dialog>` opened with showModal(): the browser puts it in the top layer and
 * makes the page inert. On top of that: the role and aria-modal spelt out for every assistive
 * technology, a title that labels it, Tab kept inside, Escape and a Close button, and focus
 * given back to where it was.
 */
import type { SiteTheme } from '../../contract/member';
import { fitAccent, themeRules } from './theme';

export const MODAL_ATTRIBUTE = 'data-svc-modal';

const FOCUSABLE = 'button,[href],input,select,textarea,[tabindex]:not([tabindex="-1"])';

/** The frame's look; every colour and shape is a custom property set by ./theme (the site's theme). */
const STYLE = `
dialog{box-sizing:border-box;width:min(28rem,calc(100vw - 1rem));max-height:calc(100vh - 1rem);overflow:auto;
padding:1.25rem;border:0;border-radius:var(--r);font:16px/1.5 var(--f);color:var(--t);background:var(--b);overflow-wrap:break-word}
dialog::backdrop{background:rgb(0 0 0/.5)}
header{display:flex;align-items:start;gap:1rem;justify-content:space-between}
h2{margin:0;font-size:1.25rem;min-width:0}
button{font:inherit;cursor:pointer}
:focus-visible{outline:2px solid var(--link,var(--a));outline-offset:2px}
form{display:grid;gap:.75rem;margin:1rem 0}
.field{display:grid;gap:.25rem}
.field:has(>[type=checkbox]){grid-template-columns:auto 1fr;align-items:center;column-gap:.5rem}.field>[type=checkbox]{order:-1;margin:0}.field>.field-error{grid-column:1/-1}
input:not([type=checkbox]),select,textarea{font:inherit;color:inherit;background:var(--b);padding:.5rem;border:1px solid var(--l);border-radius:calc(var(--r)/2);min-width:0}
[aria-invalid=true]{border-color:var(--e)}
.field-error,.form-error{color:var(--e);font-size:.875rem;margin:0}
.form-error:empty{display:none}
button[type=submit],a.button{padding:.625rem 1rem;border:0;border-radius:calc(var(--r)/2);background:var(--a);color:var(--on-a,#fff)}
button[disabled]{opacity:.6;cursor:default}[aria-busy=true] [type=submit]{cursor:progress}
.badge{display:inline-block;margin:0;padding:0 .5rem;border-radius:1rem;border:1px solid;font-size:.75rem}
a,.link{color:var(--link,var(--a))}
.link{border:0;background:none;text-decoration:underline;padding:0}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.25rem 1rem}dd{margin:0}
a.button{display:inline-block;text-decoration:none}
video,audio{display:block;width:100%}
table{width:100%;border-collapse:collapse;font-size:.875rem}th,td{text-align:start;vertical-align:top;padding:.25rem .5rem .25rem 0}.what{display:block}`;

export interface Dialog {
  /** The shadow root: screens draw into `_body`, tests and drivers may query all of it. */
  readonly _root: ShadowRoot;
  readonly _body: HTMLElement;
  _setTitle(text: string): void;
  /** Moves focus to the body's first form field, else its first control, else the Close button. */
  _focusFirst(): void;
  /** Closes, removes the host from the page and gives focus back. Safe to call twice. */
  _close(): void;
}

export interface DialogOptions {
  title: string;
  /** The close button's text, from the message catalogue. */
  closeLabel: string;
  /** Called once, however the dialog closed (button, Escape, `_close()`). */
  onClose?: () => void;
  /** The site's colours and shapes (GET /config); the widget's own without it. */
  theme?: SiteTheme;
}

export function openDialog(doc: Document, { title, closeLabel, onClose, theme }: DialogOptions): Dialog {
  const returnFocus = doc.activeElement as HTMLElement | null;
  const host = doc.createElement('div');
  host.setAttribute(MODAL_ATTRIBUTE, '');
  const root = host.attachShadow({ mode: 'open' });
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node, text?: string) => {
    const element = doc.createElement(tag);
    if (text !== undefined) element.textContent = text;
    parent.appendChild(element);
    return element;
  };
  make('style', root, themeRules(theme) + STYLE);
  const dialog = make('dialog', root);
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', 'svc-title');
  const header = make('header', dialog);
  const heading = make('h2', header, title);
  heading.id = 'svc-title';
  const closeButton = make('button', header, closeLabel);
  closeButton.type = 'button';
  const body = make('div', dialog);

  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    if (dialog.open) dialog.close();
    host.remove();
    if (returnFocus?.isConnected) returnFocus.focus();
    onClose?.();
  };
  closeButton.addEventListener('click', close);
  // Escape: the browser fires `cancel`; closing here also removes the host and returns focus.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  dialog.addEventListener('close', close);
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const focusable = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !(el as HTMLButtonElement).disabled);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    // Wrap around at either end, so Tab never leaves the dialog for the page behind it.
    if (event.shiftKey && root.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && root.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });

  (doc.body ?? doc.documentElement).appendChild(host);
  dialog.showModal();
  fitAccent(dialog);
  const handle: Dialog = {
    _root: root,
    _body: body,
    _setTitle: (text) => void (heading.textContent = text),
    _focusFirst() {
      // A form's first field before a link in the text above it (a plan's description).
      const target = body.querySelector<HTMLElement>('input,select,textarea') ?? body.querySelector<HTMLElement>(FOCUSABLE) ?? closeButton;
      target.focus();
    },
    _close: close,
  };
  handle._focusFirst();
  return handle;
}
