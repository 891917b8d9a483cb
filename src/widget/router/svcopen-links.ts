import { SVCOPEN } from './svcopen';

/**
 * Links on the page to this same page with `?svcopen=…` (a "Log in" or "My account" link in a
 * site's header) open their screen at once instead of loading the page again. Anything else a
 * click could mean is left to the browser: another page, a new tab or window (modifier keys,
 * `target`), a download, or a click the page has handled itself.
 */
export function followSvcopenLinks(doc: Document, open: (path: string) => boolean): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
    const here = doc.defaultView!.location;
    const url = new URL(link.href, here.href);
    const path = url.searchParams.get(SVCOPEN);
    if (path === null || url.origin !== here.origin || url.pathname !== here.pathname) return;
    if (open(path)) event.preventDefault();
  };
  doc.addEventListener('click', onClick);
  return () => doc.removeEventListener('click', onClick);
}
