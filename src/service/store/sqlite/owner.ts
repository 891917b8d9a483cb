/**
 * The SQLite store's reads and writes for the owner's actions (issue 32): a membership and an
 * invoice by id, the ledger's page, and erasing a member in one immediate transaction.
 */
import { ACCOUNT_READS, ERASE_MEMBER_DATA, ERASE_MEMBER_ROW, OWNER, eraseMailTo, invoiceWhere } from '../sql-members';
import { mailedAddresses } from '../member-erasure';
import { type RawRow, INVOICE_COLUMNS, MEMBERSHIP_BY_ID, invoiceFrom, memberFrom, membershipFrom } from '../sql-rows';
import type { OwnerMethods } from '../store';
import { DUE_AT_ONCE, announcedAt } from '../webhook-announcing';
import { memberMessage } from '../../webhooks/messages';
import type { SqliteConnection } from './connection';
import { sqliteAnnouncer } from './webhooks';

export function sqliteOwner(conn: SqliteConnection): OwnerMethods {
  const { db, sql, rawSql, firstRaw, page } = conn;
  const announcer = sqliteAnnouncer(conn);

  const erase = db.transaction((siteId: number, memberId: number, erasedEmail: string) => {
    const row = firstRaw(ACCOUNT_READS.member, siteId, memberId);
    if (!row) return undefined;
    const former = (rawSql(OWNER.formerEmails).all(siteId, memberId) as RawRow[]).map((r) => r[0]);
    sql(eraseMailTo('sqlite')).run(siteId, JSON.stringify(mailedAddresses(memberFrom(row).email, former)));
    for (const statement of ERASE_MEMBER_DATA) sql(statement).run(siteId, memberId);
    sql(ERASE_MEMBER_ROW).run(erasedEmail, siteId, memberId);
    const member = memberFrom(firstRaw(ACCOUNT_READS.member, siteId, memberId)!);
    const hooks = announcer([siteId]);
    if (hooks.wants(siteId, 'member.updated')) hooks.write([memberMessage('member.updated', siteId, member, announcedAt())], DUE_AT_ONCE);
    return member;
  });

  return {
    async getMembership(siteId, id) {
      const row = firstRaw(MEMBERSHIP_BY_ID, siteId, id);
      return row && membershipFrom(row);
    },
    async getInvoice(siteId, id) {
      const row = firstRaw(OWNER.invoice, siteId, id);
      return row && invoiceFrom(row);
    },
    listInvoices: async (siteId, f, req) => page(`SELECT ${INVOICE_COLUMNS} FROM invoices`, 'id', invoiceWhere(siteId, f), req, invoiceFrom),
    eraseMember: async (siteId, memberId, erasedEmail) => erase.immediate(siteId, memberId, erasedEmail),
  };
}
