/** Joining: the plans, registration, a plan's sign-up and the card; one chunk (../screen-chunks.ts). */
export { paymentMethodScreen } from '../screens/payment-method';
export { planSignupScreen } from '../screens/plan-signup';
export { plansScreen } from '../screens/plans';
export { registerScreen } from '../screens/register';
