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
  MEMBER_COLUMNS,
  MEMBERSHIP_COLUMNS,
  SIGNUP_FIELD_COLUMNS,
  isConstraint,
  memberFrom,
  membershipFrom,
  orNull,
  sessionFrom,
  signupFieldFrom,
} from '../sql-rows';
import type { MemberLogin, MemberPatch, NewMember, NewMemberEvent, NewSession, SessionRecord, SignupValueRecord } from '../records';
import type { AccountMethods } from '../store';

/** Expired sessions deleted per statement (deleteExpiredSessions). */
const SWEEP_BATCH = 5000;
/** A field given twice keeps its last value (as in the memory store). */
const UPSERT_VALUE = `INSERT INTO signup_values (site_id, member_id, field_id, value) VALUES (?, ?, ?, ?)
  ON CONFLICT (member_id, field_id) DO UPDATE SET value = excluded.value`;
const INSERT_SESSION = `INSERT INTO sessions (site_id, member_id, token_hash, created_at, last_used_at, expires_at)
  VALUES (?, ?, ?, ?, ?, ?)`;

/** createMembers' work: the batch in one transaction (or the caller's), ids in input order. */
export function sqliteMemberWriter({ sql, insertAll, noSite, noRow }: SqliteConnection): (members: readonly NewMember[]) => number[] {
  const insertMember = sql(
    `INSERT INTO members (site_id, email, first_name, last_name, status, created_at, password_hash, profile_image_url,
       processor_customer_id, email_confirmed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
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
        const result = insertMember.run(
          m.siteId, m.email, orNull(m.firstName), orNull(m.lastName), m.status, m.createdAt, orNull(m.passwordHash),
          orNull(m.profileImageUrl), orNull(m.processorCustomerId), orNull(m.emailConfirmedAt));
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
      id = Number(insert.run(s.siteId, s.memberId, s.tokenHash, s.createdAt, s.lastUsedAt, s.expiresAt).lastInsertRowid);
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
    if (!first('SELECT id FROM members WHERE site_id = ? AND id = ?', siteId, memberId)) return false;
    for (const { fieldId } of patch.signupValues ?? []) {
      const missing = noRow('signup_fields', 'fieldId', siteId, fieldId);
      if (missing) throw missing;
    }
    const columns: [string, unknown][] = [];
    if (patch.firstName !== undefined) columns.push(['first_name', patch.firstName]);
    if (patch.lastName !== undefined) columns.push(['last_name', patch.lastName]);
    if (patch.email !== undefined) columns.push(['email', patch.email]);
    if (patch.passwordHash !== undefined) columns.push(['password_hash', patch.passwordHash]);
    if (patch.processorCustomerId !== undefined) columns.push(['processor_customer_id', patch.processorCustomerId]);
    if (patch.emailConfirmedAt !== undefined) columns.push(['email_confirmed_at', patch.emailConfirmedAt]);
    // A new e-mail is unconfirmed until a patch says otherwise (a redeemed emailChange token does).
    else if (patch.email !== undefined) sql('UPDATE members SET email_confirmed_at = NULL WHERE id = ? AND email <> ?').run(memberId, patch.email);
    if (columns.length > 0) {
      try {
        sql(`UPDATE members SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ?`).run(
          ...columns.map(([, v]) => v), memberId);
      } catch (error) {
        if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE')) throw new ConflictError('email', `a member with e-mail ${patch.email} exists`);
        throw error;
      }
    }
    // Links and codes mailed before a new password or address no longer work.
    if (patch.passwordHash !== undefined || patch.email !== undefined) {
      sql('DELETE FROM member_tokens WHERE member_id = ? AND used_at IS NULL').run(memberId);
    }
    for (const { fieldId, value } of patch.signupValues ?? []) {
      if (value === null) sql('DELETE FROM signup_values WHERE member_id = ? AND field_id = ?').run(memberId, fieldId);
      else insertValue.run(siteId, memberId, fieldId, JSON.stringify(value));
    }
    return true;
  });
}

export function sqliteAccounts(conn: SqliteConnection): AccountMethods {
  const { db, sql, first, rawSql, firstRaw, insertAll, noSite } = conn;

  const writeSession = sqliteSessionWriter(conn);
  const sweepSessions = db.prepare(
    'DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= ? LIMIT ?)',
  );
  const writeMetadata = db.prepare(
    `INSERT INTO member_metadata (member_id, site_id, data) VALUES (?, ?, ?)
     ON CONFLICT (member_id) DO UPDATE SET data = excluded.data`,
  );

  /** The member's stored metadata: undefined without such a member, `{}` before the first update. */
  const readMetadata = (siteId: number, memberId: number): MemberMetadata | undefined => {
    const row = first(
      `SELECT d.data FROM members m LEFT JOIN member_metadata d ON d.member_id = m.id
       WHERE m.site_id = ? AND m.id = ?`,
      siteId,
      memberId,
    );
    if (!row) return undefined;
    return row.data === null ? {} : (JSON.parse(row.data as string) as MemberMetadata);
  };
  /** Runs immediate (write-locked from the start), so another connection cannot slip in between. */
  const updateMetadata = db.transaction(
    (siteId: number, memberId: number, update: (current: MemberMetadata) => MemberMetadata) => {
      const current = readMetadata(siteId, memberId);
      if (current === undefined) return undefined;
      const data = JSON.stringify(update(current));
      writeMetadata.run(memberId, siteId, data);
      return JSON.parse(data) as MemberMetadata;
    },
  );

  const patchMember = sqliteMemberPatcher(conn);
  const writeMembers = sqliteMemberWriter(conn);

  return {
    createSignupFields: async (fields) =>
      insertAll(
        fields,
        (f) =>
          sql('INSERT INTO signup_fields (site_id, key, type, label, required, options, position) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
            f.siteId, orNull(f.key), f.type, f.label, f.required ? 1 : 0, f.options === undefined ? null : JSON.stringify(f.options),
            f.position),
        (f) => noSite(f.siteId),
      ),
    listSignupFields: async (siteId) =>
      (rawSql(`SELECT ${SIGNUP_FIELD_COLUMNS} FROM signup_fields WHERE site_id = ? AND archived_at IS NULL ORDER BY position, id`).all(
        siteId,
      ) as RawRow[]).map(signupFieldFrom),

    createMembers: async (members) => writeMembers(members),
    async getMember(siteId, id) {
      const row = firstRaw(`SELECT ${MEMBER_COLUMNS} FROM members WHERE site_id = ? AND id = ?`, siteId, id);
      return row && memberFrom(row);
    },
    async findMemberLogin(siteId, email) {
      const row = first('SELECT id, status, password_hash, email_confirmed_at FROM members WHERE site_id = ? AND email = ?', siteId, email);
      if (!row) return undefined;
      return {
        memberId: row.id as number,
        status: row.status as MemberLogin['status'],
        ...(row.password_hash !== null && { passwordHash: row.password_hash as string }),
        ...(row.email_confirmed_at !== null && { emailConfirmedAt: row.email_confirmed_at as number }),
      };
    },
    listSignupValues: async (siteId, memberId) =>
      (sql('SELECT field_id, value FROM signup_values WHERE site_id = ? AND member_id = ? ORDER BY field_id').all(
        siteId, memberId) as Row[]).map(
        (r): SignupValueRecord => ({ fieldId: r.field_id as number, value: JSON.parse(r.value as string) }),
      ),
    async updateMember(siteId, memberId, patch) {
      if (!patchMember.immediate(siteId, memberId, patch)) return undefined;
      return memberFrom(firstRaw(`SELECT ${MEMBER_COLUMNS} FROM members WHERE id = ?`, memberId)!);
    },
    listMembershipsOfMember: async (siteId, memberId) =>
      (rawSql(
        `SELECT ${MEMBERSHIP_COLUMNS} FROM memberships m JOIN plans p ON p.id = m.plan_id
         WHERE m.site_id = ? AND m.member_id = ? ORDER BY m.id`,
      ).all(siteId, memberId) as RawRow[]).map(membershipFrom),

    getMemberMetadata: async (siteId, memberId) => readMetadata(siteId, memberId),
    updateMemberMetadata: async (siteId, memberId, update) => updateMetadata.immediate(siteId, memberId, update),

    createSession: async (s) => writeSession(s),
    async findSessionByHash(tokenHash) {
      const row = first('SELECT * FROM sessions WHERE token_hash = ?', tokenHash);
      return row && sessionFrom(row);
    },
    async touchSession(id, lastUsedAt, expiresAt) {
      sql('UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE id = ?').run(lastUsedAt, expiresAt, id);
    },
    revokeMemberSessions: async (siteId, memberId, at, keepTokenHash) =>
      sql(
        `UPDATE sessions SET revoked_at = ? WHERE site_id = ? AND member_id = ? AND revoked_at IS NULL
         AND token_hash IS NOT ?`,
      ).run(at, siteId, memberId, keepTokenHash ?? null).changes,
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
      sql('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL').run(at, tokenHash).changes > 0,
  };
}
