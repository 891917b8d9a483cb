/** From a site and a template to a finished mail: pick the language, clean the values, render. */
import { de } from './de';
import { en } from './en';
import { oneLine } from './escape';
import { renderHtml } from './layout';
import type { MailParts, Words } from './parts';
import { renderText } from './text';
import type { MailContent, MailSite, MailTemplate } from './types';

// Own keys only, so a locale such as "constructor" reads English like any other unknown one.
const LANGUAGES: Record<string, Words> = { en, de };

function wordsFor(locale: string): Words {
  return Object.hasOwn(LANGUAGES, locale) ? LANGUAGES[locale]! : en;
}

export function composeMail(site: MailSite, template: MailTemplate): MailContent {
  const words = wordsFor(site.locale);
  const siteName = oneLine(site.name).trim();
  // TypeScript cannot pair `kinds[template.kind]` with `template` itself; the mapped type in
  // `Words` guarantees each kind's function takes that kind's template.
  const write = words.kinds[template.kind] as (site: string, template: MailTemplate) => MailParts;
  const parts = write(siteName, oneLineValues(template));
  return {
    subject: oneLine(parts.subject),
    text: renderText(parts, siteName),
    html: renderHtml(parts, siteName, words),
  };
}

/**
 * Every value in a template is one line: a name, an address, an amount, a link. Cleaning them
 * once here means no language file can forget it, in the subject or in the text. Trimmed, so a
 * first name of spaces greets like no first name.
 */
function oneLineValues<T extends MailTemplate>(template: T): T {
  const entries = Object.entries(template).map(([key, value]) => [key, typeof value === 'string' ? oneLine(value).trim() : value]);
  return Object.fromEntries(entries) as T;
}
