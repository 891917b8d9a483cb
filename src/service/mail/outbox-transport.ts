/**
 * Mail into the outbox directory: each message composed exactly as SMTP would carry it (RFC 5322,
 * CRLF line ends) and written as one .eml file, for `svc outbox` or any mail client to read.
 */
import type { OutboxMailConfig } from './mail-config';
import { MailSendError, toMailSendError } from './mail-error';
import { toMailOptions } from './mail-options';
import { outboxFileName, writeOutboxFile } from './outbox-files';
import type { MailTransport } from './transport';

export function createOutboxTransport({ dir, from }: OutboxMailConfig): MailTransport {
  // nodemailer (a quarter of a second of `svc serve`'s start) loads with the first message.
  let composing: ReturnType<typeof composer> | undefined;
  // File names sort by time: two messages in one millisecond get consecutive ones, in send order.
  let lastMs = 0;
  let closed = false;
  return {
    kind: 'outbox',
    async send(message) {
      if (closed) throw new MailSendError('the mail transport is closed', { permanent: false });
      const at = new Date((lastMs = Math.max(Date.now(), lastMs + 1)));
      try {
        const info = await (await (composing ??= composer())).sendMail(toMailOptions(message, from, at));
        await writeOutboxFile(dir, outboxFileName(at, info.messageId), info.message as Buffer);
        return { messageId: info.messageId };
      } catch (error) {
        throw toMailSendError(error);
      }
    },
    async close() {
      closed = true;
      (await composing?.catch(() => undefined))?.close();
    },
  };
}

/** nodemailer composing a message as SMTP would carry it, without sending it anywhere. */
const composer = async () => (await import('nodemailer')).default.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
