/**
 * The PostgreSQL store's member accounts (../sqlite/accounts ported): members with their
 * passwords and custom sign-up field values, the sites' sign-up fields, sessions and member
 * metadata. ./index builds the Store with these methods on the same connection.
 *
 * The writers other files run inside their own transactions (./member-tokens, ./index), each
 * taking that transaction as `tx` (./connection's Sql):
 *
 *   postgresMemberWriter(tx, members: readonly NewMember[]): Promise<number[]>
 *   postgresEventWriter(tx, events: readonly NewMemberEvent[]): Promise<number[]>
 *   postgresSessionWriter(tx, session: NewSession): Promise<SessionRecord>
 *   postgresMemberPatcher(tx, siteId, memberId, patch: MemberPatch): Promise<boolean>
 *
 * The member and event writers take batches (ids reserved, then COPY statements), answering
 * ids in input order: each is insertBatch's `write` as it is (createMemberEvents:
 * `insertBatch(conn, events, postgresEventWriter, …)`). Like the session writer they let
 * PostgreSQL's error through, for the caller to report (insertAll, insertBatch, storeError).
 * The patcher, updateMember's work, throws the store's errors itself, as SQLite's does; false
 * when the site has no such member.
 *
 * Read-check-write methods (updateMember, updateMemberMetadata) run in one SERIALIZABLE
 * transaction: PostgreSQL gives the outcome of some one-at-a-time order or runs one again, so
 * concurrent updates from any number of processes lose nothing.
 */
import { INSERT_EVENT, INSERT_SIGNUP_FIELD, eventValues, memberFrom, membershipFrom, sessionFrom, signupFieldFrom, signupFieldValues } from '../sql-rows';
import {
  ACCOUNT_READS,
  INSERT_MEMBER,
  INSERT_SESSION,
  MEMBER_PATCH,
  METADATA,
  REVOKE_MEMBER_SESSIONS,
  SESSIONS,
  sessionWithMemberFrom,
  SWEEP_SESSIONS,
  UPSERT_VALUE,
  loginFrom,
  memberUpdate,
  memberValues,
  metadataFrom,
  sessionValues,
  signupValueFrom,
} from '../sql-members';
import type { MemberPatch, NewMember, NewMemberEvent, NewSession, SessionRecord } from '../records';
import type { AccountMethods } from '../store';
import { DUE_AT_ONCE, announcedAt } from '../webhook-announcing';
import { memberMessage } from '../../webhooks/messages';
import { postgresAnnouncer, postgresMemberState } from './webhooks';
import {
  type Param,
  type PostgresConnection,
  type Sql,
  conflictFrom,
  intoWithId,
  insertAll,
  insertBatch,
  insertRows,
  newId,
  noRow,
  noSite,
  reserveIds,
} from './connection';

/** Expired sessions deleted per statement (deleteExpiredSessions): one statement never holds many row locks for long. */
const SWEEP_BATCH = 5000;

/** New members' sign-up values: no row to replace, so a plain insert (UPSERT_VALUE's columns). */
const VALUES_INTO = 'signup_values (site_id, member_id, field_id, value)';

export async function postgresMemberWriter(tx: Sql, members: readonly NewMember[]): Promise<number[]> {
  const ids = await reserveIds(tx, 'members', members.length);
  await insertRows(tx, intoWithId(INSERT_MEMBER), members.map((m, i): Param[] => [ids[i]!, ...memberValues(m)]));
  // A field given twice keeps its last value, as UPSERT_VALUE does one at a time: one statement
  // may not write the same (member, field) twice.
  const values = members.flatMap((m, i) =>
    [...new Map((m.signupValues ?? []).map((v) => [v.fieldId, v.value]))].map(
      ([fieldId, value]): Param[] => [m.siteId, ids[i]!, fieldId, JSON.stringify(value)],
    ),
  );
  await insertRows(tx, VALUES_INTO, values);
  return ids;
}

export async function postgresEventWriter(tx: Sql, events: readonly NewMemberEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  const ids = await reserveIds(tx, 'member_events', events.length);
  await insertRows(tx, intoWithId(INSERT_EVENT), events.map((e, i): Param[] => [ids[i]!, ...eventValues(e)]));
  return ids;
}

export async function postgresSessionWriter(tx: Sql, session: NewSession): Promise<SessionRecord> {
  return sessionFrom((await tx.first(`${INSERT_SESSION} RETURNING *`, ...sessionValues(session)))!);
}

export async function postgresMemberPatcher(tx: Sql, siteId: number, memberId: number, patch: MemberPatch): Promise<boolean> {
  if (!(await tx.first(MEMBER_PATCH.exists, siteId, memberId))) return false;
  // Checked first, as SQLite does: a field not the site's is reported before a taken e-mail,
  // and a value cleared (a DELETE, which no foreign key checks) is checked too.
  for (const { fieldId } of patch.signupValues ?? []) {
    const missing = await noRow(tx, 'signup_fields', 'fieldId', siteId, fieldId);
    if (missing) throw missing;
  }
  if (patch.email !== undefined && patch.emailConfirmedAt === undefined) await tx.run(MEMBER_PATCH.unconfirm, memberId, patch.email);
  const update = memberUpdate(memberId, patch);
  if (update) {
    try {
      await tx.run(update.text, ...update.values);
    } catch (error) {
      throw conflictFrom(error) ?? error;
    }
  }
  if (patch.passwordHash !== undefined || patch.email !== undefined) await tx.run(MEMBER_PATCH.voidTokens, memberId);
  for (const { fieldId, value } of patch.signupValues ?? []) {
    if (value === null) await tx.run(MEMBER_PATCH.clearValue, memberId, fieldId);
    else await tx.run(UPSERT_VALUE, siteId, memberId, fieldId, JSON.stringify(value));
  }
  return true;
}

export function postgresAccounts(conn: PostgresConnection): AccountMethods {
  const insertMember = async (tx: Sql, m: NewMember) => (await postgresMemberWriter(tx, [m]))[0]!;
  const memberMissing = async (m: NewMember) => {
    const site = await noSite(conn, m.siteId);
    if (site) return site;
    for (const { fieldId } of m.signupValues ?? []) {
      const field = await noRow(conn, 'signup_fields', 'fieldId', m.siteId, fieldId);
      if (field) return field;
    }
    return undefined;
  };

  return {
    createSignupFields: (fields) =>
      insertAll(conn, fields, (tx, f) => newId(tx, INSERT_SIGNUP_FIELD, ...signupFieldValues(f.siteId, f)), (f) => noSite(conn, f.siteId)),
    listSignupFields: async (siteId) => (await conn.raw(ACCOUNT_READS.signupFields, siteId)).map(signupFieldFrom),

    // The demo seed's batches: COPY statements, or row by row to report the first bad row. Bulk
    // loads: no `member.created` for these, only for signUpMember's.
    createMembers: (members) => insertBatch(conn, members, postgresMemberWriter, insertMember, memberMissing),
    async getMember(siteId, id) {
      const row = await conn.firstRaw(ACCOUNT_READS.member, siteId, id);
      return row && memberFrom(row);
    },
    async findMemberLogin(siteId, email) {
      const row = await conn.first(ACCOUNT_READS.login, siteId, email);
      return row && loginFrom(row);
    },
    listSignupValues: async (siteId, memberId) => (await conn.all(ACCOUNT_READS.signupValues, siteId, memberId)).map(signupValueFrom),
    // With its `member.updated` when what a receiver sees changed (a new password alone is no news):
    // the member read before and after only when an endpoint wants it.
    updateMember: (siteId, memberId, patch) =>
      conn.transaction(async (tx) => {
        const hooks = await postgresAnnouncer(tx, [siteId]);
        const before = hooks.wants(siteId, 'member.updated') ? await postgresMemberState(tx, siteId, memberId) : undefined;
        if (!(await postgresMemberPatcher(tx, siteId, memberId, patch))) return undefined;
        const member = memberFrom((await tx.firstRaw(ACCOUNT_READS.memberById, memberId))!);
        if (before !== undefined && (await postgresMemberState(tx, siteId, memberId)) !== before) {
          await hooks.write([memberMessage('member.updated', siteId, member, announcedAt())], DUE_AT_ONCE);
        }
        return member;
      }),
    listMembershipsOfMember: async (siteId, memberId) => (await conn.raw(ACCOUNT_READS.memberships, siteId, memberId)).map(membershipFrom),

    getMemberMetadata: async (siteId, memberId) => metadataFrom(await conn.first(METADATA.read, siteId, memberId)),
    // `update` is pure, so running it again when PostgreSQL retries the transaction is safe.
    // Metadata that changed is a `member.updated`.
    updateMemberMetadata: (siteId, memberId, update) =>
      conn.transaction(async (tx) => {
        const current = metadataFrom(await tx.first(METADATA.read, siteId, memberId));
        if (current === undefined) return undefined;
        const data = JSON.stringify(update(current));
        await tx.run(METADATA.write, memberId, siteId, data);
        const hooks = await postgresAnnouncer(tx, [siteId]);
        if (hooks.wants(siteId, 'member.updated') && data !== JSON.stringify(current)) {
          await hooks.write([memberMessage('member.updated', siteId, memberFrom((await tx.firstRaw(ACCOUNT_READS.memberById, memberId))!), announcedAt())], DUE_AT_ONCE);
        }
        return JSON.parse(data);
      }),

    async createSession(session) {
      let created: SessionRecord | undefined;
      await insertAll(
        conn,
        [session],
        async (tx, s) => (created = await postgresSessionWriter(tx, s)).id,
        async (s) => (await noSite(conn, s.siteId)) ?? noRow(conn, 'members', 'memberId', s.siteId, s.memberId),
      );
      return created!;
    },
    async findSessionByHash(tokenHash) {
      const row = await conn.first(SESSIONS.byHash, tokenHash);
      return row && sessionFrom(row);
    },
    async findSessionWithMember(tokenHash) {
      const row = await conn.firstRaw(SESSIONS.withMember, tokenHash);
      return row && sessionWithMemberFrom(row);
    },
    async touchSession(id, lastUsedAt, expiresAt) {
      await conn.run(SESSIONS.touch, lastUsedAt, expiresAt, id);
    },
    revokeMemberSessions: (siteId, memberId, at, keepTokenHash) => conn.run(REVOKE_MEMBER_SESSIONS, at, siteId, memberId, keepTokenHash ?? null),
    async deleteExpiredSessions(now) {
      // In batches: the first sweep of a database that never had one may delete millions of rows.
      let deleted = 0;
      for (;;) {
        const changes = await conn.run(SWEEP_SESSIONS, now, SWEEP_BATCH);
        deleted += changes;
        if (changes < SWEEP_BATCH) return deleted;
      }
    },
    revokeSession: async (tokenHash, at) => (await conn.run(SESSIONS.revoke, at, tokenHash)) > 0,
  };
}
