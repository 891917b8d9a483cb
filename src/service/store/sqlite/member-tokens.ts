/**
 * The SQLite store's mailed tokens (issue 15) and the writes that go with them. Each method is
 * one immediate transaction (write-locked from its start, so another process cannot slip in
 * between a check and its write): a send limit is counted where the mail is queued, a code's
 * try is spent by one UPDATE, and a token is used once by the UPDATE that marks it.
 */
import { sqliteEventWriter, sqliteMemberPatcher, sqliteMemberWriter, sqliteSessionWriter } from './accounts';
import type { SqliteConnection } from './connection';
import { sqliteMailWriter } from './outbox';
import { MEMBER_COLUMNS, type Row, memberFrom, orNull } from '../sql-rows';
import type { MemberTokenRecord, NewMemberToken, RedeemOutcome } from '../records';
import type { TokenMethods } from '../store';

const TOKEN_COLUMNS = 'id, site_id, member_id, purpose, token_hash, code_hash, new_email, sign_up, created_at, expires_at, attempts, used_at';

function tokenFrom(r: Row): MemberTokenRecord {
  return {
    id: r.id as number,
    siteId: r.site_id as number,
    memberId: r.member_id as number,
    purpose: r.purpose as MemberTokenRecord['purpose'],
    tokenHash: r.token_hash as string,
    createdAt: r.created_at as number,
    expiresAt: r.expires_at as number,
    attempts: r.attempts as number,
    ...(r.code_hash !== null && { codeHash: r.code_hash as string }),
    ...(r.new_email !== null && { newEmail: r.new_email as string }),
    ...(r.used_at !== null && { usedAt: r.used_at as number }),
    ...(r.sign_up === 1 && { signUp: true }),
  };
}

export function sqliteMemberTokens(conn: SqliteConnection): TokenMethods {
  const { db, sql, first, firstRaw } = conn;
  const queueMails = sqliteMailWriter(conn);
  const writeMembers = sqliteMemberWriter(conn);
  const patchMember = sqliteMemberPatcher(conn);

  const insertToken = (t: NewMemberToken) =>
    sql(
      `INSERT INTO member_tokens (site_id, member_id, purpose, token_hash, code_hash, new_email, sign_up, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(t.siteId, t.memberId, t.purpose, t.tokenHash, orNull(t.codeHash), orNull(t.newEmail), t.signUp ? 1 : 0, t.createdAt, t.expiresAt);
  // createSession's and createMemberEvents' writers, in this file's transactions.
  const insertSession = sqliteSessionWriter(conn);
  const insertEvents = sqliteEventWriter(conn);

  const signUp = db.transaction((signUp: Parameters<TokenMethods['signUpMember']>[0]) => {
    const [memberId] = writeMembers([signUp.member]) as [number];
    const mine = { siteId: signUp.member.siteId, memberId };
    insertEvents(signUp.events.map((e) => ({ ...e, ...mine })));
    if (signUp.token) insertToken({ ...signUp.token, ...mine });
    if (signUp.mails) queueMails(signUp.mails);
    return { memberId, ...(signUp.session && { session: insertSession({ ...signUp.session, ...mine }) }) };
  });

  const request = db.transaction(({ mail, token, limits }: Parameters<TokenMethods['queueRequestedMail']>[0]): boolean => {
    const kinds = limits.kinds.map(() => '?').join(', ');
    const counts = first(
      `SELECT count(*) AS site, coalesce(sum(recipient = ?), 0) AS address FROM mail_outbox
       WHERE site_id = ? AND kind IN (${kinds}) AND created_at >= ?`,
      mail.to, mail.siteId, ...limits.kinds, limits.since,
    )!;
    if ((counts.address as number) >= limits.perAddress || (counts.site as number) >= limits.perSite) return false;
    if (token) {
      // Only the newest code works, so its tries are the only ones; older links still do (they cannot be guessed).
      if (token.codeHash !== undefined) {
        sql(`UPDATE member_tokens SET code_hash = NULL WHERE member_id = ? AND purpose = ? AND used_at IS NULL AND code_hash IS NOT NULL`).run(
          token.memberId, token.purpose);
      }
      insertToken(token);
    }
    queueMails([mail]);
    return true;
  });

  const redeem = db.transaction((id: number, at: number, effects: Parameters<TokenMethods['redeemMemberToken']>[2]): RedeemOutcome => {
    const row = first(`SELECT ${TOKEN_COLUMNS} FROM member_tokens WHERE id = ?`, id);
    if (!row) return { redeemed: false, reason: 'missing' };
    const token = tokenFrom(row);
    if (token.usedAt !== undefined) return { redeemed: false, reason: 'used' };
    if (token.expiresAt <= at) return { redeemed: false, reason: 'expired' };
    const { siteId, memberId } = token;
    sql('UPDATE member_tokens SET used_at = ? WHERE id = ?').run(at, id);
    if (effects.member && !patchMember(siteId, memberId, effects.member)) return { redeemed: false, reason: 'missing' };
    if (effects.revokeSessions) {
      sql('UPDATE sessions SET revoked_at = ? WHERE site_id = ? AND member_id = ? AND revoked_at IS NULL AND token_hash IS NOT ?').run(
        at, siteId, memberId, effects.keepSessionHash ?? null);
    }
    const session = effects.session && insertSession({ ...effects.session, siteId, memberId });
    if (effects.events) insertEvents(effects.events.map((e) => ({ ...e, siteId, memberId })));
    if (effects.mails) queueMails(effects.mails);
    const member = memberFrom(firstRaw(`SELECT ${MEMBER_COLUMNS} FROM members WHERE id = ?`, memberId)!);
    return { redeemed: true, member, ...(session && { session }) };
  });

  return {
    signUpMember: async (record) => signUp.immediate(record),
    queueRequestedMail: async (record) => request.immediate(record),
    async findMemberToken(tokenHash) {
      const row = first(`SELECT ${TOKEN_COLUMNS} FROM member_tokens WHERE token_hash = ?`, tokenHash);
      return row && tokenFrom(row);
    },
    async findCodeToken(siteId, memberId, purpose) {
      const row = first(
        `SELECT ${TOKEN_COLUMNS} FROM member_tokens
         WHERE site_id = ? AND member_id = ? AND purpose = ? AND used_at IS NULL AND code_hash IS NOT NULL ORDER BY id DESC LIMIT 1`,
        siteId, memberId, purpose,
      );
      return row && tokenFrom(row);
    },
    spendCodeTry: async (id, max) =>
      sql('UPDATE member_tokens SET attempts = attempts + 1 WHERE id = ? AND used_at IS NULL AND code_hash IS NOT NULL AND attempts < ?').run(id, max).changes > 0,
    // A ConflictError (the new address taken meanwhile) rolls the whole redemption back.
    redeemMemberToken: async (id, at, effects) => redeem.immediate(id, at, effects),
  };
}
