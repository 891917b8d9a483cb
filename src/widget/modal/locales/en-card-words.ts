import type { CardWords } from '../messages';

/** The saved card's screen's words in English: a chunk of their own, downloaded with it (../screen-chunks.ts). */
export const enCard: CardWords = {
  noCard: 'No card is saved.',
  saveCard: 'Save card',
  payNow: 'Pay now',
};
