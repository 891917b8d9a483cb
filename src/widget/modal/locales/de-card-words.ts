import type { CardWords } from '../messages';

/** The saved card's screen's words in German: a chunk of their own, downloaded with it (../screen-chunks.ts). */
export const deCard: CardWords = {
  noCard: 'Keine Karte gespeichert.',
  saveCard: 'Karte speichern',
  payNow: 'Jetzt bezahlen',
};
