/**
 * The words of one mail, before they become text or HTML. A language file fills these in; the
 * text and HTML renderers lay them out the same way, so the two versions cannot drift apart.
 */
import type { MailKind, MailTemplate } from './types';

export interface MailParts {
  subject: string;
  greeting: string;
  /** What happened and why this mail: paragraphs before the code and the link. */
  intro: string[];
  /** A one-time code the member types in: shown on its own line, big in HTML. */
  code?: { label: string; value: string };
  /** Label and value rows, for the receipt's plan, amount, date and purpose. */
  facts?: Array<[label: string, value: string]>;
  /** The one thing to do: a sentence, then a button in HTML and the full address in both. */
  action?: { intro: string; button: string; link: string };
  /** How long it works, and what to do if it was not you. */
  outro: string[];
}

/** One language: a function per kind of mail, plus the few words the HTML shell needs. */
export interface Words {
  /** The `lang` of the HTML document: the language actually written, not the locale asked for. */
  lang: string;
  /** Under the button, for mail clients that show it but do not follow it. */
  linkHint: string;
  kinds: { [K in MailKind]: (site: string, template: Extract<MailTemplate, { kind: K }>) => MailParts };
}
