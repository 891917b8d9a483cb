/**
 * The memory store's member accounts: members with their passwords and custom sign-up field
 * values, the sites' sign-up fields, sessions and member metadata. ./index builds the Store
 * with these methods; the tables of sites, members and memberships are shared with it.
 * Batches validate every row before inserting any, so a failing batch changes nothing.
 */
import type { MemberMetadata } from '../../../contract/member';
import { ConflictError, MissingReferenceError } from '../errors';
import { Table, copy } from './table';
import type { MemoryWebhooks } from './webhooks';
import { memberMessage } from '../../webhooks/messages';
import { DUE_AT_ONCE, announcedAt, memberState } from '../webhook-announcing';
import type {
  MemberPatch,
  MemberRecord,
  MembershipRecord,
  NewMember,
  NewSession,
  SessionRecord,
  SignupFieldRecord,
  SignupValueRecord,
} from '../records';
import type { AccountMethods } from '../store';

export interface AccountTables {
  members: Table<MemberRecord>;
  /** Shared with the site definition (./site-definition), which archives and changes fields. */
  fields: Table<SignupFieldRecord>;
  memberships: Table<MembershipRecord>;
  /** The store's own check: throws MissingReferenceError for an unknown site. */
  requireSite(siteId: number): void;
  /** Deletes the member's unused mailed tokens (./member-tokens). */
  dropUnusedTokens(memberId: number): void;
  /** updateMember and updateMemberMetadata announce `member.updated` (issue 31). */
  webhooks: MemoryWebhooks;
}

/** The accounts part: its Store methods, and the synchronous writes behind them that ./member-tokens runs together. */
export interface MemoryAccounts {
  methods: AccountMethods;
  createMembers(batch: readonly NewMember[]): number[];
  updateMember(siteId: number, memberId: number, patch: MemberPatch): MemberRecord | undefined;
  createSession(session: NewSession): SessionRecord;
  revokeMemberSessions(siteId: number, memberId: number, at: number, keepTokenHash?: string): number;
  sessionExists(tokenHash: string): boolean;
  /** Whether a member of the site other than `exceptId` has the e-mail: the unique rule createMembers and updateMember keep. */
  emailTaken(siteId: number, email: string, exceptId?: number): boolean;
  /** What `member.updated` is about (../webhook-announcing): compared before and after a change. */
  memberState(memberId: number): string;
  /**
   * eraseMember's part here: the member's row made anonymous (`erasedEmail`, status `erased`,
   * no names, password, picture, processor customer or confirmation), their sign-up values,
   * metadata and sessions deleted. Undefined when the site has no such member.
   */
  eraseAccount(siteId: number, memberId: number, erasedEmail: string): MemberRecord | undefined;
}

export function memoryAccounts({ members, fields, memberships, requireSite, dropUnusedTokens, webhooks }: AccountTables): MemoryAccounts {
  const sessions = new Table<SessionRecord>();
  const sessionByHash = new Map<string, SessionRecord>();
  /** Member id by `${siteId}\n${email}`: the per-site unique e-mail rule, and sign-in's lookup. */
  const memberByEmail = new Map<string, number>();
  const passwords = new Map<number, string>();
  /** Per member: values by field id. */
  const values = new Map<number, Map<number, SignupValueRecord>>();
  /** Per member; no entry means `{}`. */
  const metadata = new Map<number, MemberMetadata>();

  function memberIn(siteId: number, id: number): MemberRecord | undefined {
    const member = members.byId.get(id);
    return member && member.siteId === siteId ? member : undefined;
  }
  const emailKey = (siteId: number, email: string) => `${siteId}\n${email}`;

  function createMembers(batch: readonly NewMember[]): number[] {
    const taken = new Set<string>();
    for (const m of batch) {
      requireSite(m.siteId);
      const key = emailKey(m.siteId, m.email);
      if (taken.has(key) || memberByEmail.has(key)) {
        throw new ConflictError('email', `a member with e-mail ${m.email} exists`);
      }
      taken.add(key);
      for (const { fieldId } of m.signupValues ?? []) {
        const field = fields.byId.get(fieldId);
        if (!field || field.siteId !== m.siteId) {
          throw new MissingReferenceError('fieldId', `fieldId ${fieldId} does not exist in site ${m.siteId}`);
        }
      }
    }
    return batch.map(({ passwordHash, signupValues, ...profile }) => {
      const { id } = members.insert((id) => ({ ...copy(profile), id }));
      memberByEmail.set(emailKey(profile.siteId, profile.email), id);
      if (passwordHash !== undefined) passwords.set(id, passwordHash);
      if (signupValues && signupValues.length > 0) {
        // A field given twice keeps its last value, as in the SQLite store.
        values.set(id, new Map(signupValues.map((v) => [v.fieldId, copy(v)])));
      }
      return id;
    });
}

  function updateMember(siteId: number, memberId: number, patch: MemberPatch): MemberRecord | undefined {
    const member = memberIn(siteId, memberId);
    if (!member) return undefined;
    // Every check before any change: a rejected patch changes nothing.
    const emailChanges = patch.email !== undefined && patch.email !== member.email;
    if (emailChanges && memberByEmail.has(emailKey(siteId, patch.email!))) {
      throw new ConflictError('email', `a member with e-mail ${patch.email} exists`);
    }
    for (const { fieldId } of patch.signupValues ?? []) {
      const field = fields.byId.get(fieldId);
      if (!field || field.siteId !== siteId) {
        throw new MissingReferenceError('fieldId', `fieldId ${fieldId} does not exist in site ${siteId}`);
      }
    }
    for (const key of ['firstName', 'lastName'] as const) {
      const value = patch[key];
      if (value === null) delete member[key];
      else if (value !== undefined) member[key] = value;
    }
    if (emailChanges) {
      memberByEmail.delete(emailKey(siteId, member.email));
      member.email = patch.email!;
      memberByEmail.set(emailKey(siteId, member.email), memberId);
      // A new e-mail is unconfirmed until a patch says otherwise (a redeemed emailChange token does).
      delete member.emailConfirmedAt;
    }
    if (patch.emailConfirmedAt !== undefined) member.emailConfirmedAt = patch.emailConfirmedAt;
    if (patch.passwordHash === null) passwords.delete(memberId);
    else if (patch.passwordHash !== undefined) passwords.set(memberId, patch.passwordHash);
    // Links and codes mailed before a new password or address no longer work.
    if (patch.passwordHash !== undefined || patch.email !== undefined) dropUnusedTokens(memberId);
    if (patch.processorCustomerId !== undefined) member.processorCustomerId = patch.processorCustomerId;
    if (patch.status !== undefined) member.status = patch.status;
    if (patch.signupValues?.length) {
      const mine = values.get(memberId) ?? new Map<number, SignupValueRecord>();
      for (const { fieldId, value } of patch.signupValues) {
        if (value === null) mine.delete(fieldId);
        else mine.set(fieldId, copy({ fieldId, value }));
      }
      values.set(memberId, mine);
    }
    return copy(member);
}

  const stateOf = (memberId: number) => memberState(members.byId.get(memberId)!, [...(values.get(memberId)?.values() ?? [])]);

  function createSession(session: NewSession): SessionRecord {
    if (!memberIn(session.siteId, session.memberId)) {
      requireSite(session.siteId);
      throw new MissingReferenceError('memberId', `memberId ${session.memberId} does not exist in site ${session.siteId}`);
    }
    if (sessionByHash.has(session.tokenHash)) throw new ConflictError('tokenHash', 'a session with that token exists');
    const row = sessions.insert((id) => ({ ...copy(session), id }));
    sessionByHash.set(row.tokenHash, row);
    return copy(row);
}

  function revokeMemberSessions(siteId: number, memberId: number, at: number, keepTokenHash?: string): number {
    let revoked = 0;
    for (const session of sessions.rows) {
      if (session.siteId !== siteId || session.memberId !== memberId) continue;
      if (session.revokedAt !== undefined || session.tokenHash === keepTokenHash) continue;
      session.revokedAt = at;
      revoked++;
    }
    return revoked;
}

  const methods: AccountMethods = {
    createMembers: async (batch) => createMembers(batch),
    async updateMember(siteId, memberId, patch) {
      // Read before only when someone is told: a patch that changes nothing a receiver sees (a
      // password, the processor customer) announces nothing.
      const hooks = webhooks.announcer();
      const before = hooks.wants(siteId, 'member.updated') && memberIn(siteId, memberId) ? stateOf(memberId) : undefined;
      const member = updateMember(siteId, memberId, patch);
      if (member && before !== undefined && stateOf(memberId) !== before) hooks.write([memberMessage('member.updated', siteId, member, announcedAt())], DUE_AT_ONCE);
      return member;
    },
    createSession: async (session) => createSession(session),
    revokeMemberSessions: async (siteId, memberId, at, keepTokenHash) => revokeMemberSessions(siteId, memberId, at, keepTokenHash),
    async createSignupFields(batch) {
      for (const f of batch) requireSite(f.siteId);
      // Keys as SQLite's unique index has them: per site, given or the `field-<id>` default.
      const taken = new Set(fields.rows.map((f) => `${f.siteId}\n${f.key}`));
      let nextId = fields.nextInsertId;
      for (const f of batch) {
        const key = `${f.siteId}\n${f.key ?? `field-${nextId++}`}`;
        if (taken.has(key)) throw new ConflictError('key', `sign-up field key ${key.split('\n')[1]} is taken`);
        taken.add(key);
      }
      return batch.map((f) => fields.insert((id) => ({ ...copy(f), key: f.key ?? `field-${id}`, id })).id);
    },
    async listSignupFields(siteId) {
      return fields.rows
        .filter((f) => f.siteId === siteId && f.archivedAt === undefined)
        .sort((x, y) => x.position - y.position || x.id - y.id)
        .map(copy);
    },

    async getMember(siteId, id) {
      const member = memberIn(siteId, id);
      return member && copy(member);
    },
    async findMemberLogin(siteId, email) {
      const id = memberByEmail.get(emailKey(siteId, email));
      if (id === undefined) return undefined;
      const member = members.byId.get(id)!;
      const passwordHash = passwords.get(id);
      return {
        memberId: id,
        status: member.status,
        ...(passwordHash !== undefined && { passwordHash }),
        ...(member.emailConfirmedAt !== undefined && { emailConfirmedAt: member.emailConfirmedAt }),
      };
    },
    async listSignupValues(siteId, memberId) {
      if (!memberIn(siteId, memberId)) return [];
      return [...(values.get(memberId)?.values() ?? [])].sort((x, y) => x.fieldId - y.fieldId).map(copy);
    },
    async listMembershipsOfMember(siteId, memberId) {
      return memberships.rows.filter((m) => m.siteId === siteId && m.memberId === memberId).map(copy);
    },

    async getMemberMetadata(siteId, memberId) {
      if (!memberIn(siteId, memberId)) return undefined;
      return copy(metadata.get(memberId) ?? {});
    },
    async updateMemberMetadata(siteId, memberId, update) {
      if (!memberIn(siteId, memberId)) return undefined;
      // Nothing awaits between the read and the write, so no other update interleaves; `update`
      // gets a copy, so one that changes its argument and then throws changes nothing.
      const current = metadata.get(memberId) ?? {};
      const next = copy(update(copy(current)));
      metadata.set(memberId, next);
      const hooks = webhooks.announcer();
      if (hooks.wants(siteId, 'member.updated') && JSON.stringify(next) !== JSON.stringify(current)) {
        hooks.write([memberMessage('member.updated', siteId, members.byId.get(memberId)!, announcedAt())], DUE_AT_ONCE);
      }
      return copy(next);
    },

    async deleteExpiredSessions(now) {
      return sessions.deleteWhere((session) => {
        if (session.expiresAt > now) return false;
        sessionByHash.delete(session.tokenHash);
        return true;
      });
    },
    async findSessionByHash(tokenHash) {
      const session = sessionByHash.get(tokenHash);
      return session && copy(session);
    },
    async findSessionWithMember(tokenHash) {
      const session = sessionByHash.get(tokenHash);
      const member = session && members.byId.get(session.memberId);
      return session && member && member.siteId === session.siteId ? { session: copy(session), member: copy(member) } : undefined;
    },
    async touchSession(id, lastUsedAt, expiresAt) {
      const session = sessions.byId.get(id);
      if (!session) return;
      session.lastUsedAt = lastUsedAt;
      session.expiresAt = expiresAt;
    },
    async revokeSession(tokenHash, at) {
      const session = sessionByHash.get(tokenHash);
      if (!session || session.revokedAt !== undefined) return false;
      session.revokedAt = at;
      return true;
    },
  };
  function eraseAccount(siteId: number, memberId: number, erasedEmail: string): MemberRecord | undefined {
    const member = memberIn(siteId, memberId);
    if (!member) return undefined;
    memberByEmail.delete(emailKey(siteId, member.email));
    const { id, createdAt } = member;
    for (const key of Object.keys(member)) delete (member as unknown as Record<string, unknown>)[key];
    Object.assign(member, { id, siteId, email: erasedEmail, status: 'erased', createdAt });
    memberByEmail.set(emailKey(siteId, erasedEmail), memberId);
    passwords.delete(memberId);
    values.delete(memberId);
    metadata.delete(memberId);
    for (const session of sessions.rows.filter((x) => x.memberId === memberId)) sessionByHash.delete(session.tokenHash);
    sessions.deleteWhere((x) => x.memberId === memberId);
    return copy(member);
  }
  return {
    methods, createMembers, updateMember, createSession, revokeMemberSessions, memberState: stateOf, eraseAccount,
    sessionExists: (hash) => sessionByHash.has(hash),
    emailTaken: (siteId, email, exceptId) => {
      const owner = memberByEmail.get(emailKey(siteId, email));
      return owner !== undefined && owner !== exceptId;
    },
  };
}
