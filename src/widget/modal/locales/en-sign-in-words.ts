import type { SignInWords } from '../messages';

/**
 * Logging in's words in English (the log-in form's ways without a password, the mailed links' results):
 * a chunk of their own, downloaded with logging in's screens and the mailed links' (../screen-chunks.ts).
 */
export const enSignIn: SignInWords = {
  noAccount: 'New here?',
  emailCode: 'E-mail me a code',
  emailLink: 'E-mail me a link',
  resetSent: (email) => `If ${email} has an account, we sent a link to set a new password. It works for an hour.`,
  passwordSaved: 'Your new password is saved.',
  emailNow: (email) => `Your e-mail address is now ${email}.`,
  forgotPassword: 'Forgot password?',
  // The code screen's, whose every importer downloads these words (code.ts).
  codeSent: (email) => `We sent a 6-digit code to ${email}.`,
  newCode: 'Send a new code',
  sent: 'Sent.',
  // The account forms' titles, which the mailed links' screens show too.
  changeEmail: 'Change e-mail',
  changePassword: 'Change password',
  newPassword: 'New password',
  // The errors only logging in and the mailed links meet.
  errors: {
    invalidCode: 'This code does not work. Check it, or ask for a new one.',
    codeExpired: 'This code is no longer valid. Ask for a new one.',
    tokenInvalid: 'This link is incomplete. Ask for a new one.',
    tokenUsed: 'This link was used already. Ask for a new one.',
    tokenExpired: 'This link has expired. Ask for a new one.',
    invalidCredentials: 'The e-mail or the password is wrong.',
    emailNotConfirmed: 'Confirm your e-mail address first.',
  },
};
