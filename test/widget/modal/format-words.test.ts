/** Numbers and names in the dialog as people write them, in the site's language. */
import { expect, test } from 'vitest';
import type { PlanOffer } from '../../../src/contract/member';
import { brandName, terms } from '../../../src/widget/modal/format';
import { messagesFor } from '../../../src/widget/modal/locales';

const offer = (taxPercentage: number): PlanOffer => ({
  id: 1,
  publicId: 'p',
  name: 'Lifetime',
  type: 'one_time_payment',
  currency: 'usd',
  dueNow: { subTotalCents: 19900, taxCents: 3980, grandTotalCents: 23880 },
  taxPercentage,
});

test.each([
  ['en', 20, 'plus 20% tax'],
  ['en', 8.5, 'plus 8.5% tax'],
  // German sets a no-break space before the sign, so the two never part at a line end.
  ['de', 20, 'zzgl. 20\u00a0% Steuer'],
  ['de', 8.5, 'zzgl. 8,5\u00a0% Steuer'],
])('a tax of %s %s reads %j', (locale, percent, words) => {
  expect(terms(offer(percent), messagesFor(locale), locale)).toContain(words);
});

test('card brands as people write them; an unknown brand is left out of the sentence', () => {
  expect(['visa', 'mastercard', 'amex', 'unknown'].map(brandName)).toEqual(['Visa', 'Mastercard', 'American Express', '']);
  expect(messagesFor('en').savedCard(brandName('visa'), '4242')).toBe('Pay with your saved Visa card ending 4242.');
  expect(messagesFor('en').savedCard(brandName('unknown'), '4242')).toBe('Pay with your saved card ending 4242.');
  expect(messagesFor('de').savedCard(brandName('unknown'), '4242')).toBe('Zahlung mit Ihrer gespeicherten Karte mit Endziffern 4242.');
});
