/** Joining: registration and a plan's sign-up; one chunk (../screen-chunks.ts). */
export { planSignupScreen } from '../screens/plan-signup';
export { registerScreen } from '../screens/register';
