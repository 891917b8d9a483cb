/** The transport the settings name (SVC_SMTP_URL or the outbox): apart from the interface both implement. */
import type { MailConfig } from './mail-config';
import { createOutboxTransport } from './outbox-transport';
import { createSmtpTransport } from './smtp-transport';
import type { MailTransport } from './transport';

export function createMailTransport(config: MailConfig): MailTransport {
  return config.kind === 'smtp' ? createSmtpTransport(config) : createOutboxTransport(config);
}
