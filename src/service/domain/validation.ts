/** Checking input: zod failures as readable sentences, and the shape checks shared by the APIs. */
import type { z } from 'zod';
import type { JsonValue } from '../../contract/member';

/** A JSON object: not null, not an array. What a request body or a metadata level must be. */
export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F): a character class's body. */
const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F';
/** The same less tab, LF and CR: a character class's body. */
const CONTROLS_BUT_TAB_LF_CR = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F';
const CONTROL = new RegExp(`[${CONTROLS}]`);
/** What multi-line text may not hold: a control but tab, LF and the CR of a CRLF (a lone CR is refused). */
const CONTROL_BUT_LINE_BREAKS = new RegExp(`[${CONTROLS_BUT_TAB_LF_CR}]|\\r(?!\\n)`);
/** Half of a UTF-16 surrogate pair on its own (JSON "\ud800"): not Unicode text. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The one text rule of the service, in the words its answers use and as JSON Schema `pattern`s
 * (ECMA-262, matched against the whole string; the site file's JSON Schema carries them, so an
 * editor flags what `svc sites apply` refuses). One-line text holds no control character;
 * multi-line text keeps tab, LF and CRLF (a lone CR is refused). A pattern says nothing of lone
 * surrogates (that needs the `u` flag, which not every JSON Schema checker uses): hasLoneSurrogate.
 */
export const TEXT_RULE = {
  oneLine: { pattern: `^[^${CONTROLS}]*$`, message: 'must not contain control characters' },
  multiline: {
    pattern: `^(?:[^${CONTROLS_BUT_TAB_LF_CR}\\r]|\\r\\n)*$`,
    message: 'must not contain control characters other than tab and line breaks',
  },
  loneSurrogate: 'must be valid Unicode text (it holds a lone surrogate)',
} as const;

/**
 * Characters that show nothing yet change what a name seems to say (issue 27): bidi overrides
 * and isolates (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F, U+061C) that reorder
 * the text around them ("Ada\u202Enimda" shows as "Adaadmin"), and the invisible spaces, joiners
 * and hyphen (U+200B, U+2060–U+2064, U+FEFF, U+180E, U+00AD) that make two names look alike.
 * ZWNJ and ZWJ (U+200C, U+200D) are letters' business in Persian and Indic names and in emoji, and
 * stay.
 */
export const INVISIBLE = /[\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
export const INVISIBLE_MESSAGE = 'must not contain invisible characters (zero-width spaces, bidi overrides)';

/**
 * Why `text` is not acceptable as a name (a member's first or last name, a site's name), or
 * undefined: one-line text (textProblem) with no invisible character.
 */
export function nameProblem(text: string): string | undefined {
  return textProblem(text) ?? (INVISIBLE.test(text) ? INVISIBLE_MESSAGE : undefined);
}

/** Whether `text` holds half of a surrogate pair on its own. */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/**
 * Why `text` is not acceptable as text, or undefined when it is: it must hold no control
 * character (C0, DEL, C1) and no lone surrogate; `multiline` text (a textarea, rich text) keeps
 * tab, LF and CRLF. The one check for text everywhere it enters: the member API's names, e-mail
 * addresses, text fields and metadata (values and keys), the Admin API's text parameters, and
 * what a site owner writes (the site file's names, labels, option values and descriptions,
 * through ./text-schema; `svc sites create --name`).
 */
export function textProblem(text: string, { multiline = false }: { multiline?: boolean } = {}): string | undefined {
  if ((multiline ? CONTROL_BUT_LINE_BREAKS : CONTROL).test(text)) return TEXT_RULE[multiline ? 'multiline' : 'oneLine'].message;
  if (hasLoneSurrogate(text)) return TEXT_RULE.loneSurrogate;
  return undefined;
}

/**
 * A valid e-mail address by the WHATWG grammar of `<input type=email>`
 * (https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address), with one change: the
 * domain must hold a dot (`ada@localhost` is no address mail can reach). ASCII only, one `@`,
 * no quotes, comments, brackets, commas, semicolons or display names: what nodemailer reads as
 * exactly the mailbox the check saw.
 */
export const EMAIL_ADDRESS = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
/** The longest address: a path in SMTP holds at most 256 octets, two of them the brackets. */
export const EMAIL_MAX = 254;

/**
 * `text` as an e-mail address, stored the one way: trimmed and lower-cased; undefined unless it
 * is a plain address (EMAIL_ADDRESS) of at most EMAIL_MAX characters with no control character
 * anywhere in what was given. The one check for every address the service takes and mails to:
 * a member's (sign-up, sign-in, reset and code requests, e-mail change) and a site's reply-to.
 */
export function emailAddress(text: string): string | undefined {
  if (textProblem(text) !== undefined) return undefined;
  const address = text.trim();
  return address.length <= EMAIL_MAX && EMAIL_ADDRESS.test(address) ? address.toLowerCase() : undefined;
}

/** An id in its one canonical spelling: 1 to 15 digits, no leading zero, no sign, point or space. */
const ID = /^[1-9][0-9]{0,14}$/;

/**
 * The id `text` spells, or undefined unless it is spelled canonically: `372`, never `0372`,
 * `372.0`, `+372`, ` 372`, `0x174` or `3.72e2` (which Number() would all read as 372).
 * Every id in a path or query of the member API and the Admin API is read with it.
 */
export function parseId(text: string | undefined): number | undefined {
  return text !== undefined && ID.test(text) ? Number(text) : undefined;
}

/**
 * `text` as a normalized http(s) address (`URL.href`), or undefined when it is not one. Text with
 * a control character is none either: the URL parser would drop a tab or a line break unseen.
 */
export function httpAddress(text: string | undefined): string | undefined {
  if (text === undefined || textProblem(text) !== undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

/** An origin no site has, to resolve a path against as a browser resolves it against a page. */
const SOME_SITE = 'https://site.invalid';
/** A path on a host: '/' and then no second '/' or '\\' (`//host` and `/\\host` name another host). */
const ONE_SLASH_PATH = /^\/(?![/\\])/;

/**
 * `text` as an address on the web a member can be sent to: a normalized http(s) URL, or a path
 * on the site itself (`/files/a.pdf`, kept as a path: the browser resolves it against the page).
 * A path is resolved first (dot segments, backslashes and their percent-encoded forms, as a
 * browser does) and checked after: it must stay on the page's origin and start with a single
 * '/'. So `/..//evil.example/x`, which resolves to `//evil.example/x` (another host), is refused
 * like `//host` and `/\\host`. What passes is stored as resolved: `/a/../b` is `/b`.
 * Undefined when it is neither.
 */
export function siteAddress(text: string | undefined): string | undefined {
  if (text === undefined || !text.startsWith('/')) return httpAddress(text);
  if (textProblem(text) !== undefined || !ONE_SLASH_PATH.test(text)) return undefined;
  const url = new URL(text, SOME_SITE);
  const path = url.pathname + url.search + url.hash;
  return url.origin === SOME_SITE && ONE_SLASH_PATH.test(path) ? path : undefined;
}

/** Turns a zod failure into one readable sentence per problem, naming the dotted path. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  constructor(readonly issues: { path: string; message: string }[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '));
  }
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}
