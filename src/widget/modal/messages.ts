/**
 * The modal's words, by the site's locale (GET /config): English, and German as the second
 * language. A locale without a catalogue reads English.
 */
export interface Messages {
  close: string;
  back: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  logIn: string;
  logOut: string;
  register: string;
  createAccount: string;
  /** Above the registration form when a plan's sign-up follows. */
  registerFor: (plan: string) => string;
  noAccount: string;
  haveAccount: string;
  account: string;
  name: string;
  loading: string;
  required: string;
  problem: string;
  editAccount: string;
  save: string;
  saved: string;
  changeEmail: string;
  newEmail: string;
  currentPassword: string;
  changePassword: string;
  newPassword: string;
  paymentMethod: string;
  noCard: string;
  saveCard: string;
  plans: string;
  noPlans: string;
  choose: string;
  signUp: string;
  free: string;
  once: string;
  /** Interval units, singular: "month" in "$12.00 / month". */
  units: Record<'day' | 'week' | 'month' | 'year', string>;
  payments: (count: number) => string;
  trial: (days: number) => string;
  signupFee: string;
  tax: (percent: string) => string;
  billedOn: (day: number, month?: string) => string;
  accessUntil: (date: string) => string;
  dueNow: string;
  /** The order summary's last line: what is charged after today. */
  then: (price: string, date: string) => string;
  cardNumber: string;
  cardExpiry: string;
  cardCvc: string;
  savedCard: (brand: string, last4: string) => string;
  memberships: string;
  noMemberships: string;
  cancel: string;
  /** Asked before a membership is cancelled, with the two answers. */
  cancelAsk: (plan: string, date: string) => string;
  cancelYes: string;
  keep: string;
  cancelsOn: (date: string) => string;
  renewsOn: (date: string) => string;
  expiresOn: (date: string) => string;
  invoices: string;
  noInvoices: string;
  /** Empty states' next step: to the plans. */
  seePlans: string;
  paymentFailed: string;
  updateCard: string;
  /** The invoice table's column headers: what and when, amount, status. */
  invoiceColumns: [string, string, string];
  paid: string;
  failed: string;
  /** An invoice row of a charge that failed: an attempt, not a second invoice. */
  attempt: (description: string) => string;
  /** Marks, in the plans, a plan the member has already. */
  yourPlan: string;
  /** The member menu's title and greeting. */
  menu: string;
  signedInAs: (name: string) => string;
  /** Protected content. */
  open: string;
  download: string;
  downloading: (name: string) => string;
  downloadAgain: string;
  contentFor: string;
  contentClosed: string;
  noContent: string;
  /** By error code; anything else shows the service's own message. */
  errors: Partial<Record<'invalidCredentials' | 'currentPassword' | 'emailTaken' | 'rateLimited' | 'networkError' | 'memberBlocked' | 'paymentDeclined', string>>;
}

const en: Messages = {
  close: 'Close',
  back: 'Back',
  email: 'E-mail',
  password: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
  logIn: 'Log in',
  logOut: 'Log out',
  register: 'Create an account',
  createAccount: 'Create account',
  registerFor: (plan) => `Create your account, then sign up for ${plan}.`,
  noAccount: 'New here?',
  haveAccount: 'Already a member?',
  account: 'Your account',
  name: 'Name',
  loading: 'Loading…',
  required: 'required',
  problem: 'Something went wrong',
  editAccount: 'Edit your details',
  save: 'Save',
  saved: 'Saved.',
  changeEmail: 'Change e-mail',
  newEmail: 'New e-mail',
  currentPassword: 'Current password',
  changePassword: 'Change password',
  newPassword: 'New password',
  paymentMethod: 'Payment method',
  noCard: 'No card is saved.',
  saveCard: 'Save card',
  plans: 'Plans',
  noPlans: 'This site offers no plans yet.',
  choose: 'Choose',
  signUp: 'Sign up',
  free: 'Free',
  once: 'once',
  units: { day: 'day', week: 'week', month: 'month', year: 'year' },
  payments: (count) => `${count} payments`,
  trial: (days) => `${days}-day free trial`,
  signupFee: 'Sign-up fee',
  tax: (percent) => `plus ${percent} tax`,
  billedOn: (day, month) => (month ? `Billed every year on ${month} ${day}` : `Billed on day ${day} of every month`),
  accessUntil: (date) => `Access until ${date}`,
  dueNow: 'Due now',
  then: (price, date) => `Then ${price} from ${date}`,
  cardNumber: 'Card number',
  cardExpiry: 'Expiry (MM/YY)',
  cardCvc: 'Security code',
  savedCard: (brand, last4) => `Pay with your saved ${brand && `${brand} `}card ending ${last4}, or enter another one.`,
  memberships: 'Your memberships',
  noMemberships: 'You have no membership yet.',
  cancel: 'Cancel',
  cancelAsk: (plan, date) => `Cancel ${plan}? You keep access until ${date}, and nothing more is charged.`,
  cancelYes: 'Yes, cancel it',
  keep: 'Keep it',
  cancelsOn: (date) => `Ends on ${date}`,
  renewsOn: (date) => `Renews on ${date}`,
  expiresOn: (date) => `Expires on ${date}`,
  invoices: 'Invoices',
  noInvoices: 'No invoices yet.',
  seePlans: 'See the plans',
  paymentFailed: 'The last payment failed; it is tried again in a day.',
  updateCard: 'Use another card',
  invoiceColumns: ['Invoice', 'Amount', 'Status'],
  paid: 'Paid',
  failed: 'Failed',
  attempt: (description) => `${description} (attempt, not charged)`,
  yourPlan: 'Your plan',
  menu: 'Menu',
  signedInAs: (name) => `Logged in as ${name}`,
  open: 'Open',
  download: 'Download',
  downloading: (name) => `Your download of “${name}” has started.`,
  downloadAgain: 'Download again',
  contentFor: 'This content is for members of these plans:',
  contentClosed: 'None of the plans open to sign-up includes this content.',
  noContent: 'This content does not exist.',
  errors: {
    paymentDeclined: 'The card was declined. Try another card.',
    invalidCredentials: 'The e-mail or the password is wrong.',
    currentPassword: 'The current password is wrong.',
    emailTaken: 'There is an account with this e-mail already. Log in instead.',
    rateLimited: 'Too many attempts. Wait a few minutes, then try again.',
    networkError: 'The service could not be reached. Check the connection and try again.',
    memberBlocked: 'This account is blocked. Contact the site.',
  },
};

const de: Messages = {
  close: 'Schließen',
  back: 'Zurück',
  email: 'E-Mail',
  password: 'Passwort',
  firstName: 'Vorname',
  lastName: 'Nachname',
  logIn: 'Anmelden',
  logOut: 'Abmelden',
  register: 'Konto erstellen',
  createAccount: 'Konto erstellen',
  registerFor: (plan) => `Erstellen Sie Ihr Konto, dann buchen Sie ${plan}.`,
  noAccount: 'Neu hier?',
  haveAccount: 'Schon Mitglied?',
  account: 'Ihr Konto',
  name: 'Name',
  loading: 'Wird geladen …',
  required: 'Pflichtfeld',
  problem: 'Etwas ist schiefgelaufen',
  editAccount: 'Angaben bearbeiten',
  save: 'Speichern',
  saved: 'Gespeichert.',
  changeEmail: 'E-Mail ändern',
  newEmail: 'Neue E-Mail',
  currentPassword: 'Aktuelles Passwort',
  changePassword: 'Passwort ändern',
  newPassword: 'Neues Passwort',
  paymentMethod: 'Zahlungsmethode',
  noCard: 'Keine Karte gespeichert.',
  saveCard: 'Karte speichern',
  plans: 'Tarife',
  noPlans: 'Diese Website bietet noch keine Tarife an.',
  choose: 'Auswählen',
  signUp: 'Jetzt buchen',
  free: 'Kostenlos',
  once: 'einmalig',
  units: { day: 'Tag', week: 'Woche', month: 'Monat', year: 'Jahr' },
  payments: (count) => `${count} Zahlungen`,
  trial: (days) => `${days} Tage kostenlos testen`,
  signupFee: 'Anmeldegebühr',
  tax: (percent) => `zzgl. ${percent} Steuer`,
  billedOn: (day, month) => (month ? `Abrechnung jährlich am ${day}. ${month}` : `Abrechnung am ${day}. jedes Monats`),
  accessUntil: (date) => `Zugang bis ${date}`,
  dueNow: 'Jetzt fällig',
  then: (price, date) => `Danach ${price} ab ${date}`,
  cardNumber: 'Kartennummer',
  cardExpiry: 'Gültig bis (MM/JJ)',
  cardCvc: 'Prüfnummer',
  savedCard: (brand, last4) => `Zahlung mit Ihrer gespeicherten ${brand && `${brand}-`}Karte mit Endziffern ${last4}, oder geben Sie eine andere ein.`,
  memberships: 'Ihre Mitgliedschaften',
  noMemberships: 'Sie haben noch keine Mitgliedschaft.',
  cancel: 'Kündigen',
  cancelAsk: (plan, date) => `${plan} kündigen? Ihr Zugang bleibt bis ${date}, danach wird nichts mehr berechnet.`,
  cancelYes: 'Ja, kündigen',
  keep: 'Behalten',
  cancelsOn: (date) => `Endet am ${date}`,
  renewsOn: (date) => `Verlängert sich am ${date}`,
  expiresOn: (date) => `Läuft ab am ${date}`,
  invoices: 'Rechnungen',
  noInvoices: 'Noch keine Rechnungen.',
  seePlans: 'Zu den Tarifen',
  paymentFailed: 'Die letzte Zahlung ist fehlgeschlagen; sie wird in einem Tag erneut versucht.',
  updateCard: 'Andere Karte verwenden',
  invoiceColumns: ['Rechnung', 'Betrag', 'Status'],
  paid: 'Bezahlt',
  failed: 'Fehlgeschlagen',
  attempt: (description) => `${description} (Versuch, nicht belastet)`,
  yourPlan: 'Ihr Tarif',
  menu: 'Menü',
  signedInAs: (name) => `Angemeldet als ${name}`,
  open: 'Öffnen',
  download: 'Herunterladen',
  downloading: (name) => `Der Download von „${name}“ hat begonnen.`,
  downloadAgain: 'Erneut herunterladen',
  contentFor: 'Dieser Inhalt ist für Mitglieder dieser Tarife:',
  contentClosed: 'Keiner der buchbaren Tarife enthält diesen Inhalt.',
  noContent: 'Diesen Inhalt gibt es nicht.',
  errors: {
    paymentDeclined: 'Die Karte wurde abgelehnt. Bitte versuchen Sie eine andere Karte.',
    invalidCredentials: 'E-Mail oder Passwort ist falsch.',
    currentPassword: 'Das aktuelle Passwort ist falsch.',
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
