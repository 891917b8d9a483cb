import type { AccountWords } from '../messages';

/** The account's screens' words in German: a chunk of their own, downloaded with those screens (../screen-chunks.ts). */
export const deAccount: AccountWords = {
  account: 'Ihr Konto',
  editAccount: 'Angaben bearbeiten',
  newEmail: 'Neue E-Mail',
  currentPassword: 'Aktuelles Passwort',
  memberships: 'Ihre Mitgliedschaften',
  noMemberships: 'Sie haben noch keine Mitgliedschaft.',
  cancel: 'Kündigen',
  cancelAsk: (plan, date) => `${plan} kündigen? Ihr Zugang bleibt bis ${date}, danach wird nichts mehr berechnet.`,
  cancelYes: 'Ja, kündigen',
  keep: 'Behalten',
  cancelsOn: (date) => `Endet am ${date}`,
  renewsOn: (date) => `Verlängert sich am ${date}`,
  movesTo: (plan, date) => `Wechselt am ${date} zu ${plan}`,
  expiresOn: (date) => `Läuft ab am ${date}`,
  invoices: 'Rechnungen',
  firstInvoice: (plan, date) => `Ihre Testphase für ${plan} endet am ${date}; die erste Rechnung folgt dann.`,
  noInvoices: 'Noch keine Rechnungen.',
  paymentFailed: 'Die letzte Zahlung ist fehlgeschlagen; sie wird in einem Tag erneut versucht.',
  updateCard: 'Andere Karte verwenden',
  invoiceColumns: ['Rechnung', 'Betrag', 'Status'],
  paid: 'Bezahlt',
  failed: 'Fehlgeschlagen',
  refunded: 'Erstattet',
  attempt: (description) => `${description} (Versuch, nicht belastet)`,
  picture: 'Profilbild',
  uploadPicture: 'Bild hochladen',
  removePicture: 'Bild entfernen',
  menu: 'Menü',
  logOut: 'Abmelden',
  signedInAs: (name) => `Angemeldet als ${name}`,
  // The account forms' titles, which the mailed links' screens show too.
  changeEmail: 'E-Mail ändern',
  changePassword: 'Passwort ändern',
  newPassword: 'Neues Passwort',
  // The account's forms check the current password.
  errors: {
    currentPassword: 'Das aktuelle Passwort ist falsch.',
    // The picture's refusals (PUT /me/picture).
    pictureTooLarge: 'Das Bild ist zu groß: höchstens 2 MB.',
    unsupportedPicture: 'Bitte ein JPEG-, PNG- oder WebP-Bild wählen.',
    invalidPicture: 'Das Bild kann nicht gelesen werden (beschädigt oder über 25 Megapixel). Bitte ein anderes wählen.',
  },
};
