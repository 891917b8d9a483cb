/**
 * The mails in German, formal "Sie" throughout, as in the widget's modal, and with its words:
 * "Anmelden" (log in), "Tarif" (plan), "Mitgliedschaft" (membership).
 */
import { toDuration } from './duration';
import type { Words } from './parts';

const UNITS = { minute: ['Minute', 'Minuten'], hour: ['Stunde', 'Stunden'], day: ['Tag', 'Tage'] } as const;

function duration(minutes: number): string {
  const { count, unit } = toDuration(minutes);
  return `${count} ${UNITS[unit][count === 1 ? 0 : 1]}`;
}

const NOT_ASKED = 'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.';

export const de: Words = {
  lang: 'de',
  linkHint: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:',
  kinds: {
    passwordReset: (site, { link, minutes }) => ({
      subject: `Passwort für ${site} zurücksetzen`,
      greeting: 'Guten Tag,',
      intro: [`Jemand möchte das Passwort Ihres Kontos bei ${site} zurücksetzen.`],
      action: { intro: 'Mit diesem Link wählen Sie ein neues Passwort:', button: 'Passwort zurücksetzen', link },
      outro: [
        `Der Link ist ${duration(minutes)} gültig und funktioniert nur einmal.`,
        'Falls Sie das nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
      ],
    }),
    signInCode: (site, { code, link, minutes }) => ({
      subject: `Ihr Anmeldecode für ${site}`,
      greeting: 'Guten Tag,',
      intro: [],
      code: { label: `Ihr Code zur Anmeldung bei ${site}:`, value: code },
      action: { intro: 'Oder melden Sie sich mit diesem Link an:', button: `Bei ${site} anmelden`, link },
      outro: [
        `Code und Link sind ${duration(minutes)} gültig.`,
        'Falls Sie sich nicht anmelden wollten, ignorieren Sie diese E-Mail.',
      ],
    }),
    welcome: (site, { firstName, code, link, minutes }) => ({
      subject: `Willkommen bei ${site}: Bitte bestätigen Sie Ihre E-Mail-Adresse`,
      greeting: firstName ? `Hallo ${firstName},` : 'Guten Tag,',
      intro: [`Willkommen bei ${site} und danke, dass Sie ein Konto erstellt haben.`],
      code: { label: 'Bitte bestätigen Sie Ihre E-Mail-Adresse mit diesem Code:', value: code },
      action: { intro: 'Oder folgen Sie diesem Link:', button: 'E-Mail-Adresse bestätigen', link },
      outro: [
        `Code und Link sind ${duration(minutes)} gültig.`,
        'Falls Sie kein Konto erstellt haben, ignorieren Sie diese E-Mail.',
      ],
    }),
    confirmEmail: (site, { code, link, minutes }) => ({
      subject: `E-Mail-Adresse für ${site} bestätigen`,
      greeting: 'Guten Tag,',
      intro: [],
      code: { label: `Mit diesem Code bestätigen Sie Ihre E-Mail-Adresse für ${site}:`, value: code },
      action: { intro: 'Oder folgen Sie diesem Link:', button: 'E-Mail-Adresse bestätigen', link },
      outro: [`Code und Link sind ${duration(minutes)} gültig.`, NOT_ASKED],
    }),
    accountExists: (site, { code, link, minutes }) => ({
      subject: `Sie haben bereits ein Konto bei ${site}`,
      greeting: 'Guten Tag,',
      intro: [
        `Jemand, vielleicht Sie selbst, wollte mit dieser E-Mail-Adresse ein Konto bei ${site} erstellen. ` +
          'Zu dieser Adresse gibt es bereits ein Konto.',
      ],
      code: { label: `Ihr Code für die Anmeldung bei ${site}:`, value: code },
      action: { intro: 'Oder melden Sie sich mit diesem Link an:', button: `Bei ${site} anmelden`, link },
      outro: [
        `Code und Link sind ${duration(minutes)} gültig. Sie können sich auch mit Ihrem Passwort anmelden ` +
          'oder bei der Anmeldung „Passwort vergessen?“ wählen.',
        'Falls Sie das nicht waren, ignorieren Sie diese E-Mail; es hat sich nichts geändert.',
      ],
    }),
    emailChange: (site, { newEmail, code, link, minutes }) => ({
      subject: `Neue E-Mail-Adresse für ${site} bestätigen`,
      greeting: 'Guten Tag,',
      intro: [`Bitte bestätigen Sie, dass ${newEmail} die neue E-Mail-Adresse Ihres Kontos bei ${site} ist.`],
      code: { label: 'Geben Sie diesen Code ein:', value: code },
      action: { intro: 'Oder folgen Sie diesem Link:', button: 'Neue Adresse bestätigen', link },
      outro: [
        `Code und Link sind ${duration(minutes)} gültig.`,
        'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.',
      ],
    }),
    emailInUse: (site) => ({
      subject: `Zu dieser Adresse gibt es bereits ein Konto bei ${site}`,
      greeting: 'Guten Tag,',
      intro: [
        `Jemand wollte die E-Mail-Adresse eines anderen Kontos bei ${site} auf diese Adresse ändern. ` +
          'Zu dieser Adresse gibt es bereits ein Konto, daher wurde nichts geändert.',
      ],
      outro: ['Falls Ihnen das nichts sagt, ignorieren Sie diese E-Mail.'],
    }),
    emailChanged: (site, { newEmail }) => ({
      subject: `Ihre E-Mail-Adresse bei ${site} wurde geändert`,
      greeting: 'Guten Tag,',
      intro: [`Die E-Mail-Adresse Ihres Kontos bei ${site} lautet jetzt ${newEmail}.`],
      outro: [
        'Melden Sie sich ab jetzt mit der neuen Adresse an.',
        `Falls Sie das nicht waren, wenden Sie sich bitte umgehend an ${site}.`,
      ],
    }),
    receipt: (site, { planName, amount, date, description, link }) => ({
      subject: `Ihr Zahlungsbeleg von ${site}`,
      greeting: 'Guten Tag,',
      intro: [`Vielen Dank für Ihre Zahlung an ${site}.`],
      facts: [
        ['Tarif', planName],
        ['Betrag', amount],
        ['Datum', date],
        ['Für', description],
      ],
      action: { intro: 'Alle Rechnungen finden Sie in Ihrem Konto:', button: 'Rechnungen ansehen', link },
      outro: [],
    }),
    paymentFailed: (site, { planName, amount, link, bankAsks }) => ({
      subject: `Zahlung für ${planName} bei ${site} fehlgeschlagen`,
      greeting: 'Guten Tag,',
      intro: [`Wir konnten ${amount} für die Verlängerung Ihrer Mitgliedschaft ${planName} bei ${site} nicht abbuchen.`],
      action: bankAsks
        ? { intro: 'Ihre Bank möchte, dass Sie die Zahlung bestätigen. Bestätigen Sie sie mit diesem Link:', button: 'Zahlung bestätigen', link }
        : { intro: 'Bitte aktualisieren Sie Ihre Karte mit diesem Link:', button: 'Karte aktualisieren', link },
      outro: ['Wir versuchen die Zahlung erneut.'],
    }),
    endingSoon: (site, { planName, endsOn, link }) => ({
      subject: `Ihre Mitgliedschaft ${planName} bei ${site} endet am ${endsOn}`,
      greeting: 'Guten Tag,',
      intro: [`Ihre Mitgliedschaft ${planName} bei ${site} endet am ${endsOn}.`],
      action: {
        intro: 'Um Ihren Zugang zu behalten, wählen Sie einen Tarif in Ihrem Konto:',
        button: 'Zu den Tarifen',
        link,
      },
      outro: [],
    }),
  },
};
