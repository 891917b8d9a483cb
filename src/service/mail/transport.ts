/**
 * A mail transport: what a sender hands a message to. SMTP (SVC_SMTP_URL) or the outbox
 * directory; either way `send` settles with the Message-ID, or rejects with a MailSendError
 * that says whether trying again can help (`permanent`). The factory is ./create-transport.
 */
import type { MailMessage } from './message';

export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  /** Resolves when the server took the message (or its file is in the outbox). */
  send(message: MailMessage): Promise<{ messageId: string }>;
  /** Ends open connections; sends after it fail. Safe to call twice. */
  close(): Promise<void>;
}
