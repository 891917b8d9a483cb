/** Mail (issue 15): the settings, the transports a sender hands messages to, and the outbox files. */
export { DEFAULT_MAIL_FROM, DEFAULT_SMTP_TIMEOUTS, MailConfigError, readMailConfig } from './mail-config';
export { MailSendError, toMailSendError } from './mail-error';
export { createMailTransport } from './create-transport';
export { listOutboxFiles, outboxFileName, writeOutboxFile } from './outbox-files';
export { findLinks } from './links';

export type { MailConfig, OutboxMailConfig, OutboxSource, SmtpMailConfig, SmtpTimeouts } from './mail-config';
export type { MailAddress, MailMessage } from './message';
export type { MailTransport } from './transport';
export type { SmtpServer } from './smtp-url';
