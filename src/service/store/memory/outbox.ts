/**
 * The memory store's mail outbox (issue 15): the same rules as the SQLite one, for tests and the
 * mock. One process only, so a claim is a plain loop; the lease is `nextAttemptAt` moved forward.
 */
import { copy, Table } from './table';
import type { MailRecord, NewMail } from '../records';
import type { OutboxMethods } from '../store';

export interface MemoryOutbox {
  methods: OutboxMethods;
  /** queueMail's work, synchronous: for the store's other writes that queue mail beside their change. Throws before any change. */
  queue(batch: readonly NewMail[]): number[];
  /** Mails of the `kinds` queued at `since` or later for the site, and of those for `to`. */
  count(siteId: number, kinds: readonly string[], since: number, to: string): { site: number; address: number };
  /** eraseMember's part here: every mail of the site to one of the addresses, sent or not, deleted. */
  dropMailTo(siteId: number, addresses: readonly string[]): void;
}

export function memoryOutbox(requireSite: (siteId: number) => void): MemoryOutbox {
  const mails = new Table<MailRecord>();
  /** Mail id by `${siteId}\n${onceKey}`. */
  const once = new Map<string, number>();
  const queue = (batch: readonly NewMail[]): number[] => {
    for (const mail of batch) requireSite(mail.siteId); // every check before any change
    return batch.map((mail) => {
      const key = mail.onceKey === undefined ? undefined : `${mail.siteId}\n${mail.onceKey}`;
      const earlier = key === undefined ? undefined : once.get(key);
      if (earlier !== undefined) return earlier;
      const { id } = mails.insert((id) => ({ ...copy(mail), id, status: 'queued', attempts: 0, nextAttemptAt: mail.createdAt }));
      if (key !== undefined) once.set(key, id);
      return id;
    });
  };
  const count = (siteId: number, kinds: readonly string[], since: number, to: string) => {
    const recent = mails.rows.filter((m) => m.siteId === siteId && m.createdAt >= since && kinds.includes(m.kind));
    return { site: recent.length, address: recent.filter((m) => m.to === to).length };
  };
  const methods: OutboxMethods = {
    async queueMail(batch: readonly NewMail[]) {
      return queue(batch);
    },

    async claimMail(now, limit, leaseMs) {
      const due = mails.rows
        .filter((m) => m.status === 'queued' && m.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id)
        .slice(0, limit);
      for (const m of due) {
        m.nextAttemptAt = now + leaseMs;
        m.attempts++;
      }
      return due.sort((a, b) => a.id - b.id).map(copy);
    },

    async finishMail(id, outcome) {
      const mail = mails.byId.get(id);
      if (!mail || mail.status !== 'queued') return false;
      if ('sent' in outcome) {
        mail.status = 'sent';
        mail.sentAt = outcome.sent;
        delete mail.lastError;
      } else if ('retryAt' in outcome) {
        mail.nextAttemptAt = outcome.retryAt;
        mail.lastError = outcome.error;
      } else {
        mail.status = 'failed';
        mail.nextAttemptAt = outcome.failedAt;
        mail.lastError = outcome.error;
      }
      return true;
    },

    countMail: async (siteId, since, to) =>
      mails.rows.filter((m) => m.siteId === siteId && m.createdAt >= since && (to === undefined || m.to === to)).length,

    getMail: async (id) => {
      const mail = mails.byId.get(id);
      return mail && copy(mail);
    },

    listMail: async (status, request) => {
      const found = mails.page(request, (m) => status === undefined || m.status === status);
      return { ...found, items: found.items.map(copy) };
    },
  };
  const dropMailTo = (siteId: number, addresses: readonly string[]) =>
    void mails.deleteWhere((m) => m.siteId === siteId && addresses.includes(m.to));
  return { methods, queue, count, dropMailTo };
}
