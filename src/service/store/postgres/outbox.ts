/**
 * The PostgreSQL store's mail outbox (issue 15; ../sqlite/outbox ported). Several processes
 * send at once, so a claim locks the rows it takes with `FOR UPDATE SKIP LOCKED`, as pg-boss and
 * graphile-worker claim jobs: a concurrent claim skips them instead of waiting, and one that
 * reads a row after the claim committed sees it no longer due (READ COMMITTED checks the row
 * again once locked). The lease is `next_attempt_at` moved forward, so a sender that dies
 * mid-send leaves the mail due again when the lease ends.
 *
 * `postgresMailWriter(tx, mails): Promise<number[]>` queues mails in the caller's transaction
 * (./member-tokens, ./payments), answering ids in input order; it lets PostgreSQL's error through.
 */
import type { NewMail } from '../records';
import { INSERT_MAIL, MAIL_COLUMNS, MAILS, finishedMail, mailFrom, mailValues } from '../sql-members';
import { Where } from '../sql-rows';
import type { OutboxMethods } from '../store';
import { type PostgresConnection, type Sql, insertAll, noSite } from './connection';

/**
 * On the pool, outside any transaction: one statement at READ COMMITTED, which is what makes
 * SKIP LOCKED a queue (a SERIALIZABLE claim would fail on every row another claim just took).
 */
const CLAIM = `WITH due AS (
    SELECT id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= ?
    ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED
  )
  UPDATE mail_outbox m SET next_attempt_at = ?, attempts = m.attempts + 1 FROM due WHERE m.id = due.id
  RETURNING ${MAIL_COLUMNS.split(', ').map((c) => `m.${c}`).join(', ')}`;

/** One mail; a mail whose `onceKey` the site has queued before (this batch included) answers the earlier id. */
async function queueOne(tx: Sql, mail: NewMail): Promise<number> {
  const inserted = await tx.first(`${INSERT_MAIL} RETURNING id`, ...mailValues(mail));
  return (inserted ?? (await tx.first(MAILS.once, mail.siteId, mail.onceKey!))!).id as number;
}

export async function postgresMailWriter(tx: Sql, mails: readonly NewMail[]): Promise<number[]> {
  const ids: number[] = [];
  for (const mail of mails) ids.push(await queueOne(tx, mail));
  return ids;
}

export function postgresOutbox(conn: PostgresConnection): OutboxMethods {
  return {
    queueMail: (mails) => insertAll(conn, mails, queueOne, (m) => noSite(conn, m.siteId)),

    async claimMail(now, limit, leaseMs) {
      const rows = await conn.raw(CLAIM, now, limit, now + leaseMs);
      // RETURNING promises no order: oldest first, as claimed.
      return rows.map(mailFrom).sort((a, b) => a.id - b.id);
    },

    async finishMail(id, outcome) {
      const { text, values } = finishedMail(id, outcome);
      return (await conn.run(text, ...values)) > 0;
    },

    countMail: async (siteId, since, to) =>
      to === undefined
        ? ((await conn.firstRaw(MAILS.countSite, siteId, since))![0] as number)
        : ((await conn.firstRaw(MAILS.countRecipient, siteId, to, since))![0] as number),

    async getMail(id) {
      const row = await conn.firstRaw(MAILS.byId, id);
      return row && mailFrom(row);
    },

    // Every site's (the operator's view): `1 = 1` opens the condition Where builds on.
    listMail: (status, request) => conn.page(`SELECT ${MAIL_COLUMNS} FROM mail_outbox`, 'id', new Where('1', 1).eq('status', status), request, mailFrom),
  };
}
