/**
 * Values in a mail come from others: site names from owners, names and addresses from members.
 * These helpers keep them from becoming markup, header lines or fake lines of text.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in element text and in double- or single-quoted attributes alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * Line breaks of every kind (CR, LF, VT, FF, NEL, U+2028/2029) and other control characters
 * become one space: a name with a newline must not end the subject header or start a line of
 * its own that looks like ours.
 */
const BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

export function oneLine(value: string): string {
  return value.replace(BREAKS_AND_CONTROLS, ' ');
}

/**
 * A link goes into `href` only when it is a web address: `javascript:`, `data:` and the like
 * stay text. Anything before the scheme (" javascript:", "\u0000https://") fails the test too.
 */
export function isWebLink(link: string): boolean {
  return /^https?:\/\//i.test(link);
}
