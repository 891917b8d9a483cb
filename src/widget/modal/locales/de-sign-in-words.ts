import type { SignInWords } from '../messages';

/**
 * Logging in's words in German (the log-in form's ways without a password, the mailed links' results):
 * a chunk of their own, downloaded with logging in's screens and the mailed links' (../screen-chunks.ts).
 */
export const deSignIn: SignInWords = {
  noAccount: 'Neu hier?',
  emailCode: 'Code per E-Mail senden',
  emailLink: 'Link per E-Mail senden',
  resetSent: (email) => `Falls ${email} ein Konto hat, haben wir einen Link für ein neues Passwort gesendet. Er gilt eine Stunde.`,
  passwordSaved: 'Ihr neues Passwort ist gespeichert.',
  emailNow: (email) => `Ihre E-Mail-Adresse ist jetzt ${email}.`,
  forgotPassword: 'Passwort vergessen?',
  // The code screen's, whose every importer downloads these words (code.ts).
  codeSent: (email) => `Wir haben einen 6-stelligen Code an ${email} gesendet.`,
  newCode: 'Neuen Code senden',
  sent: 'Gesendet.',
  // The account forms' titles, which the mailed links' screens show too.
  changeEmail: 'E-Mail ändern',
  changePassword: 'Passwort ändern',
  newPassword: 'Neues Passwort',
  // The errors only logging in and the mailed links meet.
  errors: {
    invalidCode: 'Dieser Code funktioniert nicht. Prüfen Sie ihn oder fordern Sie einen neuen an.',
    codeExpired: 'Dieser Code gilt nicht mehr. Fordern Sie einen neuen an.',
    tokenInvalid: 'Dieser Link ist unvollständig. Fordern Sie einen neuen an.',
    tokenUsed: 'Dieser Link wurde schon verwendet. Fordern Sie einen neuen an.',
    tokenExpired: 'Dieser Link ist abgelaufen. Fordern Sie einen neuen an.',
    invalidCredentials: 'E-Mail oder Passwort ist falsch.',
    emailNotConfirmed: 'Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse.',
  },
};
