/**
 * The SQLite store's mailed tokens (issue 15) and the writes that go with them. Each method is
 * one immediate transaction (write-locked from its start, so another process cannot slip in
 * between a check and its write): a send limit is counted where the mail is queued, a code's
 * try is spent by one UPDATE, and a token is used once by the UPDATE that marks it.
 */
import { sqliteEventWriter, sqliteMemberPatcher, sqliteMemberWriter, sqliteSessionWriter } from './accounts';
import type { SqliteConnection } from './connection';
import { sqliteMailWriter } from './outbox';
import { memberFrom } from '../sql-rows';
import { ACCOUNT_READS, INSERT_TOKEN, REVOKE_MEMBER_SESSIONS, TOKENS, sendLimitCounts, tokenFrom, tokenToRedeem, tokenValues, sendLimitReached } from '../sql-members';
import type { MailQueueOutcome, NewMemberToken, RedeemOutcome } from '../records';
import type { TokenMethods } from '../store';
import { memberMessage } from '../../webhooks/messages';
import { sqliteAnnouncer, sqliteMemberState } from './webhooks';

export function sqliteMemberTokens(conn: SqliteConnection): TokenMethods {
  const { db, sql, first, firstRaw } = conn;
  const queueMails = sqliteMailWriter(conn);
  const writeMembers = sqliteMemberWriter(conn);
  const patchMember = sqliteMemberPatcher(conn);

  const insertToken = (t: NewMemberToken) => sql(INSERT_TOKEN).run(tokenValues(t));
  // createSession's and createMemberEvents' writers, in this file's transactions.
  const insertSession = sqliteSessionWriter(conn);
  const insertEvents = sqliteEventWriter(conn);
  // Sign-up announces `member.created`; a redemption that changes the member, `member.updated`.
  const announcer = sqliteAnnouncer(conn);
  const stateOf = sqliteMemberState(conn);
  const readMember = (memberId: number) => memberFrom(firstRaw(ACCOUNT_READS.memberById, memberId)!);

  const signUp = db.transaction((signUp: Parameters<TokenMethods['signUpMember']>[0]) => {
    const [memberId] = writeMembers([signUp.member]) as [number];
    const mine = { siteId: signUp.member.siteId, memberId };
    insertEvents(signUp.events.map((e) => ({ ...e, ...mine })));
    if (signUp.token) insertToken({ ...signUp.token, ...mine });
    if (signUp.mails) queueMails(signUp.mails);
    const hooks = announcer([mine.siteId]);
    if (hooks.wants(mine.siteId, 'member.created')) hooks.write([memberMessage('member.created', mine.siteId, readMember(memberId), signUp.member.createdAt)]);
    return { memberId, ...(signUp.session && { session: insertSession({ ...signUp.session, ...mine }) }) };
  });

  const request = db.transaction(({ mail, token, limits }: Parameters<TokenMethods['queueRequestedMail']>[0]): MailQueueOutcome => {
    const { text, values } = sendLimitCounts(mail, limits);
    const reached = sendLimitReached(first(text, ...values)!, limits);
    if (reached) return reached;
    if (token) {
      // Only the newest code works, so its tries are the only ones; older links still do (they cannot be guessed).
      if (token.codeHash !== undefined) sql(TOKENS.uncode).run(token.memberId, token.purpose);
      insertToken(token);
    }
    queueMails([mail]);
    return 'queued';
  });

  const redeem = db.transaction((id: number, at: number, effects: Parameters<TokenMethods['redeemMemberToken']>[2]): RedeemOutcome => {
    const token = tokenToRedeem(first(TOKENS.byId, id), at);
    if ('reason' in token) return token;
    const { siteId, memberId } = token;
    const hooks = effects.member && announcer([siteId]);
    const before = hooks?.wants(siteId, 'member.updated') ? stateOf(siteId, memberId) : undefined;
    sql(TOKENS.use).run(at, id);
    if (effects.member && !patchMember(siteId, memberId, effects.member)) return { redeemed: false, reason: 'missing' };
    if (effects.revokeSessions) {
      sql(REVOKE_MEMBER_SESSIONS).run(at, siteId, memberId, effects.keepSessionHash ?? null);
    }
    const session = effects.session && insertSession({ ...effects.session, siteId, memberId });
    if (effects.events) insertEvents(effects.events.map((e) => ({ ...e, siteId, memberId })));
    if (effects.mails) queueMails(effects.mails);
    const member = readMember(memberId);
    if (hooks && before !== undefined && stateOf(siteId, memberId) !== before) hooks.write([memberMessage('member.updated', siteId, member, at)]);
    return { redeemed: true, member, ...(session && { session }) };
  });

  return {
    signUpMember: async (record) => signUp.immediate(record),
    queueRequestedMail: async (record) => request.immediate(record),
    async findMemberToken(tokenHash) {
      const row = first(TOKENS.byHash, tokenHash);
      return row && tokenFrom(row);
    },
    async findCodeToken(siteId, memberId, purpose) {
      const row = first(TOKENS.code, siteId, memberId, purpose);
      return row && tokenFrom(row);
    },
    spendCodeTry: async (id, max) => sql(TOKENS.spendTry).run(id, max).changes > 0,
    // A ConflictError (the new address taken meanwhile) rolls the whole redemption back.
    redeemMemberToken: async (id, at, effects) => redeem.immediate(id, at, effects),
  };
}
