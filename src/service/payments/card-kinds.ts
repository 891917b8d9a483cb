/**
 * The words for cards that both the processor and the store's records use: a card's brand and
 * why a bank refused it. Their one home, so that neither imports the other for them.
 */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'unknown';

export type DeclineCode = 'card_declined' | 'insufficient_funds';
