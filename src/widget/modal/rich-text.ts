/**
 * Rich text written by site owners (plan and tax descriptions) as nodes the modal can show.
 * The service cut it to an allowlist when it was saved; the widget does so again here, so a
 * change to the data behind the API can never put a script in a member's page. The HTML is
 * parsed in an inert template (nothing runs or loads) and only fresh copies of allowed
 * elements and attributes are built from it: no parsed node reaches the page.
 */
const ALLOWED = new Set(['P', 'BR', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'A', 'UL', 'OL', 'LI', 'H3', 'H4', 'BLOCKQUOTE', 'CODE']);
/** Elements whose content is not text to show: dropped whole, unlike other unknown tags. */
const DROPPED = /^(SCRIPT|STYLE|TEMPLATE|IFRAME|OBJECT|EMBED|NOSCRIPT|TEXTAREA|SELECT|TITLE|SVG|MATH)$/;
const SCHEMES = /^(https?|mailto):$/;

export function richText(doc: Document, html: string): DocumentFragment {
  const template = doc.createElement('template');
  template.innerHTML = html;
  const out = doc.createDocumentFragment();
  copyChildren(doc, template.content, out);
  return out;
}

function copyChildren(doc: Document, from: Node, to: Node): void {
  for (const node of from.childNodes) {
    if (node.nodeType === 3) to.appendChild(doc.createTextNode(node.nodeValue ?? ''));
    if (node.nodeType !== 1) continue;
    const tag = (node as Element).tagName.toUpperCase();
    if (DROPPED.test(tag)) continue;
    if (!ALLOWED.has(tag)) {
      copyChildren(doc, node, to); // an unknown tag goes, its text stays
      continue;
    }
    const copy = doc.createElement(tag);
    if (tag === 'A') linkAttributes(node as Element, copy);
    copyChildren(doc, node, copy);
    to.appendChild(copy);
  }
}

/**
 * Only a web or mail address survives (not protocol-relative, as the service's sanitizer), and the
 * link opens away from the form, telling the target nothing.
 */
function linkAttributes(from: Element, to: HTMLElement): void {
  const href = from.getAttribute('href');
  const title = from.getAttribute('title');
  if (title) to.title = title;
  if (!href || href.trim().startsWith('//')) return;
  let url: URL;
  try {
    // A relative address is one of the site's pages, as the page showing it would read it.
    url = new URL(href, from.ownerDocument.baseURI);
  } catch {
    return;
  }
  if (!SCHEMES.test(url.protocol)) return;
  to.setAttribute('href', url.href);
  to.setAttribute('target', '_blank');
  to.setAttribute('rel', 'noopener noreferrer');
}
