/**
 * The SQLite store's mail outbox (issue 15). A claim is one UPDATE … RETURNING: SQLite has one
 * writer at a time, so two processes never claim the same row; the lease is `next_attempt_at`
 * moved forward, so a sender that dies mid-send leaves the row due again when the lease ends.
 */
import { MissingReferenceError } from '../errors';
import type { SqliteConnection } from './connection';
import { type RawRow, orNull, Where } from '../sql-rows';
import type { MailOutcome, MailRecord, MailStatus, NewMail } from '../records';
import type { OutboxMethods } from '../store';

const MAIL_COLUMNS =
  'id, site_id, kind, recipient, subject, text_body, html_body, from_name, reply_to, created_at, status, attempts, next_attempt_at, sent_at, last_error, once_key';

function mailFrom(r: RawRow): MailRecord {
  const [id, siteId, kind, to, subject, text, html, fromName, replyTo, createdAt, status, attempts, nextAttemptAt, sentAt, lastError, onceKey] = r as [
    number, number, string, string, string, string, string | null, string | null, string | null, number, MailStatus, number, number, number | null, string | null,
    string | null,
  ];
  return {
    id, siteId, kind, to, subject, text, createdAt, status, attempts, nextAttemptAt,
    ...(html !== null && { html }),
    ...(fromName !== null && { fromName }),
    ...(replyTo !== null && { replyTo }),
    ...(sentAt !== null && { sentAt }),
    ...(lastError !== null && { lastError }),
    ...(onceKey !== null && { onceKey }),
  };
}

/**
 * Queues mails in the caller's transaction (or one of its own), returning their ids in input
 * order: the writer queueMail uses, and every store write that queues mail beside its change.
 * A mail with an `onceKey` the site has queued before is skipped, and answers the earlier id.
 */
export function sqliteMailWriter({ sql, first, write, insertAll, noSite }: SqliteConnection): (mails: readonly NewMail[]) => number[] {
  const insert = sql(
    `INSERT INTO mail_outbox (site_id, kind, recipient, subject, text_body, html_body, from_name, reply_to, once_key, created_at,
       next_attempt_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_id, once_key) WHERE once_key IS NOT NULL DO NOTHING`,
  );
  return (mails) =>
    insertAll(
      mails,
      (m) => {
        const result = write(
          insert, m.siteId, m.kind, m.to, m.subject, m.text, orNull(m.html), orNull(m.fromName), orNull(m.replyTo), orNull(m.onceKey),
          m.createdAt, m.createdAt,
        );
        if (result.changes > 0) return result;
        const earlier = first('SELECT id FROM mail_outbox WHERE site_id = ? AND once_key = ?', m.siteId, m.onceKey!)!;
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
      const result =
        'sent' in outcome
          ? write(sql(`UPDATE mail_outbox SET status = 'sent', sent_at = ?, last_error = NULL WHERE id = ? AND status = 'queued'`), outcome.sent, id)
          : 'retryAt' in outcome
            ? write(sql(`UPDATE mail_outbox SET next_attempt_at = ?, last_error = ? WHERE id = ? AND status = 'queued'`), outcome.retryAt, outcome.error, id)
            : write(sql(`UPDATE mail_outbox SET status = 'failed', next_attempt_at = ?, last_error = ? WHERE id = ? AND status = 'queued'`), outcome.failedAt, outcome.error, id);
      return result.changes > 0;
    },

    countMail: async (siteId, since, to) =>
      to === undefined
        ? (firstRaw('SELECT count(*) FROM mail_outbox WHERE site_id = ? AND created_at >= ?', siteId, since)![0] as number)
        : (firstRaw('SELECT count(*) FROM mail_outbox WHERE site_id = ? AND recipient = ? AND created_at >= ?', siteId, to, since)![0] as number),

    getMail: async (id) => {
      const row = firstRaw(`SELECT ${MAIL_COLUMNS} FROM mail_outbox WHERE id = ?`, id);
      return row && mailFrom(row);
    },

    // Every site's (the operator's view): `1 = 1` opens the condition Where builds on.
    listMail: async (status, request) => page(`SELECT ${MAIL_COLUMNS} FROM mail_outbox`, 'id', new Where('1', 1).eq('status', status), request, mailFrom),
  };
}
