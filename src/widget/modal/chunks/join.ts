/** Joining: the plans, registration and a plan's sign-up; one chunk (../screen-chunks.ts). */
export { planSignupScreen } from '../screens/plan-signup';
export { plansScreen } from '../screens/plans';
export { registerScreen } from '../screens/register';
