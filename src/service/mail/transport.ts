/**
 * A mail transport: what a sender hands a message to. SMTP (SVC_SMTP_URL) or the outbox
 * directory; either way `send` settles with the Message-ID, or rejects with a MailSendError
 * that says whether trying again can help (`permanent`).
 */
import type { MailConfig } from './mail-config';
import type { MailMessage } from './message';
import { createOutboxTransport } from './outbox-transport';
import { createSmtpTransport } from './smtp-transport';

export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  /** Resolves when the server took the message (or its file is in the outbox). */
  send(message: MailMessage): Promise<{ messageId: string }>;
  /** Ends open connections; sends after it fail. Safe to call twice. */
  close(): Promise<void>;
}

export function createMailTransport(config: MailConfig): MailTransport {
  return config.kind === 'smtp' ? createSmtpTransport(config) : createOutboxTransport(config);
}
