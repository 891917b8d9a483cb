/**
 * Rich text that site owners write (plan and tax descriptions) is shown to visitors as HTML, so
 * it is cut down to an allowlist when it is saved: formatting and links survive, scripts, event
 * handlers, styles and every other element or attribute do not. The widget sanitizes again when
 * it renders; this keeps what the Admin API hands out safe as well.
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'ul', 'ol', 'li', 'h3', 'h4', 'blockquote', 'code'],
  // target and rel are only ever the values transformTags sets below.
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // Links open away from the sign-up form and tell the target nothing about it.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  disallowedTagsMode: 'discard',
};

/** The allowed part of `html`, or undefined when nothing of it is left. */
export function sanitizeRichText(html: string | undefined): string | undefined {
  const clean = html === undefined ? '' : sanitizeHtml(html, OPTIONS).trim();
  return clean === '' ? undefined : clean;
}
