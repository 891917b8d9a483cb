/** The public shapes of the mail templates: what the service asks for, and what it gets back. */

/** A composed mail: the subject line, plain text always, and a small HTML version of the same words. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** The site a mail speaks for. `locale` 'de' reads German; anything else reads English. */
export interface MailSite {
  name: string;
  locale: string;
}

/**
 * What to say. Values arrive ready to show (amounts and dates already formatted); `minutes` is
 * how long a link or code works. `link` is the full address the member opens.
 */
export type MailTemplate =
  | { kind: 'passwordReset'; link: string; minutes: number }
  | { kind: 'signInCode'; code: string; link: string; minutes: number }
  | { kind: 'welcome'; firstName?: string; code: string; link: string; minutes: number }
  | { kind: 'confirmEmail'; code: string; link: string; minutes: number }
  | { kind: 'accountExists'; code: string; link: string; minutes: number }
  | { kind: 'emailChange'; newEmail: string; code: string; link: string; minutes: number }
  | { kind: 'emailInUse' }
  | { kind: 'emailChanged'; newEmail: string }
  | { kind: 'receipt'; planName: string; amount: string; date: string; description: string; link: string }
  /** `bankAsks`: the bank held the payment for the member to confirm (3-D Secure, `authentication_required`). */
  | { kind: 'paymentFailed'; planName: string; amount: string; link: string; bankAsks?: boolean }
  | { kind: 'endingSoon'; planName: string; endsOn: string; link: string };

export type MailKind = MailTemplate['kind'];
