/**
 * The PostgreSQL store's reads and writes for the owner's actions (issue 32): a membership and
 * an invoice by id, the ledger's page, and erasing a member in one transaction.
 */
import { ACCOUNT_READS, ERASE_MEMBER_DATA, ERASE_MEMBER_ROW, OWNER, eraseMailTo, invoiceWhere } from '../sql-members';
import { mailedAddresses } from '../member-erasure';
import { INVOICE_COLUMNS, MEMBERSHIP_BY_ID, invoiceFrom, memberFrom, membershipFrom } from '../sql-rows';
import type { OwnerMethods } from '../store';
import { DUE_AT_ONCE, announcedAt } from '../webhook-announcing';
import { memberMessage } from '../../webhooks/messages';
import type { PostgresConnection } from './connection';
import { postgresAnnouncer } from './webhooks';

export function postgresOwner(conn: PostgresConnection): OwnerMethods {
  return {
    async getMembership(siteId, id) {
      const row = await conn.firstRaw(MEMBERSHIP_BY_ID, siteId, id);
      return row && membershipFrom(row);
    },
    async getInvoice(siteId, id) {
      const row = await conn.firstRaw(OWNER.invoice, siteId, id);
      return row && invoiceFrom(row);
    },
    listInvoices: (siteId, f, req) => conn.page(`SELECT ${INVOICE_COLUMNS} FROM invoices`, 'id', invoiceWhere(siteId, f), req, invoiceFrom),
    eraseMember: (siteId, memberId, erasedEmail) =>
      conn.transaction(async (tx) => {
        // FOR UPDATE: a concurrent change of the member waits for the erasure, then finds it erased.
        const row = await tx.firstRaw(`${ACCOUNT_READS.member} FOR UPDATE`, siteId, memberId);
        if (!row) return undefined;
        const former = (await tx.raw(OWNER.formerEmails, siteId, memberId)).map((r) => r[0]);
        await tx.run(eraseMailTo('postgres'), siteId, JSON.stringify(mailedAddresses(memberFrom(row).email, former)));
        for (const statement of ERASE_MEMBER_DATA) await tx.run(statement, siteId, memberId);
        await tx.run(ERASE_MEMBER_ROW, erasedEmail, siteId, memberId);
        const member = memberFrom((await tx.firstRaw(ACCOUNT_READS.member, siteId, memberId))!);
        const hooks = await postgresAnnouncer(tx, [siteId]);
        if (hooks.wants(siteId, 'member.updated')) await hooks.write([memberMessage('member.updated', siteId, member, announcedAt())], DUE_AT_ONCE);
        return member;
      }),
  };
}
