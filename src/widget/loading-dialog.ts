import type { SiteTheme } from '../contract/member';
import { constructedStyle } from './constructed-style';

/** The page's language as a locale (`de` for `<html lang="de-AT">`); '' when the page names none. */
export const pageLocale = (doc: Document): string => doc.documentElement.lang.slice(0, 2).toLowerCase();

/**
 * The loading dialog's look: the screens' dialog's (modal/dialog.ts) in brief, with their
 * backdrop and spinner; the browser's own colours for a dialog in the member's colour scheme
 * (`color-scheme`) and the page's font; the site's accent (`--a`, the spinner), radius and fixed
 * scheme once its settings are known (`_theme`). Brief, as it is bytes of every page's widgets.js.
 */
const STYLE =
  'dialog{color-scheme:light dark;padding:2rem;border:0;border-radius:12px}::backdrop{background:rgb(0 0 0/.5)}' +
  'i{display:block;width:24px;height:24px;margin:0 auto 1rem;border:2px solid var(--a,#1d4ed8);border-right-color:#0000;border-radius:50%}' +
  '@media (prefers-reduced-motion:no-preference){i{animation:t .8s linear infinite}}@keyframes t{to{rotate:1turn}}';

export interface Loading {
  /**
   * Takes the dialog away: gives focus back to where it was (so the screens' dialog returns focus
   * there when it closes), and says whether the member still waits; false when they closed it
   * with Escape, and then no screen should open.
   */
  _done(): boolean;
  /** Dresses it in the site's theme (GET /config): its accent (the spinner), radius and a fixed colour scheme. */
  _theme(theme?: SiteTheme): void;
}

/**
 * What a member sees at once after a click, while widgets-modal.js downloads on a slow network
 * (issue 14: nothing showed for seconds): a dialog with a spinner saying so, in the page's
 * language. The screens' dialog replaces it in the same task, so there is never a moment with neither.
 */
export function showLoading(doc: Document): Loading {
  const returnFocus = doc.activeElement as HTMLElement | null;
  const host = doc.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  const words = pageLocale(doc) === 'de' ? 'Wird geladen …' : 'Loading…';
  // Markup of our own, no data in it: the words alone. Its style is a constructed sheet, which a page's CSP allows.
  constructedStyle(root)._set(STYLE);
  root.innerHTML = `<dialog aria-busy=true aria-label="${words}"><i></i>${words}</dialog>`;
  const dialog = root.lastChild as HTMLDialogElement;
  (doc.body ?? doc.documentElement).append(host);
  dialog.showModal?.();
  return {
    _done() {
      const waiting = dialog.open;
      host.remove();
      returnFocus?.focus();
      return waiting;
    },
    _theme({ accent, radius, colorScheme } = {}) {
      // One declaration each, through the CSSOM: a value /config should never hold (the service
      // checks them as they are saved) is refused by the parser, and cannot reach past this dialog.
      const style = dialog.style;
      style.setProperty('--a', accent ?? '');
      style.borderRadius = radius === undefined ? '' : `${radius}px`;
      // `auto` is the member's setting: the stylesheet's `light dark` (as a value, an unknown scheme: light only).
      style.colorScheme = colorScheme === 'auto' ? '' : (colorScheme ?? '');
    },
  };
}
