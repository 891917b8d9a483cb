/** A site's locale must be one the widget's dialog speaks: the service's list is the widget's catalogues. */
import { expect, test } from 'vitest';
import { WIDGET_LOCALES } from '../../src/contract/member';
import { messagesFor } from '../../src/widget/modal/locales';

test('every locale a site may have has its own catalogue in the widget, and English is the fallback for others', () => {
  const english = messagesFor('en');
  for (const locale of WIDGET_LOCALES) {
    if (locale !== 'en') expect(messagesFor(locale), locale).not.toBe(english);
  }
  // A code outside the list falls back to English: if the widget gained a catalogue, the list must name it.
  for (const other of ['fr', 'es', 'it', 'nl', 'pt', 'ja']) expect(messagesFor(other), other).toBe(english);
});
