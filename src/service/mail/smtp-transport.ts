/**
 * Mail through an SMTP server, over a small pool of connections. Every wait has a limit, and so
 * has the whole send (SmtpTimeouts): a server that stops answering fails it instead of holding
 * the sender.
 */
import type { SmtpMailConfig } from './mail-config';
import { MailSendError, toMailSendError } from './mail-error';
import { toMailOptions } from './mail-options';
import type { MailTransport } from './transport';

/** A host on this machine: a password sent to it never crosses a network. */
const isLoopback = (host: string) => /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i.test(host);

/**
 * nodemailer's options for the server. Credentials to another machine over `smtp://` require
 * STARTTLS: nodemailer would otherwise use it only when offered, and a server that does not
 * offer it (or an attacker who strips the offer) would get the password in clear.
 */
export function smtpTransportOptions({ server, timeouts }: Pick<SmtpMailConfig, 'server' | 'timeouts'>) {
  return {
    pool: true,
    host: server.host,
    port: server.port,
    secure: server.secure,
    requireTLS: !server.secure && !!server.auth && !isLoopback(server.host),
    ...(server.auth && { auth: server.auth }),
    connectionTimeout: timeouts.connection,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
    dnsTimeout: timeouts.dns,
    // One new connection when a pooled one closes under a message; further retries are the
    // sender's (with its own back-off), not a second loop in here.
    maxRequeues: 1,
  };
}

/** nodemailer's pool of connections to the server. */
const smtpPool = async (config: Pick<SmtpMailConfig, 'server' | 'timeouts'>) => (await import('nodemailer')).default.createTransport(smtpTransportOptions(config));

export function createSmtpTransport({ server, timeouts, from }: SmtpMailConfig): MailTransport {
  // nodemailer (a quarter of a second of `svc serve`'s start) loads with the first message.
  let pool: ReturnType<typeof smtpPool> | undefined;
  let closed = false;
  return {
    kind: 'smtp',
    async send(message) {
      if (closed) throw new MailSendError('the mail transport is closed', { permanent: false });
      try {
        const info = await (await (pool ??= smtpPool({ server, timeouts }))).sendMail({ ...toMailOptions(message, from), signal: AbortSignal.timeout(timeouts.send) });
        return { messageId: info.messageId };
      } catch (error) {
        if ((error as { code?: string }).code !== 'EABORT') throw toMailSendError(error);
        throw new MailSendError(`the SMTP server took more than ${timeouts.send} ms over one message`, { permanent: false, code: 'ETIMEDOUT', cause: error });
      }
    },
    async close() {
      closed = true;
      (await pool?.catch(() => undefined))?.close();
    },
  };
}
