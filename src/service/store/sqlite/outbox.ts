/**
 * The SQLite store's mail outbox (issue 15). A claim is one UPDATE … RETURNING: SQLite has one
 * writer at a time, so two processes never claim the same row; the lease is `next_attempt_at`
 * moved forward, so a sender that dies mid-send leaves the row due again when the lease ends.
 */
import { MissingReferenceError } from '../errors';
import type { SqliteConnection } from './connection';
import { type RawRow, Where } from '../sql-rows';
import { INSERT_MAIL, MAIL_COLUMNS, MAILS, finishedMail, mailFrom, mailValues } from '../sql-members';
import type { MailOutcome, NewMail } from '../records';
import type { OutboxMethods } from '../store';

/**
 * Queues mails in the caller's transaction (or one of its own), returning their ids in input
 * order: the writer queueMail uses, and every store write that queues mail beside its change.
 * A mail with an `onceKey` the site has queued before is skipped, and answers the earlier id.
 */
export function sqliteMailWriter({ sql, first, write, insertAll, noSite }: SqliteConnection): (mails: readonly NewMail[]) => number[] {
  const insert = sql(INSERT_MAIL);
  return (mails) =>
    insertAll(
      mails,
      (m) => {
        const result = write(insert, ...mailValues(m));
        if (result.changes > 0) return result;
        const earlier = first(MAILS.once, m.siteId, m.onceKey!)!;
        return { changes: 0, lastInsertRowid: earlier.id as number };
      },
      (m) => (noSite(m.siteId) ? new MissingReferenceError('siteId', `site ${m.siteId} does not exist`) : undefined),
    );
}

export function sqliteOutbox(conn: SqliteConnection): OutboxMethods {
  const { sql, rawSql, firstRaw, write, page } = conn;
  const queue = sqliteMailWriter(conn);
  const claim = rawSql(
    `UPDATE mail_outbox SET next_attempt_at = ?, attempts = attempts + 1
     WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?)
     RETURNING ${MAIL_COLUMNS}`,
  );
  return {
    queueMail: async (mails: readonly NewMail[]) => queue(mails),

    async claimMail(now, limit, leaseMs) {
      const rows = claim.all(now + leaseMs, now, limit) as RawRow[];
      // RETURNING promises no order: oldest first, as claimed.
      return rows.map(mailFrom).sort((a, b) => a.id - b.id);
    },

    async finishMail(id: number, outcome: MailOutcome) {
      const { text, values } = finishedMail(id, outcome);
      return write(sql(text), ...values).changes > 0;
    },

    countMail: async (siteId, since, to) =>
      to === undefined
        ? (firstRaw(MAILS.countSite, siteId, since)![0] as number)
        : (firstRaw(MAILS.countRecipient, siteId, to, since)![0] as number),

    getMail: async (id) => {
      const row = firstRaw(MAILS.byId, id);
      return row && mailFrom(row);
    },

    // Every site's (the operator's view): `1 = 1` opens the condition Where builds on.
    listMail: async (status, request) => page(`SELECT ${MAIL_COLUMNS} FROM mail_outbox`, 'id', new Where('1', 1).eq('status', status), request, mailFrom),
  };
}
