/**
 * The SQLite store's member accounts: members with their passwords and custom sign-up field
 * values, the sites' sign-up fields, sessions and member metadata. ./index builds the Store
 * with these methods on the same connection.
 *
 * Only creating members changes what the cached aggregates (site metrics, members per plan)
 * count, so only that write goes through the connection's change tracking; sessions and
 * metadata are written on every member request and leave the cache alone.
 */
import type { MemberMetadata } from '../../../contract/member';
import { ConflictError } from '../errors';
import type { SqliteConnection } from './connection';
import {
  type RawRow,
  type Row,
  INSERT_EVENT,
  INSERT_SIGNUP_FIELD,
  isConstraint,
  memberFrom,
  membershipFrom,
  sessionFrom,
  signupFieldFrom,
  signupFieldValues,
} from '../sql-rows';
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
import { sqliteAnnouncer, sqliteMemberState } from './webhooks';

/** Expired sessions deleted per statement (deleteExpiredSessions). */
const SWEEP_BATCH = 5000;

/** createMembers' work: the batch in one transaction (or the caller's), ids in input order. */
export function sqliteMemberWriter({ sql, insertAll, noSite, noRow }: SqliteConnection): (members: readonly NewMember[]) => number[] {
  const insertMember = sql(INSERT_MEMBER);
  const insertValue = sql(UPSERT_VALUE);
  const missingField = (m: NewMember) => {
    for (const { fieldId } of m.signupValues ?? []) {
      const missing = noRow('signup_fields', 'fieldId', m.siteId, fieldId);
      if (missing) return missing;
    }
    return undefined;
  };
  return (members) =>
    insertAll(
      members,
      (m) => {
        const result = insertMember.run(memberValues(m));
        const id = Number(result.lastInsertRowid);
        for (const v of m.signupValues ?? []) insertValue.run(m.siteId, id, v.fieldId, JSON.stringify(v.value));
        return result;
      },
      (m) => noSite(m.siteId) ?? missingField(m),
    );
}

/** createSession's work, in the caller's transaction when there is one: the new session, or the store error. */
export function sqliteSessionWriter({ sql, first, noSite, noRow }: SqliteConnection): (session: NewSession) => SessionRecord {
  const insert = sql(INSERT_SESSION);
  return (s) => {
    let id: number;
    try {
      id = Number(insert.run(sessionValues(s)).lastInsertRowid);
    } catch (error) {
      if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE')) throw new ConflictError('tokenHash', 'a session with that token exists');
      if (isConstraint(error, 'SQLITE_CONSTRAINT_FOREIGNKEY')) throw noSite(s.siteId) ?? noRow('members', 'memberId', s.siteId, s.memberId) ?? error;
      throw error;
    }
    return sessionFrom(first('SELECT * FROM sessions WHERE id = ?', id)!);
  };
}

/** createMemberEvents' work: the batch in one transaction (or the caller's), ids in input order. */
export function sqliteEventWriter({ sql, insertAll, noRow }: SqliteConnection): (events: readonly NewMemberEvent[]) => number[] {
  const insert = sql(INSERT_EVENT);
  return (events) =>
    insertAll(
      events,
      (e) => insert.run(e.siteId, e.memberId, e.eventType, JSON.stringify(e.details), e.createdAt),
      (e) => noRow('members', 'memberId', e.siteId, e.memberId),
    );
}

/**
 * updateMember's work as one transaction: every write of a patch, or none (a constraint error
 * rolls it back). False when the site has no such member. ./member-tokens runs it inside
 * its own transactions too (better-sqlite3 nests them as savepoints).
 */
export function sqliteMemberPatcher({ db, sql, first, noRow }: SqliteConnection) {
  const insertValue = sql(UPSERT_VALUE);
  return db.transaction((siteId: number, memberId: number, patch: MemberPatch) => {
    if (!first(MEMBER_PATCH.exists, siteId, memberId)) return false;
    for (const { fieldId } of patch.signupValues ?? []) {
      const missing = noRow('signup_fields', 'fieldId', siteId, fieldId);
      if (missing) throw missing;
    }
    if (patch.email !== undefined && patch.emailConfirmedAt === undefined) sql(MEMBER_PATCH.unconfirm).run(memberId, patch.email);
    const update = memberUpdate(memberId, patch);
    if (update) {
      try {
        sql(update.text).run(...update.values);
      } catch (error) {
        if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE')) throw new ConflictError('email', `a member with e-mail ${patch.email} exists`);
        throw error;
      }
    }
    if (patch.passwordHash !== undefined || patch.email !== undefined) sql(MEMBER_PATCH.voidTokens).run(memberId);
    for (const { fieldId, value } of patch.signupValues ?? []) {
      if (value === null) sql(MEMBER_PATCH.clearValue).run(memberId, fieldId);
      else insertValue.run(siteId, memberId, fieldId, JSON.stringify(value));
    }
    return true;
  });
}

export function sqliteAccounts(conn: SqliteConnection): AccountMethods {
  const { db, sql, first, rawSql, firstRaw, definition, insertAll, noSite } = conn;

  const writeSession = sqliteSessionWriter(conn);
  const announcer = sqliteAnnouncer(conn);
  const stateOf = sqliteMemberState(conn);
  const readMember = (memberId: number) => memberFrom(firstRaw(ACCOUNT_READS.memberById, memberId)!);
  const sweepSessions = db.prepare(SWEEP_SESSIONS);
  const writeMetadata = db.prepare(METADATA.write);
  const readMetadata = (siteId: number, memberId: number) => metadataFrom(first(METADATA.read, siteId, memberId));
  /**
   * Runs immediate (write-locked from the start), so another connection cannot slip in between.
   * Metadata that changed is a `member.updated` (issue 31).
   */
  const updateMetadata = db.transaction(
    (siteId: number, memberId: number, update: (current: MemberMetadata) => MemberMetadata) => {
      const current = readMetadata(siteId, memberId);
      if (current === undefined) return undefined;
      const data = JSON.stringify(update(current));
      writeMetadata.run(memberId, siteId, data);
      const hooks = announcer([siteId]);
      if (hooks.wants(siteId, 'member.updated') && data !== JSON.stringify(current)) {
        hooks.write([memberMessage('member.updated', siteId, readMember(memberId), announcedAt())], DUE_AT_ONCE);
      }
      return JSON.parse(data) as MemberMetadata;
    },
  );

  const patchMember = sqliteMemberPatcher(conn);
  const writeMembers = sqliteMemberWriter(conn);
  /**
   * updateMember with its `member.updated`, in one immediate transaction: the member is read
   * before and after only when an endpoint wants it, and announced only when what a receiver sees
   * changed (a new password or processor customer alone is no news to anyone).
   */
  const updateMember = db.transaction((siteId: number, memberId: number, patch: MemberPatch) => {
    const hooks = announcer([siteId]);
    const before = hooks.wants(siteId, 'member.updated') ? stateOf(siteId, memberId) : undefined;
    if (!patchMember(siteId, memberId, patch)) return undefined;
    const member = readMember(memberId);
    if (before !== undefined && stateOf(siteId, memberId) !== before) hooks.write([memberMessage('member.updated', siteId, member, announcedAt())], DUE_AT_ONCE);
    return member;
  });

  return {
    createSignupFields: async (fields) =>
      insertAll(
        fields,
        (f) =>
          sql(INSERT_SIGNUP_FIELD).run(signupFieldValues(f.siteId, f)),
        (f) => noSite(f.siteId),
      ),
    listSignupFields: async (siteId) =>
      definition(`fields ${siteId}`, () => (rawSql(ACCOUNT_READS.signupFields).all(siteId) as RawRow[]).map(signupFieldFrom)),

    // Bulk loads (the demo seed, imports): no `member.created` for these, only for signUpMember's.
    createMembers: async (members) => writeMembers(members),
    async getMember(siteId, id) {
      const row = firstRaw(ACCOUNT_READS.member, siteId, id);
      return row && memberFrom(row);
    },
    async findMemberLogin(siteId, email) {
      const row = first(ACCOUNT_READS.login, siteId, email);
      return row && loginFrom(row);
    },
    listSignupValues: async (siteId, memberId) =>
      (sql(ACCOUNT_READS.signupValues).all(siteId, memberId) as Row[]).map(signupValueFrom),
    updateMember: async (siteId, memberId, patch) => updateMember.immediate(siteId, memberId, patch),
    listMembershipsOfMember: async (siteId, memberId) =>
      (rawSql(ACCOUNT_READS.memberships).all(siteId, memberId) as RawRow[]).map(membershipFrom),

    getMemberMetadata: async (siteId, memberId) => readMetadata(siteId, memberId),
    updateMemberMetadata: async (siteId, memberId, update) => updateMetadata.immediate(siteId, memberId, update),

    createSession: async (s) => writeSession(s),
    async findSessionByHash(tokenHash) {
      const row = first(SESSIONS.byHash, tokenHash);
      return row && sessionFrom(row);
    },
    async findSessionWithMember(tokenHash) {
      const row = firstRaw(SESSIONS.withMember, tokenHash);
      return row && sessionWithMemberFrom(row);
    },
    async touchSession(id, lastUsedAt, expiresAt) {
      sql(SESSIONS.touch).run(lastUsedAt, expiresAt, id);
    },
    revokeMemberSessions: async (siteId, memberId, at, keepTokenHash) =>
      sql(REVOKE_MEMBER_SESSIONS).run(at, siteId, memberId, keepTokenHash ?? null).changes,
    async deleteExpiredSessions(now) {
      // In batches, letting other work in between: the first sweep of a database that never had
      // one may delete millions of rows, and one statement would hold every request meanwhile.
      let deleted = 0;
      for (;;) {
        const { changes } = sweepSessions.run(now, SWEEP_BATCH);
        deleted += changes;
        if (changes < SWEEP_BATCH) return deleted;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    revokeSession: async (tokenHash, at) =>
      sql(SESSIONS.revoke).run(at, tokenHash).changes > 0,
  };
}
