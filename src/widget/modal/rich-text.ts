/**
 * Rich text written by site owners (plan and tax descriptions) as nodes the modal can show.
 * The service cut it to an allowlist when it was saved; the widget does so again here, so a
 * change to the data behind the API can never put a script in a member's page. The HTML is
 * parsed in an inert template (nothing runs or loads) and only fresh copies of allowed
 * elements and attributes are built from it: no parsed node reaches the page.
 */
import { webAddress } from './web-address';

const ALLOWED = new Set(['P', 'BR', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'A', 'UL', 'OL', 'LI', 'H3', 'H4', 'BLOCKQUOTE', 'CODE']);
/** Elements whose content is not text to show: dropped whole, unlike other unknown tags. */
const DROPPED = /^(SCRIPT|STYLE|TEMPLATE|IFRAME|OBJECT|EMBED|NOSCRIPT|TEXTAREA|SELECT|TITLE|SVG|MATH)$/;

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
 * Only a mail address or what the widget's address check lets through survives (an http(s) URL,
 * or a path that stays on the page's site), resolved as the page reads it; the link opens away
 * from the form, telling the target nothing. A link dropped here is sanitizing, not a warning.
 */
function linkAttributes(from: Element, to: HTMLElement): void {
  const href = from.getAttribute('href');
  const title = from.getAttribute('title');
  if (title) to.title = title;
  const url = href && (/^mailto:/i.test(href) ? href : webAddress(href, true));
  if (!url) return;
  to.setAttribute('href', new URL(url, to.ownerDocument.baseURI).href);
  to.setAttribute('target', '_blank');
  to.setAttribute('rel', 'noopener noreferrer');
}
