/** Joining: the plans, registration, a plan's sign-up and protected content, one chunk (../screen-chunks.ts). */
export { contentScreen } from '../screens/content';
export { planSignupScreen } from '../screens/plan-signup';
export { plansScreen } from '../screens/plans';
export { registerScreen } from '../screens/register';
