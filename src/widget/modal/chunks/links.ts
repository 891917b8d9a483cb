/** The screens of mailed links (sign-in, password reset, e-mail confirmation), one chunk (../screen-chunks.ts). */
export { emailConfirmScreen, passwordResetScreen, signInLinkScreen } from '../screens/mail-links';
