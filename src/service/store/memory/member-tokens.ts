/**
 * The memory store's mailed tokens (issue 15) and the writes that go with them: the same rules
 * as the SQLite store's. One process, no awaits: each method checks everything first, then makes
 * every change in the same synchronous run, so nothing else sees half of it.
 */
import { ConflictError, MissingReferenceError } from '../errors';
import { Table, copy } from './table';
import type { MemoryOutbox } from './outbox';
import type { MemoryWebhooks } from './webhooks';
import { memberMessage } from '../../webhooks/messages';
import type { MemberRecord, MemberTokenRecord, NewMemberEvent, NewMember, NewSession, SessionRecord } from '../records';
import type { AccountMethods, TokenMethods } from '../store';

export interface TokenTables {
  tokens: Table<MemberTokenRecord>;
  members: Table<MemberRecord>;
  outbox: MemoryOutbox;
  /** Sign-up announces `member.created`; a redemption that changes the member, `member.updated`. */
  webhooks: MemoryWebhooks;
  requireSite(siteId: number): void;
  /** What the accounts part does, synchronously (its async methods run without awaiting). */
  createMember(member: NewMember): number;
  patchMember: (...args: Parameters<AccountMethods['updateMember']>) => MemberRecord | undefined;
  /** What `member.updated` is about, to compare before and after (../webhook-announcing). */
  memberState(memberId: number): string;
  createSession(session: NewSession): SessionRecord;
  revokeSessions(siteId: number, memberId: number, at: number, keepTokenHash?: string): void;
  /** Whether a session has this token hash (checked before any write: createSession would throw after others). */
  sessionExists(tokenHash: string): boolean;
  /** The accounts' unique e-mail rule: another member of the site (not `exceptId`) has it. */
  emailTaken(siteId: number, email: string, exceptId?: number): boolean;
  addEvents(events: readonly NewMemberEvent[]): void;
}

export function memoryMemberTokens(t: TokenTables): TokenMethods {
  const { tokens, members, outbox } = t;
  const requireNewSession = (session: { tokenHash: string } | undefined) => {
    if (session && t.sessionExists(session.tokenHash)) throw new ConflictError('tokenHash', 'a session with that token exists');
  };

  return {
    async signUpMember({ member, events, token, mails, session }) {
      t.requireSite(member.siteId);
      if (t.emailTaken(member.siteId, member.email)) throw new ConflictError('email', `a member with e-mail ${member.email} exists`);
      if (token && tokens.rows.some((x) => x.tokenHash === token.tokenHash)) throw new ConflictError('tokenHash', 'a token with that hash exists');
      if (mails) for (const mail of mails) t.requireSite(mail.siteId);
      requireNewSession(session);
      const memberId = t.createMember(member);
      const mine = { siteId: member.siteId, memberId };
      t.addEvents(events.map((e) => ({ ...e, ...mine })));
      if (token) tokens.insert((id) => ({ ...copy(token), ...mine, id, attempts: 0 }));
      if (mails) outbox.queue(mails);
      const hooks = t.webhooks.announcer();
      if (hooks.wants(member.siteId, 'member.created')) {
        hooks.write([memberMessage('member.created', member.siteId, members.byId.get(memberId)!, member.createdAt)]);
      }
      return { memberId, ...(session && { session: t.createSession({ ...session, ...mine }) }) };
    },

    async queueRequestedMail({ mail, token, limits }) {
      t.requireSite(mail.siteId);
      if (token && !members.byId.has(token.memberId)) throw new MissingReferenceError('memberId', `memberId ${token.memberId} does not exist`);
      const sent = outbox.count(mail.siteId, limits.kinds, limits.since, mail.to);
      if (sent.address >= limits.perAddress) return 'addressLimit';
      if (sent.site >= limits.perSite) return 'siteLimit';
      if (token) {
        if (token.codeHash !== undefined) {
          // Only the newest code works, so its tries are the only ones; older links still do (they cannot be guessed).
          for (const old of tokens.rows) {
            if (old.memberId === token.memberId && old.purpose === token.purpose && old.usedAt === undefined) delete old.codeHash;
          }
        }
        tokens.insert((id) => ({ ...copy(token), id, attempts: 0 }));
      }
      outbox.queue([mail]);
      return 'queued';
    },

    async findMemberToken(tokenHash) {
      const token = tokens.rows.find((x) => x.tokenHash === tokenHash);
      return token && copy(token);
    },

    async findCodeToken(siteId, memberId, purpose) {
      const live = tokens.rows.filter(
        (x) => x.siteId === siteId && x.memberId === memberId && x.purpose === purpose && x.usedAt === undefined && x.codeHash !== undefined,
      );
      const newest = live.at(-1);
      return newest && copy(newest);
    },

    async spendCodeTry(id, max) {
      const token = tokens.byId.get(id);
      if (!token || token.usedAt !== undefined || token.codeHash === undefined || token.attempts >= max) return false;
      token.attempts++;
      return true;
    },

    async redeemMemberToken(id, at, effects) {
      const token = tokens.byId.get(id);
      if (!token) return { redeemed: false, reason: 'missing' };
      if (token.usedAt !== undefined) return { redeemed: false, reason: 'used' };
      if (token.expiresAt <= at) return { redeemed: false, reason: 'expired' };
      const { siteId, memberId } = token;
      if (!members.byId.has(memberId)) return { redeemed: false, reason: 'missing' };
      const email = effects.member?.email;
      if (email !== undefined && t.emailTaken(siteId, email, memberId)) throw new ConflictError('email', `a member with e-mail ${email} exists`);
      if (effects.mails) for (const mail of effects.mails) t.requireSite(mail.siteId);
      requireNewSession(effects.session);

      const hooks = t.webhooks.announcer();
      const before = effects.member && hooks.wants(siteId, 'member.updated') ? t.memberState(memberId) : undefined;
      // Used before the patch, so the patch's voiding of unused tokens spares it; the patch checks
      // everything before it changes anything, so when it throws only this mark is undone.
      token.usedAt = at;
      let member: MemberRecord;
      try {
        member = effects.member ? t.patchMember(siteId, memberId, effects.member)! : copy(members.byId.get(memberId)!);
      } catch (error) {
        delete token.usedAt;
        throw error;
      }
      if (effects.revokeSessions) t.revokeSessions(siteId, memberId, at, effects.keepSessionHash);
      const session = effects.session && t.createSession({ ...effects.session, siteId, memberId });
      if (effects.events) t.addEvents(effects.events.map((e) => ({ ...e, siteId, memberId })));
      if (effects.mails) outbox.queue(effects.mails);
      if (before !== undefined && t.memberState(memberId) !== before) hooks.write([memberMessage('member.updated', siteId, member, at)]);
      return { redeemed: true, member, ...(session && { session }) };
    },
  };
}
