/** The http(s) addresses in a mail: what a person reading the outbox wants to open. */

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than the address it follows. */
const TRAILING = /[.,;:!?]+$/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

/** Every address in the text, then in the HTML (attributes and text alike), once each, in order. */
export function findLinks(text: string, html?: string): string[] {
  const found = new Set<string>();
  for (const source of [text, html === undefined ? '' : decodeEntities(html)]) {
    for (const [match] of source.matchAll(URL_IN_TEXT)) found.add(trimUrl(match));
  }
  return [...found];
}

function trimUrl(url: string): string {
  let trimmed = url.replace(TRAILING, '');
  // A closing bracket belongs to the address only when it opened one: (see https://x.org/a).
  while (/[)\]]$/.test(trimmed) && count(trimmed, trimmed.endsWith(')') ? '(' : '[') < count(trimmed, trimmed.at(-1)!)) {
    trimmed = trimmed.slice(0, -1).replace(TRAILING, '');
  }
  return trimmed;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    const lower = name.toLowerCase();
    if (!lower.startsWith('#')) return ENTITIES[lower] ?? entity;
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : Number(lower.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}
