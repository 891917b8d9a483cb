/** A MailMessage as nodemailer takes it, the same for every transport. */
import type { SendMailOptions } from 'nodemailer';
import { MailSendError } from './mail-error';
import type { MailAddress, MailMessage } from './message';

const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
const CONTROL_BUT_TAB = /[\u0000-\u0008\u000A-\u001F\u007F]/;

/** Throws a permanent MailSendError for a header that could smuggle in another (a line break in it). */
export function toMailOptions(message: MailMessage, defaultFrom: MailAddress, date?: Date): SendMailOptions {
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (!HEADER_NAME.test(name) || CONTROL_BUT_TAB.test(value)) {
      throw new MailSendError(`header ${JSON.stringify(name)} is not one line of text`, { permanent: true });
    }
  }
  const from = message.from ?? defaultFrom;
  return {
    from: typeof from === 'string' ? from : { name: from.name ?? '', address: from.address },
    to: message.to,
    ...(message.replyTo !== undefined && { replyTo: message.replyTo }),
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined && { html: message.html }),
    ...(message.headers && { headers: message.headers }),
    ...(date && { date }),
  };
}
