/**
 * Contract: the members' mailed tokens (issue 15) and the writes that go with them. Sign-up
 * writes the member with its events, token, mails and session, all or none; a requested mail is
 * queued with its token unless the send limits (per address, per site, over some kinds since a
 * time) are reached, and then nothing is written; only a member's newest code of a purpose works,
 * and only for `max` tries, however many guesses race; a token is redeemed once, before it
 * expires, with its effects in the same transaction (a taken address undoes all of it). Also the
 * rest of what issue 15 added: a new password or address voids the member's unused tokens, a new
 * address is unconfirmed, receipts go with their invoice, `onceKey` mails go once, and a site
 * keeps its mail settings.
 */
import { expect, test } from 'vitest';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type {
  MailRecord,
  MemberTokenRecord,
  NewInvoice,
  NewMail,
  NewMemberToken,
  NewSession,
  SendLimits,
  SignUpRecord,
  SiteMailSettings,
} from '../../src/service/store/records';
import { type Ctx, T0, expectRejects, newMember, newPlan, newSite } from './fixtures';

const HOUR = 3_600_000;
const LEASE = 60_000;

export function memberTokenTests(ctx: Ctx): void {
  const mail = (to: string, overrides: Partial<NewMail> = {}): NewMail => ({
    siteId: ctx.a.id,
    kind: 'signInCode',
    to,
    subject: 'Your sign-in code',
    text: 'Your code is 123456.',
    createdAt: T0,
    ...overrides,
  });

  let serial = 0;
  /** A code-carrying token of site a (`withCode` false: a link only), unique hashes each call. */
  const token = (memberId: number, overrides: Partial<NewMemberToken> = {}, withCode = true): NewMemberToken => {
    const n = ++serial;
    return {
      siteId: ctx.a.id,
      memberId,
      purpose: 'signIn',
      tokenHash: `token-${n}`,
      ...(withCode && { codeHash: `code-${n}` }),
      createdAt: T0,
      expiresAt: T0 + HOUR,
      ...overrides,
    };
  };
  /** Limits nothing in these tests reaches. */
  const OPEN: SendLimits = { kinds: ['signInCode'], since: T0, perAddress: 1000, perSite: 1000 };

  /** Issues the token through queueRequestedMail (the only way in besides sign-up); answers it as stored. */
  async function issue(memberId: number, overrides: Partial<NewMemberToken> = {}, withCode = true): Promise<MemberTokenRecord> {
    const t = token(memberId, overrides, withCode);
    expect(await ctx.store.queueRequestedMail({ mail: mail(`member${memberId}@example.com`, { siteId: t.siteId }), token: t, limits: OPEN })).toBe('queued');
    const stored = await ctx.store.findMemberToken(t.tokenHash);
    expect(stored).toBeDefined();
    return stored!;
  }

  const session = (tokenHash: string, createdAt = T0): Omit<NewSession, 'siteId' | 'memberId'> => ({
    tokenHash,
    createdAt,
    lastUsedAt: createdAt,
    expiresAt: createdAt + 24 * HOUR,
  });
  const newSession = (memberId: number, tokenHash: string, siteId = ctx.a.id): NewSession => ({ siteId, memberId, ...session(tokenHash) });

  const allMail = async (): Promise<MailRecord[]> => (await ctx.store.listMail(undefined, { limit: 1000 })).items;
  const eventsOf = async (siteId: number, memberId?: number) =>
    (await ctx.store.listMemberEvents(siteId, memberId === undefined ? {} : { memberId }, { limit: 1000 })).items;
  const members = async (siteId = ctx.a.id) => (await ctx.store.listMembers(siteId, {}, { limit: 1000 })).items;
  const addMember = async (email: string, extra: Parameters<typeof newMember>[2] = {}, siteId = ctx.a.id) =>
    (await ctx.store.createMembers([newMember(siteId, email, extra)]))[0]!;

  // Sign-up.

  const fullSignUp = (email: string, siteId = ctx.a.id): SignUpRecord => ({
    member: newMember(siteId, email, { passwordHash: '$scrypt$new', firstName: 'Ann' }),
    events: [
      { eventType: 'signup', details: { source: 'widget' }, createdAt: T0 },
      { eventType: 'login', details: {}, createdAt: T0 + 1 },
    ],
    token: { purpose: 'signIn', tokenHash: `signup-token-${siteId}`, codeHash: 'signup-code', createdAt: T0, expiresAt: T0 + HOUR },
    mails: [mail(email, { siteId, kind: 'confirmEmail', subject: 'Confirm your address' })],
    session: session(`signup-session-${siteId}`),
  });

  test('signUpMember writes the member, its events, token, mails and session; answers the member id and the session', async () => {
    const signUp = fullSignUp('ann@example.com');
    const { memberId, session: opened } = await ctx.store.signUpMember(signUp);
    const mine = { siteId: ctx.a.id, memberId };

    expect(await ctx.store.getMember(ctx.a.id, memberId)).toStrictEqual({
      id: memberId, siteId: ctx.a.id, email: 'ann@example.com', firstName: 'Ann', status: 'approved', createdAt: T0,
    });
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toStrictEqual({ memberId, status: 'approved', passwordHash: '$scrypt$new' });
    expect(await eventsOf(ctx.a.id)).toStrictEqual([
      { id: expect.any(Number), ...mine, eventType: 'signup', details: { source: 'widget' }, createdAt: T0 },
      { id: expect.any(Number), ...mine, eventType: 'login', details: {}, createdAt: T0 + 1 },
    ]);
    const stored = await ctx.store.findMemberToken('signup-token-' + ctx.a.id);
    expect(stored).toStrictEqual({ ...signUp.token, ...mine, id: expect.any(Number), attempts: 0 });
    expect(await ctx.store.findCodeToken(ctx.a.id, memberId, 'signIn')).toStrictEqual(stored);
    expect((await allMail()).map((m) => [m.siteId, m.kind, m.to, m.status])).toEqual([[ctx.a.id, 'confirmEmail', 'ann@example.com', 'queued']]);
    expect(opened).toStrictEqual({ ...signUp.session, ...mine, id: expect.any(Number) });
    expect(await ctx.store.findSessionByHash(signUp.session!.tokenHash)).toStrictEqual(opened);
  });

  test('signUpMember without token, mails or session writes the member and its events only, and answers no session; emailConfirmedAt is kept', async () => {
    const result = await ctx.store.signUpMember({
      member: newMember(ctx.a.id, 'ann@example.com', { emailConfirmedAt: T0 + 5 }),
      events: [{ eventType: 'signup', details: {}, createdAt: T0 }],
    });
    expect(result).toStrictEqual({ memberId: expect.any(Number) });
    expect(await ctx.store.getMember(ctx.a.id, result.memberId)).toMatchObject({ email: 'ann@example.com', emailConfirmedAt: T0 + 5 });
    expect(await eventsOf(ctx.a.id, result.memberId)).toHaveLength(1);
    expect(await ctx.store.findCodeToken(ctx.a.id, result.memberId, 'signIn')).toBeUndefined();
    expect(await allMail()).toEqual([]);
  });

  test('signUpMember with a taken e-mail throws ConflictError on email and writes nothing: no member, event, token, mail or session', async () => {
    const ann = await addMember('ann@example.com');
    await expectRejects(ctx.store.signUpMember(fullSignUp('ann@example.com')), ConflictError, 'email');
    expect((await members()).map((m) => m.id)).toEqual([ann]);
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toStrictEqual({ memberId: ann, status: 'approved' });
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await ctx.store.findMemberToken('signup-token-' + ctx.a.id)).toBeUndefined();
    expect(await allMail()).toEqual([]);
    expect(await ctx.store.findSessionByHash('signup-session-' + ctx.a.id)).toBeUndefined();
    // The address is another site's to use.
    const { memberId } = await ctx.store.signUpMember(fullSignUp('ann@example.com', ctx.b.id));
    expect((await ctx.store.getMember(ctx.b.id, memberId))?.email).toBe('ann@example.com');
    expect(await ctx.store.findMemberToken('signup-token-' + ctx.b.id)).toMatchObject({ siteId: ctx.b.id, memberId });
  });

  test('signUpMember whose mail names an unknown site throws MissingReferenceError on siteId and writes nothing', async () => {
    const signUp = fullSignUp('ann@example.com');
    signUp.mails = [mail('ann@example.com', { siteId: ctx.b.id + 1000 })];
    await expectRejects(ctx.store.signUpMember(signUp), MissingReferenceError, 'siteId');
    expect(await members()).toEqual([]);
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toBeUndefined();
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await ctx.store.findMemberToken('signup-token-' + ctx.a.id)).toBeUndefined();
    expect(await allMail()).toEqual([]);
    expect(await ctx.store.findSessionByHash('signup-session-' + ctx.a.id)).toBeUndefined();
    // Nothing half-written stands in the way of doing it right.
    expect((await ctx.store.signUpMember(fullSignUp('ann@example.com'))).memberId).toEqual(expect.any(Number));
  });

  test('signUpMember whose session token hash is in use throws and writes nothing', async () => {
    const bob = await addMember('bob@example.com');
    const taken = await ctx.store.createSession(newSession(bob, 'signup-session-' + ctx.a.id));
    const error = await ctx.store.signUpMember(fullSignUp('ann@example.com')).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((await members()).map((m) => m.id)).toEqual([bob]);
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toBeUndefined();
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await ctx.store.findMemberToken('signup-token-' + ctx.a.id)).toBeUndefined();
    expect(await allMail()).toEqual([]);
    expect(await ctx.store.findSessionByHash('signup-session-' + ctx.a.id)).toStrictEqual(taken);
  });

  // Requested mail and the send limits.

  test('queueRequestedMail queues the mail with its token; the token reads back unused, with no tries; a mail may go without a token', async () => {
    const ann = await addMember('ann@example.com');
    const change = token(ann, { purpose: 'emailChange', newEmail: 'new@example.com', createdAt: T0 + 7, expiresAt: T0 + 7 + HOUR });
    const request = { mail: mail('new@example.com', { kind: 'emailChange', createdAt: T0 + 7 }), token: change, limits: { ...OPEN, kinds: ['emailChange'] } };
    expect(await ctx.store.queueRequestedMail(request)).toBe('queued');
    const stored = await ctx.store.findMemberToken(change.tokenHash);
    expect(stored).toStrictEqual({ ...change, id: expect.any(Number), attempts: 0 });
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'emailChange')).toStrictEqual(stored);
    expect(await allMail()).toStrictEqual([
      { ...request.mail, id: expect.any(Number), status: 'queued', attempts: 0, nextAttemptAt: T0 + 7 },
    ]);

    expect(await ctx.store.queueRequestedMail({ mail: mail('stranger@example.com', { kind: 'noAccount' }), limits: OPEN })).toBe('queued');
    expect((await allMail()).map((m) => m.to)).toEqual(['new@example.com', 'stranger@example.com']);
    expect(await ctx.store.findMemberToken('token-none')).toBeUndefined();
  });

  test('send limits per address count the mails of the kinds queued at `since` or later in the site; a refusal writes no token and no mail', async () => {
    const ann = await addMember('ann@example.com');
    const limits: SendLimits = { kinds: ['signInCode', 'passwordReset'], since: T0 + 1000, perAddress: 2, perSite: 100 };
    await ctx.store.queueMail([
      mail('ann@example.com', { kind: 'passwordReset', createdAt: T0 + 1000 }), // counts: at `since`
      mail('ann@example.com', { kind: 'signInCode', createdAt: T0 + 999 }), // older
      mail('ann@example.com', { kind: 'welcome', createdAt: T0 + 2000 }), // another kind
      mail('ann@example.com', { kind: 'signInCode', createdAt: T0 + 2000, siteId: ctx.b.id }), // another site
      mail('bob@example.com', { kind: 'signInCode', createdAt: T0 + 2000 }), // another address
    ]);
    const first = token(ann, { createdAt: T0 + 2000 });
    expect(await ctx.store.queueRequestedMail({ mail: mail('ann@example.com', { createdAt: T0 + 2000 }), token: first, limits })).toBe('queued');
    const queued = (await allMail()).length;

    const refused = token(ann, { createdAt: T0 + 3000 });
    expect(await ctx.store.queueRequestedMail({ mail: mail('ann@example.com', { createdAt: T0 + 3000 }), token: refused, limits })).toBe('addressLimit');
    expect(await ctx.store.findMemberToken(refused.tokenHash)).toBeUndefined();
    expect(await allMail()).toHaveLength(queued);
    // The refused code replaced nothing: the earlier one still works.
    expect((await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn'))?.tokenHash).toBe(first.tokenHash);
    expect((await ctx.store.findMemberToken(first.tokenHash))?.usedAt).toBeUndefined();
    // A mail without a token is refused the same way.
    expect(await ctx.store.queueRequestedMail({ mail: mail('ann@example.com', { kind: 'passwordReset', createdAt: T0 + 3000 }), limits })).toBe('addressLimit');
    expect(await allMail()).toHaveLength(queued);

    // Another address of the site still has room, and so does the address once `since` moves past its mails.
    expect(await ctx.store.queueRequestedMail({ mail: mail('bob@example.com', { createdAt: T0 + 3000 }), limits })).toBe('queued');
    expect(await ctx.store.queueRequestedMail({ mail: mail('ann@example.com', { createdAt: T0 + 3000 }), limits: { ...limits, since: T0 + 2001 } })).toBe('queued');
    expect(await allMail()).toHaveLength(queued + 2);
  });

  test('send limits per site count every address\'s mails of the kinds since `since`; another site\'s, older ones and other kinds do not', async () => {
    const ann = await addMember('ann@example.com');
    const limits: SendLimits = { kinds: ['signInCode', 'passwordReset'], since: T0 + 1000, perAddress: 100, perSite: 3 };
    await ctx.store.queueMail([
      mail('x@example.com', { kind: 'passwordReset', createdAt: T0 + 1000 }),
      mail('y@example.com', { kind: 'signInCode', createdAt: T0 + 1500 }),
      mail('z@example.com', { kind: 'welcome', createdAt: T0 + 1500 }),
      mail('w@example.com', { kind: 'signInCode', createdAt: T0 + 999 }),
      ...[1, 2, 3, 4].map((n) => mail(`b${n}@example.com`, { siteId: ctx.b.id, createdAt: T0 + 1500 })),
    ]);
    expect(await ctx.store.queueRequestedMail({ mail: mail('ann@example.com', { createdAt: T0 + 2000 }), token: token(ann, { createdAt: T0 + 2000 }), limits })).toBe('queued');
    const queued = (await allMail()).length;
    const refused = token(ann, { purpose: 'passwordReset', createdAt: T0 + 3000 }, false);
    expect(await ctx.store.queueRequestedMail({ mail: mail('new@example.com', { kind: 'passwordReset', createdAt: T0 + 3000 }), token: refused, limits })).toBe('siteLimit');
    expect(await ctx.store.findMemberToken(refused.tokenHash)).toBeUndefined();
    expect(await allMail()).toHaveLength(queued);
    // Site b is limited by its own mails only (4 of them: full at 4, open at 5).
    expect(await ctx.store.queueRequestedMail({ mail: mail('ann@example.com', { siteId: ctx.b.id, createdAt: T0 + 3000 }), limits: { ...limits, perSite: 4 } })).toBe('siteLimit');
    expect(await ctx.store.queueRequestedMail({ mail: mail('ann@example.com', { siteId: ctx.b.id, createdAt: T0 + 3000 }), limits: { ...limits, perSite: 5 } })).toBe('queued');
  });

  // Codes.

  test('a new code token takes the code off the member\'s older unused tokens of the purpose, whose links still work; link-only tokens, other purposes and other members keep theirs', async () => {
    const ann = await addMember('ann@example.com');
    const bob = await addMember('bob@example.com');
    const oldCode = await issue(ann);
    const link = await issue(ann, {}, false);
    const resetCode = await issue(ann, { purpose: 'passwordReset' });
    const bobCode = await issue(bob);
    expect((await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn'))?.id).toBe(oldCode.id);

    const newCode = await issue(ann, { createdAt: T0 + 5000, expiresAt: T0 + 5000 + HOUR });
    const { codeHash: _gone, ...withoutCode } = oldCode;
    expect(await ctx.store.findMemberToken(oldCode.tokenHash)).toStrictEqual(withoutCode);
    expect(await ctx.store.findMemberToken(link.tokenHash)).toStrictEqual(link);
    expect(await ctx.store.findMemberToken(resetCode.tokenHash)).toStrictEqual(resetCode);
    expect(await ctx.store.findMemberToken(bobCode.tokenHash)).toStrictEqual(bobCode);
    expect(newCode.usedAt).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn')).toStrictEqual(newCode);
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'passwordReset')).toStrictEqual(resetCode);
    expect(await ctx.store.findCodeToken(ctx.a.id, bob, 'signIn')).toStrictEqual(bobCode);
    // The replaced code has no tries left to spend; its link (which cannot be guessed) still redeems.
    expect(await ctx.store.spendCodeTry(oldCode.id, 5)).toBe(false);
    expect(await ctx.store.redeemMemberToken(oldCode.id, T0 + 6000, {})).toMatchObject({ redeemed: true });
    // The link-only token of the same purpose still does.
    expect(await ctx.store.redeemMemberToken(link.id, T0 + 6000, {})).toMatchObject({ redeemed: true });
  });

  test('findCodeToken: the newest unused code token, expired or not; none for a link-only token, a used one, another purpose, member or site', async () => {
    const ann = await addMember('ann@example.com');
    const bob = await addMember('bob@example.com');
    const [bAnn] = await ctx.store.createMembers([newMember(ctx.b.id, 'ann@example.com')]);
    await issue(ann, {}, false);
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn')).toBeUndefined();

    const code = await issue(ann);
    // Expired (redeeming says so), and still the code to check a guess against.
    expect(await ctx.store.redeemMemberToken(code.id, T0 + 2 * HOUR, {})).toStrictEqual({ redeemed: false, reason: 'expired' });
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn')).toStrictEqual(code);
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'passwordReset')).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.a.id, bob, 'signIn')).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.b.id, ann, 'signIn')).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.b.id, bAnn!, 'signIn')).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.a.id, bAnn!, 'signIn')).toBeUndefined();

    const bCode = await issue(bAnn!, { siteId: ctx.b.id });
    expect(await ctx.store.findCodeToken(ctx.b.id, bAnn!, 'signIn')).toStrictEqual(bCode);
    expect(await ctx.store.findCodeToken(ctx.a.id, bAnn!, 'signIn')).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn')).toStrictEqual(code);

    expect((await ctx.store.redeemMemberToken(code.id, T0 + 1, {})).redeemed).toBe(true);
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn')).toBeUndefined();
    expect(await ctx.store.findMemberToken(code.tokenHash)).toStrictEqual({ ...code, usedAt: T0 + 1 });
    expect(await ctx.store.findMemberToken('no-such-token')).toBeUndefined();
  });

  test('spendCodeTry is true exactly `max` times, then false; the tries read back; false for a used token and for none', async () => {
    const ann = await addMember('ann@example.com');
    const code = await issue(ann);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await ctx.store.spendCodeTry(code.id, 3));
    expect(answers).toEqual([true, true, true, false, false]);
    expect((await ctx.store.findMemberToken(code.tokenHash))?.attempts).toBe(3);
    // `max` is the caller's: a larger one leaves room again.
    expect(await ctx.store.spendCodeTry(code.id, 4)).toBe(true);
    expect(await ctx.store.spendCodeTry(code.id, 4)).toBe(false);
    expect((await ctx.store.findMemberToken(code.tokenHash))?.attempts).toBe(4);

    const other = await issue(ann, { purpose: 'passwordReset' });
    expect(await ctx.store.spendCodeTry(other.id, 5)).toBe(true);
    expect((await ctx.store.redeemMemberToken(other.id, T0 + 1, {})).redeemed).toBe(true);
    expect(await ctx.store.spendCodeTry(other.id, 5)).toBe(false);
    expect((await ctx.store.findMemberToken(other.tokenHash))?.attempts).toBe(1);
    expect(await ctx.store.spendCodeTry(other.id + 1000, 5)).toBe(false);
  });

  test('spendCodeTry: 20 concurrent tries with max 5 get exactly 5 true between them', async () => {
    const ann = await addMember('ann@example.com');
    const code = await issue(ann);
    const answers = await Promise.all(Array.from({ length: 20 }, () => ctx.store.spendCodeTry(code.id, 5)));
    expect(answers.filter((ok) => ok)).toHaveLength(5);
    expect((await ctx.store.findMemberToken(code.tokenHash))?.attempts).toBe(5);
  });

  // Redeeming.

  test('redeemMemberToken: missing for no token; expired at expiresAt and after, changing nothing; redeemed before it; used the second time', async () => {
    const ann = await addMember('ann@example.com', { firstName: 'Ann' });
    const link = await issue(ann, { purpose: 'passwordReset' }, false);
    const effects = {
      member: { firstName: 'Changed' },
      session: session('redeem-session'),
      events: [{ eventType: 'login' as const, details: {}, createdAt: T0 }],
      mails: [mail('ann@example.com', { kind: 'notice' })],
    };
    const queued = (await allMail()).length;
    expect(await ctx.store.redeemMemberToken(link.id + 1000, T0, effects)).toStrictEqual({ redeemed: false, reason: 'missing' });
    expect(await ctx.store.redeemMemberToken(link.id, T0 + HOUR, effects)).toStrictEqual({ redeemed: false, reason: 'expired' });
    expect(await ctx.store.redeemMemberToken(link.id, T0 + HOUR + 1, effects)).toStrictEqual({ redeemed: false, reason: 'expired' });
    expect(await ctx.store.findMemberToken(link.tokenHash)).toStrictEqual(link);
    expect((await ctx.store.getMember(ctx.a.id, ann))?.firstName).toBe('Ann');
    expect(await ctx.store.findSessionByHash('redeem-session')).toBeUndefined();
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await allMail()).toHaveLength(queued);

    // A moment before it expires: redeemed, with no session when the effects open none.
    const plain = await issue(ann, { purpose: 'emailChange' }, false);
    const queuedNow = (await allMail()).length;
    const outcome = await ctx.store.redeemMemberToken(plain.id, T0 + HOUR - 1, {});
    expect(outcome).toStrictEqual({ redeemed: true, member: await ctx.store.getMember(ctx.a.id, ann) });
    expect(await ctx.store.findMemberToken(plain.tokenHash)).toStrictEqual({ ...plain, usedAt: T0 + HOUR - 1 });
    expect(await ctx.store.redeemMemberToken(plain.id, T0 + HOUR - 1, effects)).toStrictEqual({ redeemed: false, reason: 'used' });
    expect(await ctx.store.redeemMemberToken(plain.id, T0 + 2, effects)).toStrictEqual({ redeemed: false, reason: 'used' });
    expect((await ctx.store.findMemberToken(plain.tokenHash))?.usedAt).toBe(T0 + HOUR - 1);
    expect(await ctx.store.findSessionByHash('redeem-session')).toBeUndefined();
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await allMail()).toHaveLength(queuedNow);
  });

  test('redeemMemberToken carries out its effects: the member patch, every other live session revoked but the kept one, a new session, events and mails', async () => {
    const ann = await addMember('ann@example.com', { passwordHash: '$scrypt$old' });
    const bob = await addMember('bob@example.com');
    const current = await ctx.store.createSession(newSession(ann, 's-current'));
    await ctx.store.createSession(newSession(ann, 's-other'));
    await ctx.store.createSession(newSession(ann, 's-revoked'));
    await ctx.store.revokeSession('s-revoked', T0 + 1);
    const bobs = await ctx.store.createSession(newSession(bob, 's-bob'));
    const reset = await issue(ann, { purpose: 'passwordReset' }, false);
    const queued = (await allMail()).length;

    const at = T0 + 1000;
    const outcome = await ctx.store.redeemMemberToken(reset.id, at, {
      member: { passwordHash: '$scrypt$new', firstName: 'Ann' },
      revokeSessions: true,
      keepSessionHash: 's-current',
      session: session('s-new', at),
      events: [{ eventType: 'passwordReset', details: { via: 'link' }, createdAt: at }],
      mails: [mail('ann@example.com', { kind: 'passwordChanged', createdAt: at })],
    });
    const member = await ctx.store.getMember(ctx.a.id, ann);
    expect(member).toMatchObject({ firstName: 'Ann' });
    expect(outcome).toStrictEqual({
      redeemed: true,
      member,
      session: { ...session('s-new', at), siteId: ctx.a.id, memberId: ann, id: expect.any(Number) },
    });
    if (!outcome.redeemed) throw new Error('redeemed above');
    expect(await ctx.store.findSessionByHash('s-new')).toStrictEqual(outcome.session);
    expect((await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com'))?.passwordHash).toBe('$scrypt$new');
    expect(await ctx.store.findSessionByHash('s-current')).toStrictEqual(current);
    expect((await ctx.store.findSessionByHash('s-other'))?.revokedAt).toBe(at);
    expect((await ctx.store.findSessionByHash('s-revoked'))?.revokedAt).toBe(T0 + 1);
    expect(await ctx.store.findSessionByHash('s-bob')).toStrictEqual(bobs);
    expect(await eventsOf(ctx.a.id)).toStrictEqual([
      { id: expect.any(Number), siteId: ctx.a.id, memberId: ann, eventType: 'passwordReset', details: { via: 'link' }, createdAt: at },
    ]);
    const mails = await allMail();
    expect(mails).toHaveLength(queued + 1);
    expect(mails.at(-1)).toMatchObject({ siteId: ctx.a.id, kind: 'passwordChanged', to: 'ann@example.com', status: 'queued' });
    expect(await ctx.store.findMemberToken(reset.tokenHash)).toStrictEqual({ ...reset, usedAt: at });
  });

  test('redeemMemberToken with revokeSessions and no session to keep revokes every live session of the member; the new one stays live', async () => {
    const ann = await addMember('ann@example.com');
    await ctx.store.createSession(newSession(ann, 's-1'));
    await ctx.store.createSession(newSession(ann, 's-2'));
    const reset = await issue(ann, { purpose: 'passwordReset' }, false);
    const outcome = await ctx.store.redeemMemberToken(reset.id, T0 + 10, { revokeSessions: true, session: session('s-new', T0 + 10) });
    expect(outcome.redeemed && outcome.session?.revokedAt).toBeUndefined();
    expect(outcome.redeemed && outcome.session?.tokenHash).toBe('s-new');
    expect((await ctx.store.findSessionByHash('s-1'))?.revokedAt).toBe(T0 + 10);
    expect((await ctx.store.findSessionByHash('s-2'))?.revokedAt).toBe(T0 + 10);
    expect(await ctx.store.findSessionByHash('s-new')).not.toHaveProperty('revokedAt');
  });

  test('redeemMemberToken moving the member to a taken address throws ConflictError on email and changes nothing; with a free address it moves and confirms it', async () => {
    const ann = await addMember('ann@example.com', { passwordHash: 'h', emailConfirmedAt: T0 });
    await addMember('bob@example.com');
    const live = await ctx.store.createSession(newSession(ann, 's-ann'));
    const change = await issue(ann, { purpose: 'emailChange', newEmail: 'bob@example.com' });
    await ctx.store.spendCodeTry(change.id, 5);
    const tokenBefore = await ctx.store.findMemberToken(change.tokenHash);
    const memberBefore = await ctx.store.getMember(ctx.a.id, ann);
    const mailBefore = await allMail();
    const at = T0 + 100;
    const effects = (email: string) => ({
      member: { email, emailConfirmedAt: at },
      revokeSessions: true,
      session: session('s-new', at),
      events: [{ eventType: 'emailChanged' as const, details: { from: 'ann@example.com', to: email }, createdAt: at }],
      mails: [mail('ann@example.com', { kind: 'emailChanged', createdAt: at })],
    });

    await expectRejects(ctx.store.redeemMemberToken(change.id, at, effects('bob@example.com')), ConflictError, 'email');
    expect(await ctx.store.findMemberToken(change.tokenHash)).toStrictEqual(tokenBefore);
    expect(tokenBefore?.usedAt).toBeUndefined();
    expect(await ctx.store.getMember(ctx.a.id, ann)).toStrictEqual(memberBefore);
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toMatchObject({ memberId: ann, emailConfirmedAt: T0 });
    expect(await ctx.store.findSessionByHash('s-ann')).toStrictEqual(live);
    expect(await ctx.store.findSessionByHash('s-new')).toBeUndefined();
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await allMail()).toStrictEqual(mailBefore);

    const outcome = await ctx.store.redeemMemberToken(change.id, at, effects('ann.new@example.com'));
    expect(outcome).toMatchObject({ redeemed: true, member: { id: ann, email: 'ann.new@example.com', emailConfirmedAt: at } });
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toBeUndefined();
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann.new@example.com')).toStrictEqual({ memberId: ann, status: 'approved', passwordHash: 'h', emailConfirmedAt: at });
    expect((await ctx.store.findSessionByHash('s-ann'))?.revokedAt).toBe(at);
    expect(await eventsOf(ctx.a.id, ann)).toHaveLength(1);
    expect(await allMail()).toHaveLength(mailBefore.length + 1);
    expect((await ctx.store.findMemberToken(change.tokenHash))?.usedAt).toBe(at);
  });

  test('redeemMemberToken whose member patch names a field not the site\'s throws MissingReferenceError on fieldId and changes nothing', async () => {
    const ann = await addMember('ann@example.com', { firstName: 'Ann' });
    const link = await issue(ann, { purpose: 'signIn' }, false);
    const mailBefore = await allMail();
    await expectRejects(
      ctx.store.redeemMemberToken(link.id, T0 + 1, {
        member: { firstName: 'Changed', signupValues: [{ fieldId: 987_654, value: 'x' }] },
        session: session('s-new', T0 + 1),
        events: [{ eventType: 'login', details: {}, createdAt: T0 + 1 }],
        mails: [mail('ann@example.com', { kind: 'notice' })],
      }),
      MissingReferenceError,
      'fieldId',
    );
    expect(await ctx.store.findMemberToken(link.tokenHash)).toStrictEqual(link);
    expect((await ctx.store.getMember(ctx.a.id, ann))?.firstName).toBe('Ann');
    expect(await ctx.store.findSessionByHash('s-new')).toBeUndefined();
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await allMail()).toStrictEqual(mailBefore);
    expect((await ctx.store.redeemMemberToken(link.id, T0 + 2, {})).redeemed).toBe(true);
  });

  test('redeemMemberToken whose new session\'s token hash is in use throws and changes nothing', async () => {
    const ann = await addMember('ann@example.com', { firstName: 'Ann' });
    const taken = await ctx.store.createSession(newSession(ann, 's-taken'));
    await ctx.store.createSession(newSession(ann, 's-other'));
    const link = await issue(ann, { purpose: 'signIn' }, false);
    const mailBefore = await allMail();
    const error = await ctx.store
      .redeemMemberToken(link.id, T0 + 1, {
        member: { firstName: 'Changed' },
        revokeSessions: true,
        session: session('s-taken', T0 + 1),
        events: [{ eventType: 'login', details: {}, createdAt: T0 + 1 }],
        mails: [mail('ann@example.com', { kind: 'notice' })],
      })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(await ctx.store.findMemberToken(link.tokenHash)).toStrictEqual(link);
    expect((await ctx.store.getMember(ctx.a.id, ann))?.firstName).toBe('Ann');
    expect(await ctx.store.findSessionByHash('s-taken')).toStrictEqual(taken);
    expect((await ctx.store.findSessionByHash('s-other'))?.revokedAt).toBeUndefined();
    expect(await eventsOf(ctx.a.id)).toEqual([]);
    expect(await allMail()).toStrictEqual(mailBefore);
  });

  test('redeeming a password reset deletes the member\'s other unused tokens (a new password), and keeps the redeemed one, used', async () => {
    const ann = await addMember('ann@example.com', { passwordHash: 'old' });
    const reset = await issue(ann, { purpose: 'passwordReset' }, false);
    const code = await issue(ann, { purpose: 'signIn' });
    await ctx.store.redeemMemberToken(reset.id, T0 + 5, { member: { passwordHash: 'new' } });
    expect(await ctx.store.findMemberToken(reset.tokenHash)).toStrictEqual({ ...reset, usedAt: T0 + 5 });
    expect(await ctx.store.findMemberToken(code.tokenHash)).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn')).toBeUndefined();
  });

  // updateMember: tokens and the confirmed address.

  test('updateMember with a new password deletes the member\'s unused tokens, keeps used ones and other members\'; other patches keep them all', async () => {
    const ann = await addMember('ann@example.com', { passwordHash: 'old' });
    const bob = await addMember('bob@example.com');
    const used = await issue(ann, { purpose: 'emailChange' }, false);
    await ctx.store.redeemMemberToken(used.id, T0 + 1, {});
    const link = await issue(ann, { purpose: 'passwordReset' }, false);
    const code = await issue(ann, { purpose: 'signIn' });
    const bobs = await issue(bob);

    await ctx.store.updateMember(ctx.a.id, ann, { firstName: 'Ann', lastName: null });
    expect(await ctx.store.findMemberToken(link.tokenHash)).toStrictEqual(link);
    expect(await ctx.store.findMemberToken(code.tokenHash)).toStrictEqual(code);

    expect(await ctx.store.updateMember(ctx.a.id, ann, { passwordHash: 'new' })).toMatchObject({ id: ann });
    expect(await ctx.store.findMemberToken(link.tokenHash)).toBeUndefined();
    expect(await ctx.store.findMemberToken(code.tokenHash)).toBeUndefined();
    expect(await ctx.store.findCodeToken(ctx.a.id, ann, 'signIn')).toBeUndefined();
    expect(await ctx.store.findMemberToken(used.tokenHash)).toStrictEqual({ ...used, usedAt: T0 + 1 });
    expect(await ctx.store.findMemberToken(bobs.tokenHash)).toStrictEqual(bobs);
    expect((await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com'))?.passwordHash).toBe('new');
  });

  test('updateMember with a new e-mail deletes the member\'s unused tokens; a rejected one (address taken) deletes nothing', async () => {
    const ann = await addMember('ann@example.com');
    await addMember('bob@example.com');
    const code = await issue(ann);
    await expectRejects(ctx.store.updateMember(ctx.a.id, ann, { email: 'bob@example.com' }), ConflictError, 'email');
    expect(await ctx.store.findMemberToken(code.tokenHash)).toStrictEqual(code);
    await expectRejects(ctx.store.updateMember(ctx.a.id, ann, { passwordHash: 'x', email: 'bob@example.com' }), ConflictError, 'email');
    expect(await ctx.store.findMemberToken(code.tokenHash)).toStrictEqual(code);
    await ctx.store.updateMember(ctx.a.id, ann, { email: 'ann.new@example.com' });
    expect(await ctx.store.findMemberToken(code.tokenHash)).toBeUndefined();
  });

  test('emailConfirmedAt: kept by createMembers, read by getMember, listMembers and findMemberLogin; a new e-mail clears it unless the patch sets it', async () => {
    const ann = await addMember('ann@example.com', { passwordHash: 'h', emailConfirmedAt: T0 + 5 });
    const bob = await addMember('bob@example.com');
    expect(await ctx.store.getMember(ctx.a.id, ann)).toStrictEqual({
      id: ann, siteId: ctx.a.id, email: 'ann@example.com', status: 'approved', createdAt: T0, emailConfirmedAt: T0 + 5,
    });
    expect((await members()).map((m) => m.emailConfirmedAt)).toEqual([T0 + 5, undefined]);
    expect(await ctx.store.getMember(ctx.a.id, bob)).not.toHaveProperty('emailConfirmedAt');
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann@example.com')).toStrictEqual({ memberId: ann, status: 'approved', passwordHash: 'h', emailConfirmedAt: T0 + 5 });
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'bob@example.com')).toStrictEqual({ memberId: bob, status: 'approved' });

    // Other changes, a rejected address, and the address it has already: still confirmed.
    expect(await ctx.store.updateMember(ctx.a.id, ann, { firstName: 'Ann', passwordHash: 'h2' })).toMatchObject({ emailConfirmedAt: T0 + 5 });
    await expectRejects(ctx.store.updateMember(ctx.a.id, ann, { email: 'bob@example.com' }), ConflictError, 'email');
    expect(await ctx.store.updateMember(ctx.a.id, ann, { email: 'ann@example.com' })).toMatchObject({ emailConfirmedAt: T0 + 5 });
    expect((await ctx.store.getMember(ctx.a.id, ann))?.emailConfirmedAt).toBe(T0 + 5);

    // A new address: unconfirmed.
    const moved = await ctx.store.updateMember(ctx.a.id, ann, { email: 'ann.two@example.com' });
    expect(moved).toMatchObject({ email: 'ann.two@example.com' });
    expect(moved).not.toHaveProperty('emailConfirmedAt');
    expect(await ctx.store.getMember(ctx.a.id, ann)).not.toHaveProperty('emailConfirmedAt');
    expect(await ctx.store.findMemberLogin(ctx.a.id, 'ann.two@example.com')).toStrictEqual({ memberId: ann, status: 'approved', passwordHash: 'h2' });

    // Confirmed by a patch alone, or with the new address.
    expect(await ctx.store.updateMember(ctx.a.id, ann, { emailConfirmedAt: T0 + 9 })).toMatchObject({ emailConfirmedAt: T0 + 9 });
    expect((await ctx.store.findMemberLogin(ctx.a.id, 'ann.two@example.com'))?.emailConfirmedAt).toBe(T0 + 9);
    expect(await ctx.store.updateMember(ctx.a.id, ann, { email: 'ann.three@example.com', emailConfirmedAt: T0 + 10 })).toMatchObject({
      email: 'ann.three@example.com', emailConfirmedAt: T0 + 10,
    });
    expect((await ctx.store.getMember(ctx.a.id, ann))?.emailConfirmedAt).toBe(T0 + 10);
    expect(await ctx.store.getMember(ctx.a.id, bob)).not.toHaveProperty('emailConfirmedAt');
  });

  // Receipts with their invoice.

  test('createInvoice queues its mails in the same transaction: a rejected invoice queues none, and a mail for an unknown site adds no invoice', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id));
    const ann = await addMember('ann@example.com');
    const invoice = (processorInvoiceId: string, extra: Partial<NewInvoice> = {}): NewInvoice => ({
      siteId: ctx.a.id, memberId: ann, planId: plan.id, processorInvoiceId, processorChargeId: `ch_${processorInvoiceId}`,
      subTotalCents: 1000, taxCents: 0, totalCents: 1000, currency: 'usd', status: 'paid', description: 'Gold', createdAt: T0, ...extra,
    });
    const receipt = (n: number) => mail('ann@example.com', { kind: 'receipt', subject: `Receipt ${n}` });

    const paid = await ctx.store.createInvoice(invoice('in_1'), [receipt(1), receipt(2)]);
    expect((await allMail()).map((m) => [m.kind, m.subject])).toEqual([['receipt', 'Receipt 1'], ['receipt', 'Receipt 2']]);

    await expectRejects(ctx.store.createInvoice(invoice('in_1'), [receipt(3)]), ConflictError, 'processorInvoiceId');
    await expectRejects(ctx.store.createInvoice(invoice('in_2', { memberId: ann + 1000 }), [receipt(4)]), MissingReferenceError, 'memberId');
    expect(await allMail()).toHaveLength(2);

    await expectRejects(ctx.store.createInvoice(invoice('in_3'), [mail('ann@example.com', { siteId: ctx.b.id + 1000 })]), MissingReferenceError, 'siteId');
    expect((await ctx.store.listInvoicesOfMember(ctx.a.id, ann)).map((i) => i.id)).toEqual([paid.id]);
    expect(await allMail()).toHaveLength(2);
    // The processor invoice id stayed free.
    expect((await ctx.store.createInvoice(invoice('in_3'))).processorInvoiceId).toBe('in_3');
    expect(await allMail()).toHaveLength(2);
  });

  // Mails that go once.

  test('queueMail: a mail with an onceKey the site used is not queued and answers the earlier id, sent or not, in one batch too; another site may use the key; mails without a key are never deduplicated', async () => {
    const key = 'endingSoon:7:1700000000000';
    const [first] = await ctx.store.queueMail([mail('ann@example.com', { kind: 'endingSoon', onceKey: key })]);
    expect(await ctx.store.getMail(first!)).toMatchObject({ onceKey: key, status: 'queued' });

    const [again, fresh] = await ctx.store.queueMail([
      mail('ann@example.com', { kind: 'endingSoon', onceKey: key, subject: 'Second try', createdAt: T0 + 5 }),
      mail('ann@example.com', { kind: 'endingSoon', onceKey: 'endingSoon:8:1700000000000' }),
    ]);
    expect(again).toBe(first);
    expect(fresh).toBeGreaterThan(first!);
    expect((await ctx.store.getMail(first!))?.subject).not.toBe('Second try');

    const [dup1, dup2] = await ctx.store.queueMail([mail('x@example.com', { onceKey: 'same-batch' }), mail('x@example.com', { onceKey: 'same-batch' })]);
    expect(dup2).toBe(dup1);

    const [otherSite] = await ctx.store.queueMail([mail('ann@example.com', { siteId: ctx.b.id, kind: 'endingSoon', onceKey: key })]);
    expect(otherSite).not.toBe(first);
    expect(await ctx.store.getMail(otherSite!)).toMatchObject({ siteId: ctx.b.id, onceKey: key });

    const [plain1, plain2] = await ctx.store.queueMail([mail('ann@example.com'), mail('ann@example.com')]);
    const [plain3] = await ctx.store.queueMail([mail('ann@example.com')]);
    expect(new Set([plain1, plain2, plain3]).size).toBe(3);
    expect(await ctx.store.getMail(plain1!)).not.toHaveProperty('onceKey');

    // Sent, and still not queued again.
    const claimed = await ctx.store.claimMail(T0 + 10, 100, LEASE);
    expect(claimed.find((m) => m.id === first)).toMatchObject({ onceKey: key });
    await ctx.store.finishMail(first!, { sent: T0 + 20 });
    expect(await ctx.store.queueMail([mail('ann@example.com', { onceKey: key, createdAt: T0 + 30 })])).toEqual([first]);
    expect((await allMail()).map((m) => m.id)).toEqual([first, fresh, dup1, otherSite, plain1, plain2, plain3]);
  });

  // A site's mail settings.

  test('SiteRecord.mail: createSite keeps it, getSite, getSiteBySubdomain and listSites read it; updateSite replaces it, leaves it when absent, clears it with null', async () => {
    const settings: SiteMailSettings = {
      fromName: 'Gamma Club',
      replyTo: 'help@gamma.org',
      requireConfirmedEmail: true,
      notices: { welcome: false, endingSoon: true },
    };
    const gamma = await ctx.store.createSite(newSite('gamma', { mail: settings }));
    expect(gamma.mail).toStrictEqual(settings);
    expect(await ctx.store.getSite(gamma.id)).toStrictEqual(gamma);
    expect(await ctx.store.getSiteBySubdomain('gamma')).toStrictEqual(gamma);
    expect((await ctx.store.listSites()).find((s) => s.id === gamma.id)).toStrictEqual(gamma);
    expect(await ctx.store.getSite(ctx.a.id)).not.toHaveProperty('mail');

    expect((await ctx.store.updateSite(gamma.id, { name: 'Gamma' }))?.mail).toStrictEqual(settings);
    const replaced = await ctx.store.updateSite(gamma.id, { mail: { requireConfirmedEmail: false } });
    expect(replaced?.mail).toStrictEqual({ requireConfirmedEmail: false });
    expect((await ctx.store.getSiteBySubdomain('gamma'))?.mail).toStrictEqual({ requireConfirmedEmail: false });

    const cleared = await ctx.store.updateSite(gamma.id, { mail: null });
    expect(cleared).not.toHaveProperty('mail');
    expect(cleared?.name).toBe('Gamma');
    expect(await ctx.store.getSite(gamma.id)).not.toHaveProperty('mail');
    expect((await ctx.store.listSites()).find((s) => s.id === gamma.id)).not.toHaveProperty('mail');

    expect((await ctx.store.updateSite(ctx.a.id, { mail: { fromName: 'Alpha' } }))?.mail).toStrictEqual({ fromName: 'Alpha' });
    expect((await ctx.store.getSite(ctx.a.id))?.mail).toStrictEqual({ fromName: 'Alpha' });
    expect(await ctx.store.getSite(ctx.b.id)).not.toHaveProperty('mail');
  });
}
