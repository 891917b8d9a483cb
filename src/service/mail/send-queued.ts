/**
 * Sends what the outbox holds (issue 15): claims due mails from the store, hands each to the
 * transport, and records how it went. A mail the transport refuses for good (an SMTP 5xx, a bad
 * address) or that keeps failing is given up and said in the log with its error — never lost
 * silently; a temporary failure (4xx, the server unreachable) is tried again later, backing off.
 * Claims are leases in the store, so any number of processes may run this side by side.
 */
import type { Clock } from '../domain/clock';
import { runPeriodically } from '../periodic';
import type { MailAddress } from './message';
import type { MailRecord } from '../store/records';
import type { Store } from '../store/store';

/** What the sender needs of a transport (./transport.ts): send one message, or reject. */
export interface MailTransportLike {
  send(message: { to: string; from?: string | MailAddress; replyTo?: string; subject: string; text: string; html?: string }): Promise<unknown>;
}

export interface MailSendDeps {
  store: Store;
  transport: MailTransportLike;
  clock: Clock;
  /** The mailbox mail comes from (SVC_MAIL_FROM, as read); a site's own name is shown with its address. */
  from: MailAddress;
  /** Where a given-up mail is reported. */
  report(message: string): void;
}

/** Attempts in all before a temporary failure counts as a permanent one. */
export const MAIL_MAX_ATTEMPTS = 8;
/** How long a claim holds a mail: longer than the transport's own timeouts. */
export const MAIL_LEASE_MS = 2 * 60_000;
/** The wait after the n-th failed attempt: 30 s, 1 min, 2 min… at most an hour. */
export const mailRetryDelay = (attempts: number): number => Math.min(30_000 * 2 ** (attempts - 1), 60 * 60_000);

/**
 * The site's name beside the service's address (SVC_MAIL_FROM), or that mailbox as the operator
 * wrote it when the mail names no site: a mailbox object that nodemailer writes itself, quoted or
 * encoded as the name needs (quotes, commas, non-ASCII letters all kept), with line breaks made
 * spaces so a name cannot start a header of its own. Never a header text built here and parsed
 * back (issue 27).
 */
export function fromMailbox(from: MailAddress, name: string | undefined): MailAddress {
  return name ? { name: name.replace(/[\r\n]+/g, ' '), address: from.address } : from;
}

/** One pass: claims up to `batch` due mails and sends them one after another. Answers how many were sent. */
export async function sendQueuedMail(deps: MailSendDeps, batch = 10): Promise<number> {
  const { store, transport, clock, from, report } = deps;
  const mails = await store.claimMail(clock(), batch, MAIL_LEASE_MS);
  let sent = 0;
  for (const mail of mails) {
    try {
      await transport.send(messageOf(mail, from));
      await store.finishMail(mail.id, { sent: clock() });
      sent++;
    } catch (error) {
      const text = (error as Error).message ?? String(error);
      const permanent = (error as { permanent?: boolean }).permanent === true;
      if (permanent || mail.attempts >= MAIL_MAX_ATTEMPTS) {
        await store.finishMail(mail.id, { failedAt: clock(), error: text });
        report(`mail ${mail.id} (${mail.kind} to ${mail.to}) is given up after ${mail.attempts} attempt(s): ${text}`);
      } else {
        await store.finishMail(mail.id, { retryAt: clock() + mailRetryDelay(mail.attempts), error: text });
      }
    }
  }
  return sent;
}

function messageOf(mail: MailRecord, from: MailAddress) {
  return {
    to: mail.to,
    from: fromMailbox(from, mail.fromName),
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== undefined && { html: mail.html }),
    ...(mail.replyTo !== undefined && { replyTo: mail.replyTo }),
  };
}

/** The sender in the background (../periodic.ts): each pass sends until nothing more is due now. */
export function startMailSender(deps: MailSendDeps, everyMs = 5_000): { wake(): void; stop(): Promise<void> } {
  return runPeriodically(
    async (stopped) => {
      while (!stopped() && (await sendQueuedMail(deps)) > 0);
    },
    everyMs,
    (error) => deps.report(`mail: a pass failed and is tried again in ${everyMs / 1000} s: ${(error as Error).message}`),
  );
}
