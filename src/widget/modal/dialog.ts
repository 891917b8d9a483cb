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
import { webAddress } from './web-address';

export const MODAL_ATTRIBUTE = 'data-svc-modal';

const FOCUSABLE = 'button,[href],input,select,textarea,[tabindex]:not([tabindex="-1"])';

/**
 * The frame's look, a small design system: one type scale (1.25 / 1 / .875 rem), spacing in
 * quarter rems, a primary button (the accent: submits and choices) and a secondary one (every
 * other button), menus of rows, badges, a summary box, a spinner. Every colour and shape is a
 * custom property set by ./theme (the site's theme); `--d` (dividers) and `--m` (quiet text)
 * are mixed from the text and background, so they read on any background a site picks.
 * Below 480 px the dialog is a full-height sheet; a form's submit button stays in view as the
 * form scrolls; motion only when the member's system allows it, and never a fade: the dialog is
 * opaque from its first frame (nothing of the page shows through after the loading dialog, and
 * contrast checks never meet a half-transparent screen). What only one group of screens draws
 * (the account's menu, the invoices' table, the plans' grid) comes with that group (`_addStyle`), not here: every
 * screen's download carries this sheet (decision 0034).
 */
const STYLE = `
dialog{--d:color-mix(in srgb,var(--t) 16%,var(--b));--m:color-mix(in srgb,var(--t) 72%,var(--b));box-sizing:border-box;width:min(28rem,calc(100vw - 1rem));max-height:calc(100vh - 1rem);overflow:auto;padding:0 1.5rem 1.5rem;border:0;border-radius:var(--r);font:16px/1.5 var(--f);color:var(--t);background:var(--b);overflow-wrap:break-word}
::backdrop{background:rgb(0 0 0/.5)}
@media (max-width:479.9px){dialog{width:100%;max-width:none;height:100%;max-height:none;margin:0;border-radius:0}}
@media (prefers-reduced-motion:no-preference){dialog{animation:in .2s}.spin,[aria-busy] [type=submit]:after{animation:turn .8s linear infinite}}
@keyframes in{from{translate:0 .75rem}}@keyframes turn{to{rotate:1turn}}
.brand{display:flex;align-items:center;gap:.5rem;margin-top:1rem;font-size:.875rem;font-weight:600;color:var(--m)}.brand img{height:1.5rem}.brand:not([hidden])+header{padding-top:.5rem}
header{position:sticky;top:0;z-index:1;display:flex;align-items:center;gap:.5rem;padding:1.25rem 0 .5rem;background:var(--b)}
h2{flex:1;margin:0;font-size:1.25rem;min-width:0}h3,p{margin:0;font-size:1rem}.rich>*{margin:.75em 0}
button{font:inherit;color:inherit;cursor:pointer;min-height:2.75rem;padding:.5rem 1rem;border:1px solid var(--l);border-radius:calc(var(--r)/2);background:none}
.icon{width:2.5rem;padding:0;border:0;font-size:0}.icon:before{font-size:1.5rem;content:"×"/""}.back:before{content:"←"/""}
:focus-visible{outline:2px solid var(--link,var(--a));outline-offset:2px}
form{display:grid;gap:1rem;margin-top:1rem}
.field{display:grid;gap:.25rem;margin:0;padding:0;border:0;min-width:0}label,legend{padding:0;font-size:.875rem;font-weight:600}
.field:has(>[type=checkbox]){grid-template-columns:auto 1fr;align-items:center;column-gap:.5rem}.field>[type=checkbox]{order:-1;margin:0}.field>.field-error{grid-column:1/-1}
.pw{grid-template-columns:1fr auto}.pw>*{grid-column:1/-1}.pw>label{grid-column:1}.pw>.link{grid-area:1/2;font-size:.875rem}
label:has(input){display:flex;gap:.5rem;font:inherit}
input:not([type=checkbox]),select,textarea{font:inherit;color:inherit;background:var(--b);padding:.625rem .75rem;border:1px solid var(--l);border-radius:calc(var(--r)/2);min-width:0}
[type=checkbox]{accent-color:var(--a)}[aria-invalid=true]{border-color:var(--e)}
.field-error,.form-error{color:var(--e);font-size:.875rem}:empty:is(.form-error,.field-error){display:none}
[type=submit],.primary,.button{border:0;background:var(--a);color:var(--on-a,#fff);font-weight:600}
form>[type=submit]{position:sticky;bottom:-.75rem;box-shadow:0 0 0 .75rem var(--b)}
[disabled]{opacity:.6;cursor:default}
[aria-busy] [type=submit]:after,.spin{content:"";display:inline-block;width:1em;height:1em;margin:0 .5em;border:2px solid;border-right-color:transparent;border-radius:50%;vertical-align:-.125em}
.spin{display:block;margin:2rem auto;color:var(--a)}
.badge{justify-self:start;align-self:start;padding:0 .5rem;border-radius:1rem;font-size:.75rem;font-weight:600;color:var(--c,var(--m));background:color-mix(in srgb,var(--c,var(--m)) 14%,var(--b))}
.ok,.notice{--c:var(--g)}.bad{--c:var(--e)}.warn{--c:var(--w)}
.muted,.terms,th,time{color:var(--m);font-size:.875rem}
.notice{margin-top:.75rem;padding:.5rem .75rem;color:var(--c);background:color-mix(in srgb,var(--c) 12%,var(--b))}
a,.link{color:var(--link,var(--a))}
.link{min-height:0;border:0;text-decoration:underline;padding:0}
ul:not(.rich *){list-style:none;margin:1rem 0 0;padding:0}
.cards>li,.summary{display:grid;gap:.5rem;margin-bottom:.75rem;padding:1rem;border:1px solid var(--d);border-radius:var(--r)}
.price{font-size:1.25rem;font-weight:700}
.row{display:flex;justify-content:space-between}.due{padding-top:.5rem;border-top:1px solid var(--d);font-weight:700}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-top:1rem}:is(.actions,form)+p{margin-top:1rem}.actions>p{flex-basis:100%}.cards .actions{margin:0}
.button{display:inline-block;padding:.625rem 1rem;border-radius:calc(var(--r)/2);text-decoration:none}
video,audio,time{display:block;width:100%}`;

export interface Dialog {
  /** The shadow root: screens draw into `_body`, tests and drivers may query all of it. */
  readonly _root: ShadowRoot;
  readonly _body: HTMLElement;
  _setTitle(text: string): void;
  /** Shows the header's back button, which calls `back`; none without it. */
  _setBack(back?: () => void): void;
  /** Adds rules a group of screens brings (its chunk's own look) to the sheet; once each. */
  _addStyle(rules: string): void;
  /**
   * The site's theme and words, once GET /config has answered (the dialog opens before), and its
   * name, shown above the title with the theme's logo, so a reader knows whose form this is.
   */
  _site(theme: SiteTheme | undefined, closeLabel: string, backLabel: string, siteName?: string): void;
  /** Moves focus to the body's first form field, else its first control, else the Close button. */
  _focusFirst(): void;
  /** Closes, removes the host from the page and gives focus back. Safe to call twice. */
  _close(): void;
}

export interface DialogOptions {
  title: string;
  /** The icon buttons' accessible names, from the message catalogue. */
  closeLabel: string;
  backLabel?: string;
  /** Called once, however the dialog closed (button, Escape, `_close()`). */
  onClose?: () => void;
  /** The site's colours and shapes (GET /config); the widget's own without it. */
  theme?: SiteTheme;
}

export function openDialog(doc: Document, { title, closeLabel, backLabel = '', onClose, theme }: DialogOptions): Dialog {
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
  // A constructed sheet: a page's Content-Security-Policy without 'unsafe-inline' refuses a
  // <style> element, not these (docs/security.md). Every browser with the screens' other needs
  // has them but Safari before 16.4 (2023), where the dialog works unstyled.
  const sheet = new CSSStyleSheet();
  root.adoptedStyleSheets = [sheet];
  const dialog = make('dialog', root);
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', 'svc-title');
  const brand = make('p', dialog);
  brand.className = 'brand';
  brand.hidden = true;
  const header = make('header', dialog);
  // Icon buttons: their names are their text (hidden), the glyph is drawn by CSS with no name of
  // its own, so "Close" reads and is found as "Close", and shows as ×.
  const icon = (glyph: string) => {
    const button = make('button', header);
    button.type = 'button';
    button.className = `icon ${glyph}`;
    return button;
  };
  const backButton = icon('back');
  let back: (() => void) | undefined;
  backButton.hidden = true;
  backButton.addEventListener('click', () => back?.());
  const heading = make('h2', header, title);
  heading.id = 'svc-title';
  const closeButton = icon('close');
  // Until a screen draws: a spinner, and the body busy for assistive technology.
  const body = make('div', dialog);
  body.setAttribute('aria-busy', 'true');
  make('div', body).className = 'spin';

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
    const focusable = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !(el as HTMLButtonElement).disabled && !el.hidden);
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
  const extra = new Set<string>();
  let siteRules = '';
  const draw = () => sheet.replaceSync(siteRules + STYLE + [...extra].join(''));
  const site = (given: SiteTheme | undefined, close: string, back: string, name?: string) => {
    siteRules = themeRules(given);
    draw();
    if (name) {
      // The logo is decoration beside the name that says the same; an address the widget's
      // check refuses is left out (with its warning), the name stays.
      const logo = given?.logoUrl && webAddress(given.logoUrl);
      brand.replaceChildren(...(logo ? [Object.assign(doc.createElement('img'), { src: logo, alt: '' })] : []), name);
      brand.hidden = false;
    }
    fitAccent(dialog);
    closeButton.textContent = close;
    backButton.textContent = back;
  };
  site(theme, closeLabel, backLabel);
  const handle: Dialog = {
    _root: root,
    _body: body,
    _setTitle: (text) => void (heading.textContent = text),
    _setBack(to) {
      back = to;
      backButton.hidden = !to;
    },
    _addStyle(rules) {
      if (extra.has(rules)) return;
      extra.add(rules);
      draw();
    },
    _site: site,
    _focusFirst() {
      // A form's first field before a link in the text above it (a plan's description).
      // Never one in a hidden part (a new card's fields behind "Use another card").
      const shown = (selector: string) => [...body.querySelectorAll<HTMLElement>(selector)].find((e) => !e.closest('[hidden]'));
      const target = shown('input,select,textarea') ?? shown(FOCUSABLE) ?? closeButton;
      target.focus();
    },
    _close: close,
  };
  handle._focusFirst();
  return handle;
}
