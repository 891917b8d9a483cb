/**
 * The test cards the stand-in knows, and what each does, as Stripe's testing page
 * (https://docs.stripe.com/testing) documents them. One table so the behaviour is read in one
 * place; server.ts only asks it questions.
 *
 * Any other number is refused when the PaymentMethod is created, as Stripe refuses real cards in
 * test mode (test_mode_live_card) and numbers that fail the Luhn check (incorrect_number).
 */
import { passesLuhn } from '../../../src/service/payments/test-processor';

export interface Decline {
  decline_code: 'generic_decline' | 'insufficient_funds';
  message: string;
}

export interface TestCard {
  brand: 'visa' | 'mastercard';
  /** Attaching it to a customer (and confirming a SetupIntent with it) checks it with the bank. */
  onAttach: 'ok' | Decline;
  /** Every charge, once any 3-D Secure step is done. */
  onCharge: 'ok' | Decline;
  /**
   * `none`: never asks. `unless_set_up`: asks on-session; off-session only once the card was set
   * up for off-session use (SetupIntent usage=off_session, or a PaymentIntent with
   * setup_future_usage=off_session, authenticated). `always`: asks on every payment, so
   * off-session payments always fail with authentication_required.
   */
  threeDSecure: 'none' | 'unless_set_up' | 'always';
}

const GENERIC: Decline = { decline_code: 'generic_decline', message: 'Your card was declined.' };
const FUNDS: Decline = { decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' };

export const TEST_CARDS: ReadonlyMap<string, TestCard> = new Map<string, TestCard>([
  ['4242424242424242', { brand: 'visa', onAttach: 'ok', onCharge: 'ok', threeDSecure: 'none' }],
  ['5555555555554444', { brand: 'mastercard', onAttach: 'ok', onCharge: 'ok', threeDSecure: 'none' }],
  // Stripe verifies a card as it is attached, so these never reach a customer; a PaymentIntent
  // that uses one without attaching it is declined the same way.
  ['4000000000000002', { brand: 'visa', onAttach: GENERIC, onCharge: GENERIC, threeDSecure: 'none' }],
  ['4000000000009995', { brand: 'visa', onAttach: FUNDS, onCharge: FUNDS, threeDSecure: 'none' }],
  // "Attaching this card to a Customer object succeeds, but attempts to charge the customer fail."
  ['4000000000000341', { brand: 'visa', onAttach: 'ok', onCharge: GENERIC, threeDSecure: 'none' }],
  // "Requires authentication for one-time payments … if you set up this card … no further
  // authentication is needed" for off-session payments.
  ['4000002500003155', { brand: 'visa', onAttach: 'ok', onCharge: 'ok', threeDSecure: 'unless_set_up' }],
  // "Requires authentication on all transactions, regardless of how the card is set up."
  ['4000002760003184', { brand: 'visa', onAttach: 'ok', onCharge: 'ok', threeDSecure: 'always' }],
  // "3D Secure 2 authentication must be completed for the payment to be successful."
  ['4000000000003220', { brand: 'visa', onAttach: 'ok', onCharge: 'ok', threeDSecure: 'always' }],
]);

export type CardCheck =
  | { ok: true; card: TestCard }
  | { ok: false; code: 'incorrect_number'; message: string }
  | { ok: false; code: 'card_declined'; decline_code: 'test_mode_live_card'; message: string };

/** What Stripe answers to a card number when a PaymentMethod is created with it. */
export function checkCardNumber(number: string): CardCheck {
  const card = TEST_CARDS.get(number);
  if (card) return { ok: true, card };
  // Digits only: Stripe.js strips spaces before it sends a number, so the API never sees them.
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) {
    return { ok: false, code: 'incorrect_number', message: 'Your card number is incorrect.' };
  }
  return {
    ok: false,
    code: 'card_declined',
    decline_code: 'test_mode_live_card',
    message:
      'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
  };
}
