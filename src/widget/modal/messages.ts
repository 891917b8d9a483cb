/**
 * The modal's words, by the site's locale (GET /config): English, and German as the second
 * language. A locale without a catalogue reads English.
 */
export interface Messages {
  close: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  logIn: string;
  logOut: string;
  register: string;
  createAccount: string;
  noAccount: string;
  haveAccount: string;
  account: string;
  name: string;
  loading: string;
  required: string;
  /** By error code; anything else shows the service's own message. */
  errors: Partial<Record<'invalidCredentials' | 'emailTaken' | 'rateLimited' | 'networkError' | 'memberBlocked', string>>;
}

const en: Messages = {
  close: 'Close',
  email: 'E-mail',
  password: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
  logIn: 'Log in',
  logOut: 'Log out',
  register: 'Create an account',
  createAccount: 'Create account',
  noAccount: 'New here?',
  haveAccount: 'Already a member?',
  account: 'Your account',
  name: 'Name',
  loading: 'Loading…',
  required: 'required',
  errors: {
    invalidCredentials: 'The e-mail or the password is wrong.',
    emailTaken: 'There is an account with this e-mail already. Log in instead.',
    rateLimited: 'Too many attempts. Wait a few minutes, then try again.',
    networkError: 'The service could not be reached. Check the connection and try again.',
    memberBlocked: 'This account is blocked. Contact the site.',
  },
};

const de: Messages = {
  close: 'Schließen',
  email: 'E-Mail',
  password: 'Passwort',
  firstName: 'Vorname',
  lastName: 'Nachname',
  logIn: 'Anmelden',
  logOut: 'Abmelden',
  register: 'Konto erstellen',
  createAccount: 'Konto erstellen',
  noAccount: 'Neu hier?',
  haveAccount: 'Schon Mitglied?',
  account: 'Ihr Konto',
  name: 'Name',
  loading: 'Wird geladen …',
  required: 'Pflichtfeld',
  errors: {
    invalidCredentials: 'E-Mail oder Passwort ist falsch.',
    emailTaken: 'Zu dieser E-Mail gibt es schon ein Konto. Bitte melden Sie sich an.',
    rateLimited: 'Zu viele Versuche. Warten Sie einige Minuten und versuchen Sie es dann erneut.',
    networkError: 'Der Dienst ist nicht erreichbar. Prüfen Sie die Verbindung und versuchen Sie es erneut.',
    memberBlocked: 'Dieses Konto ist gesperrt. Bitte wenden Sie sich an die Website.',
  },
};

const CATALOGUES: Record<string, Messages> = { en, de };

export function messagesFor(locale: string): Messages {
  return Object.hasOwn(CATALOGUES, locale) ? CATALOGUES[locale]! : en;
}
