/**
 * The one text rule (textProblem, ./validation) as zod schemas, for the text a site owner writes:
 * the site file and what shares its models (plans, sites). One-line text (names, labels, option
 * values) may hold no control character at all, CR and LF included; multi-line text (rich text:
 * plan descriptions, tax descriptions, articles) keeps tab, LF and CRLF. Neither may hold a lone
 * surrogate. The text is checked as written, before any trimming, and the generated JSON Schema
 * carries the same rule as a `pattern`, so an editor flags what `svc sites apply` refuses.
 */
import { z } from 'zod';
import { EMAIL_ADDRESS, EMAIL_MAX, emailAddress, hasLoneSurrogate, INVISIBLE, INVISIBLE_MESSAGE, TEXT_RULE } from './validation';

export interface TextOptions {
  /** Most characters (after trimming, when trimmed). */
  max?: number;
  /** Fewest characters (after trimming, when trimmed); default 1. */
  min?: number;
  /** Keeps tab, LF and CRLF; default false. */
  multiline?: boolean;
  /** Drops spaces around it; default true for one-line text, false for multi-line. */
  trim?: boolean;
}

/**
 * A string that is text by the service's one rule, with the limits `options` name. The control
 * characters are refused by the rule's own pattern (so the JSON Schema generated from a model
 * carries it; beside another pattern it becomes an `allOf`), lone surrogates by hasLoneSurrogate.
 */
export function textSchema({ max, min = 1, multiline = false, trim = !multiline }: TextOptions = {}): z.ZodString {
  const rule = TEXT_RULE[multiline ? 'multiline' : 'oneLine'];
  let schema = z
    .string()
    .regex(new RegExp(rule.pattern), rule.message)
    .refine((text) => !hasLoneSurrogate(text), TEXT_RULE.loneSurrogate);
  if (trim) schema = schema.trim();
  if (min > 0) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return schema;
}

/** Text shown on one line (a site's name, a plan's, a label), trimmed: no control character, CR and LF included. */
export const oneLineText = (max: number): z.ZodString => textSchema({ max });

/** A name (a site's): one-line text with no invisible character either (nameProblem). */
export const nameText = (max: number): z.ZodString => oneLineText(max).refine((text) => !INVISIBLE.test(text), INVISIBLE_MESSAGE);

/** Rich text an owner writes (descriptions): tab, LF and CRLF kept, no other control character. */
export const multiLineText = (max: number, min = 1): z.ZodString => textSchema({ max, min, multiline: true });

/**
 * An e-mail address a site mails from or to (the site file's `mail.replyTo`): the one address
 * check (emailAddress: the WHATWG grammar, a dot in the domain, at most 254 characters), read
 * trimmed and lower-cased. Its JSON Schema says the grammar as a `pattern`.
 */
export const emailSchema = z
  .string()
  .max(EMAIL_MAX)
  .refine((text) => emailAddress(text) !== undefined, 'must be one plain e-mail address such as help@example.com (no name, no list)')
  .meta({ format: 'email', pattern: EMAIL_ADDRESS.source })
  .transform((text) => emailAddress(text)!);
