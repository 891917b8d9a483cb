/**
 * The PostgreSQL store's mailed tokens (issue 15; ../sqlite/member-tokens ported) and the writes
 * that go with them. Where SQLite takes its write lock first, each method here is one
 * SERIALIZABLE transaction (conn.transaction, run again when PostgreSQL finds another order
 * impossible): a send limit is counted in the transaction that queues the mail, so concurrent
 * requests never pass it between them, and a token is redeemed by one transaction only. A code's
 * try is one conditional UPDATE, which READ COMMITTED checks again on the row it waited for.
 *
 * Nothing here works outside the database (the hashes come computed), so a retried
 * transaction does nothing twice.
 */
import type { MailQueueOutcome, MailRequestRecord, NewMemberToken, RedeemOutcome, SignUpRecord, TokenEffects } from '../records';
import { memberFrom } from '../sql-rows';
import { ACCOUNT_READS, INSERT_TOKEN, REVOKE_MEMBER_SESSIONS, TOKENS, sendLimitCounts, tokenFrom, tokenToRedeem, tokenValues, sendLimitReached } from '../sql-members';
import type { TokenMethods } from '../store';
import { postgresEventWriter, postgresMemberPatcher, postgresMemberWriter, postgresSessionWriter } from './accounts';
import { type PostgresConnection, type Sql, storeError } from './connection';
import { postgresMailWriter } from './outbox';
import { memberMessage } from '../../webhooks/messages';
import { postgresAnnouncer, postgresMemberState } from './webhooks';

const insertToken = (tx: Sql, t: NewMemberToken) => tx.run(INSERT_TOKEN, ...tokenValues(t));

async function signUp(tx: Sql, record: SignUpRecord): Promise<Awaited<ReturnType<TokenMethods['signUpMember']>>> {
  const [memberId] = (await postgresMemberWriter(tx, [record.member])) as [number];
  const mine = { siteId: record.member.siteId, memberId };
  await postgresEventWriter(tx, record.events.map((e) => ({ ...e, ...mine })));
  if (record.token) await insertToken(tx, { ...record.token, ...mine });
  if (record.mails) await postgresMailWriter(tx, record.mails);
  const hooks = await postgresAnnouncer(tx, [mine.siteId]);
  if (hooks.wants(mine.siteId, 'member.created')) {
    const member = memberFrom((await tx.firstRaw(ACCOUNT_READS.memberById, memberId))!);
    await hooks.write([memberMessage('member.created', mine.siteId, member, record.member.createdAt)]);
  }
  if (!record.session) return { memberId };
  return { memberId, session: await postgresSessionWriter(tx, { ...record.session, ...mine }) };
}

async function queueRequested(tx: Sql, { mail, token, limits }: MailRequestRecord): Promise<MailQueueOutcome> {
  const { text, values } = sendLimitCounts(mail, limits);
  const reached = sendLimitReached((await tx.first(text, ...values))!, limits);
  if (reached) return reached;
  if (token) {
    if (token.codeHash !== undefined) await tx.run(TOKENS.uncode, token.memberId, token.purpose);
    await insertToken(tx, token);
  }
  await postgresMailWriter(tx, [mail]);
  return 'queued';
}

async function redeem(tx: Sql, id: number, at: number, effects: TokenEffects): Promise<RedeemOutcome> {
  const token = tokenToRedeem(await tx.first(TOKENS.byId, id), at);
  if ('reason' in token) return token;
  const { siteId, memberId } = token;
  // A redemption that changes what a receiver sees of the member (an address confirmed or moved) is a `member.updated`.
  const hooks = effects.member && (await postgresAnnouncer(tx, [siteId]));
  const before = hooks?.wants(siteId, 'member.updated') ? await postgresMemberState(tx, siteId, memberId) : undefined;
  await tx.run(TOKENS.use, at, id);
  if (effects.member && !(await postgresMemberPatcher(tx, siteId, memberId, effects.member))) return { redeemed: false, reason: 'missing' };
  if (effects.revokeSessions) await tx.run(REVOKE_MEMBER_SESSIONS, at, siteId, memberId, effects.keepSessionHash ?? null);
  const session = effects.session && (await postgresSessionWriter(tx, { ...effects.session, siteId, memberId }));
  if (effects.events) await postgresEventWriter(tx, effects.events.map((e) => ({ ...e, siteId, memberId })));
  if (effects.mails) await postgresMailWriter(tx, effects.mails);
  const member = memberFrom((await tx.firstRaw(ACCOUNT_READS.memberById, memberId))!);
  if (hooks && before !== undefined && (await postgresMemberState(tx, siteId, memberId)) !== before) {
    await hooks.write([memberMessage('member.updated', siteId, member, at)]);
  }
  return { redeemed: true, member, ...(session && { session }) };
}

export function postgresMemberTokens(conn: PostgresConnection): TokenMethods {
  /** One transaction for all of a method's writes; a broken rule is reported as the store's error (a taken e-mail, an unknown site). */
  const atomically = <T>(work: (tx: Sql) => Promise<T>): Promise<T> =>
    conn.transaction(work).catch((error: unknown) => {
      throw storeError(error);
    });

  return {
    signUpMember: (record) => atomically((tx) => signUp(tx, record)),
    queueRequestedMail: (request) => atomically((tx) => queueRequested(tx, request)),
    async findMemberToken(tokenHash) {
      const row = await conn.first(TOKENS.byHash, tokenHash);
      return row && tokenFrom(row);
    },
    async findCodeToken(siteId, memberId, purpose) {
      const row = await conn.first(TOKENS.code, siteId, memberId, purpose);
      return row && tokenFrom(row);
    },
    spendCodeTry: async (id, max) => (await conn.run(TOKENS.spendTry, id, max)) > 0,
    // A ConflictError (the new address taken meanwhile) rolls the whole redemption back.
    redeemMemberToken: (id, at, effects) => atomically((tx) => redeem(tx, id, at, effects)),
  };
}
