/** The page's language as a locale (`de` for `<html lang="de-AT">`); '' when the page names none. */
export const pageLocale = (doc: Document): string => doc.documentElement.lang.slice(0, 2).toLowerCase();

/**
 * What a member sees at once after a click, while widgets-modal.js downloads on a slow network
 * (issue 14: nothing showed for seconds): a small dialog saying so, in the page's language.
 * The screens' dialog replaces it in the same task, so there is never a moment with neither.
 *
 * Returns the function that takes it away again: it gives focus back to where it was (so the
 * screens' dialog returns focus there when it closes), and says whether the member still waits;
 * false when they closed it with Escape, and then no screen should open.
 */
export function showLoading(doc: Document): () => boolean {
  const returnFocus = doc.activeElement as HTMLElement | null;
  const host = doc.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  const words = pageLocale(doc) === 'de' ? 'Wird geladen …' : 'Loading…';
  // Markup of our own, no data in it: the words alone (a spinner would cost the runtime bytes).
  root.innerHTML = `<style>dialog{border:0;border-radius:12px;padding:2rem;font:16px system-ui}</style><dialog aria-busy=true aria-label="${words}">${words}</dialog>`;
  const dialog = root.lastChild as HTMLDialogElement;
  (doc.body ?? doc.documentElement).append(host);
  dialog.showModal?.();
  return () => {
    const waiting = dialog.open;
    host.remove();
    returnFocus?.focus();
    return waiting;
  };
}
