/**
 * Every catalogue, by locale: what a test or a tool reads. A bundle imports its own catalogue
 * only (decision 0023); this table lives apart from the Messages type its catalogues import, so
 * the type and the catalogues do not import each other.
 */
import type { Messages } from '../messages';
import { de } from './de';
import { en } from './en';

const CATALOGUES: Record<string, Messages> = { en, de };

/** The catalogue of `locale`, English for one the widget does not speak. */
export function messagesFor(locale: string): Messages {
  return Object.hasOwn(CATALOGUES, locale) ? CATALOGUES[locale]! : en;
}
