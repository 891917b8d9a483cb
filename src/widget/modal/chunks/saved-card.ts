/**
 * The saved card and its replacement (the account's "payment method"): a group of its own, so
 * that neither the account's screens nor joining's download it (../screen-chunks.ts).
 */
export { paymentMethodScreen } from '../screens/payment-method';
