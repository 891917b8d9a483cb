/** Checking input: zod failures as readable sentences, and the shape checks shared by the APIs. */
import type { z } from 'zod';
import type { JsonValue } from '../../contract/member';

/** A JSON object: not null, not an array. What a request body or a metadata level must be. */
export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F). */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, less tab, LF and the CR of a CRLF: what multi-line text may not hold. */
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\r(?!\n)/;
/** Half of a UTF-16 surrogate pair on its own (JSON "\ud800"): not Unicode text. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Why `text` is not acceptable as text a person typed, or undefined when it is: it must hold no
 * control character and no lone surrogate. `multiline` text (a textarea) keeps tab, LF and CRLF.
 * The one check for names, e-mail addresses, text fields and site names.
 */
export function textProblem(text: string, { multiline = false }: { multiline?: boolean } = {}): string | undefined {
  if ((multiline ? CONTROL_BUT_LINE_BREAKS : CONTROL).test(text)) {
    return multiline ? 'must not contain control characters other than tab and line breaks' : 'must not contain control characters';
  }
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds a lone surrogate)';
  return undefined;
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

/** `text` as a normalized http(s) address (`URL.href`), or undefined when it is not one. */
export function httpAddress(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

/**
 * `text` as an address on the web a member can be sent to: a normalized http(s) URL, or a path
 * on the site itself (`/files/a.pdf`, kept as a path: the browser resolves it against the page).
 * `//host` and `/\\host` are not paths but other hosts, and are refused. Undefined when it is neither.
 */
export function siteAddress(text: string | undefined): string | undefined {
  if (text !== undefined && /^\/(?![/\\])/.test(text)) {
    const url = new URL(text, 'https://site.invalid');
    return url.origin === 'https://site.invalid' ? url.pathname + url.search + url.hash : undefined;
  }
  return httpAddress(text);
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
