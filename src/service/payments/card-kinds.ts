/**
 * The words for cards that both the processor and the store's records use: a card's brand and
 * why a bank refused it. Their one home, so that neither imports the other for them.
 */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'unknown';

/**
 * `authentication_required`: the bank wants the cardholder to confirm a payment made while they
 * were away (a renewal; 3-D Secure), which they can do from the mailed link (issue 28).
 */
export type DeclineCode = 'card_declined' | 'insufficient_funds' | 'authentication_required';
