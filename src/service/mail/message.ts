/** What the service mails: one recipient, plain text always, simple HTML when there is some. */

/** A mailbox: `{ name: 'The Weekly Ledger', address: 'news@ledger.example' }`. */
export interface MailAddress {
  name?: string;
  address: string;
}

export interface MailMessage {
  to: string;
  /** The configured sender (SVC_MAIL_FROM) when left out. */
  from?: string | MailAddress;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}
