/** Logging in: with a password, a mailed code, or after a forgotten password; one chunk (../screen-chunks.ts). */
export { loginScreen } from '../screens/login';
export { askCodeScreen, forgotPasswordScreen } from '../screens/mail-request';
