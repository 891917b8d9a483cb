/**
 * Contract: the mail outbox (issue 15). Mails are queued in batches, all or none; a sender claims
 * due mails for a lease (no other claim returns them meanwhile, and a sender that dies leaves
 * them due again when the lease ends); each claim is an attempt; an attempt ends sent, due again
 * later, or given up, and a finished mail is never claimed again. Counts by recipient and site
 * serve the send limits.
 */
import { expect, test } from 'vitest';
import { MissingReferenceError } from '../../src/service/store/errors';
import type { NewMail } from '../../src/service/store/records';
import { type Ctx, T0, expectKeysetPaging, expectRejects } from './fixtures';

const mail = (siteId: number, to: string, overrides: Partial<NewMail> = {}): NewMail => ({
  siteId,
  kind: 'passwordReset',
  to,
  subject: 'Reset your password',
  text: 'Open https://shop.example/?svcopen=/member/reset/abc to choose a new password.',
  createdAt: T0,
  ...overrides,
});
const LEASE = 60_000;

export function outboxTests(ctx: Ctx): void {
  test('queueMail: ids in input order; the mail reads back as queued, with every field kept and none invented', async () => {
    const [plain, rich] = await ctx.store.queueMail([
      mail(ctx.a.id, 'ann@example.com'),
      mail(ctx.a.id, 'bob@example.com', { html: '<p>Hello</p>', fromName: 'Shop', replyTo: 'help@shop.example', kind: 'welcome', createdAt: T0 + 5 }),
    ]);
    expect(rich).toBe(plain! + 1);
    expect(await ctx.store.getMail(plain!)).toEqual({ ...mail(ctx.a.id, 'ann@example.com'), id: plain, status: 'queued', attempts: 0, nextAttemptAt: T0 });
    expect(await ctx.store.getMail(rich!)).toMatchObject({ html: '<p>Hello</p>', fromName: 'Shop', replyTo: 'help@shop.example', kind: 'welcome', nextAttemptAt: T0 + 5 });
    expect(await ctx.store.getMail(rich! + 100)).toBeUndefined();
    expect(await ctx.store.queueMail([])).toEqual([]);
  });

  test('queueMail: a mail for an unknown site rejects the batch, and nothing is queued', async () => {
    await expectRejects(ctx.store.queueMail([mail(ctx.a.id, 'ann@example.com'), mail(999_999, 'x@example.com')]), MissingReferenceError, 'siteId');
    expect((await ctx.store.listMail(undefined, { limit: 10 })).items).toEqual([]);
  });

  test('claimMail: due mails only, oldest first, up to the limit; each claim is an attempt; a claimed mail is not claimed again during its lease', async () => {
    const [first, second, later] = await ctx.store.queueMail([
      mail(ctx.a.id, 'a@example.com', { createdAt: T0 }),
      mail(ctx.b.id, 'b@example.com', { createdAt: T0 + 1 }),
      mail(ctx.a.id, 'c@example.com', { createdAt: T0 + 10_000 }),
    ]);
    const claimed = await ctx.store.claimMail(T0 + 1, 5, LEASE);
    expect(claimed.map((m) => [m.id, m.attempts, m.nextAttemptAt])).toEqual([[first, 1, T0 + 1 + LEASE], [second, 1, T0 + 1 + LEASE]]);
    // Another sender, a moment later: only what has come due since.
    expect((await ctx.store.claimMail(T0 + 20_000, 5, LEASE)).map((m) => m.id)).toEqual([later]);
    expect(await ctx.store.claimMail(T0 + 30_000, 5, LEASE)).toEqual([]);
    // The limit.
    await ctx.store.queueMail([mail(ctx.a.id, 'd@example.com'), mail(ctx.a.id, 'e@example.com'), mail(ctx.a.id, 'f@example.com')]);
    expect(await ctx.store.claimMail(T0 + 30_000, 2, LEASE)).toHaveLength(2);
    expect(await ctx.store.claimMail(T0 + 30_000, 2, LEASE)).toHaveLength(1);
  });

  test('a sender that dies mid-send: when the lease ends the mail is due again, as a second attempt', async () => {
    const [id] = await ctx.store.queueMail([mail(ctx.a.id, 'ann@example.com')]);
    await ctx.store.claimMail(T0, 1, LEASE);
    expect(await ctx.store.claimMail(T0 + LEASE - 1, 1, LEASE)).toEqual([]);
    const again = await ctx.store.claimMail(T0 + LEASE, 1, LEASE);
    expect(again.map((m) => [m.id, m.attempts])).toEqual([[id, 2]]);
  });

  test('finishMail: sent is final; a retry is due at its time with the error kept; given up is final; a finished mail cannot be finished again', async () => {
    const [sent, retried, failed] = await ctx.store.queueMail([mail(ctx.a.id, 'a@example.com'), mail(ctx.a.id, 'b@example.com'), mail(ctx.a.id, 'c@example.com')]);
    await ctx.store.claimMail(T0, 10, LEASE);
    expect(await ctx.store.finishMail(sent!, { sent: T0 + 100 })).toBe(true);
    expect(await ctx.store.finishMail(retried!, { retryAt: T0 + 5_000, error: '451 try again later' })).toBe(true);
    expect(await ctx.store.finishMail(failed!, { failedAt: T0 + 100, error: '550 no such user' })).toBe(true);
    expect(await ctx.store.getMail(sent!)).toMatchObject({ status: 'sent', sentAt: T0 + 100, attempts: 1 });
    expect((await ctx.store.getMail(sent!))!.lastError).toBeUndefined();
    expect(await ctx.store.getMail(retried!)).toMatchObject({ status: 'queued', nextAttemptAt: T0 + 5_000, lastError: '451 try again later' });
    expect(await ctx.store.getMail(failed!)).toMatchObject({ status: 'failed', lastError: '550 no such user' });
    // Only the retried one comes back, at its time.
    expect(await ctx.store.claimMail(T0 + 4_999, 10, LEASE)).toEqual([]);
    expect((await ctx.store.claimMail(T0 + 5_000, 10, LEASE)).map((m) => [m.id, m.attempts])).toEqual([[retried, 2]]);
    expect(await ctx.store.finishMail(retried!, { sent: T0 + 5_001 })).toBe(true);
    // Sent and given up: never due again.
    expect(await ctx.store.claimMail(T0 + 10 * LEASE, 10, LEASE)).toEqual([]);
    expect(await ctx.store.finishMail(sent!, { failedAt: T0, error: 'late' })).toBe(false);
    expect(await ctx.store.finishMail(failed!, { sent: T0 })).toBe(false);
    expect(await ctx.store.finishMail(retried! + 100, { sent: T0 })).toBe(false);
    expect(await ctx.store.getMail(sent!)).toMatchObject({ status: 'sent' });
  });

  test('countMail: by site and recipient since a time, whatever became of them; by site alone without a recipient', async () => {
    const [one] = await ctx.store.queueMail([
      mail(ctx.a.id, 'ann@example.com', { createdAt: T0 }),
      mail(ctx.a.id, 'ann@example.com', { createdAt: T0 + 1_000 }),
      mail(ctx.a.id, 'bob@example.com', { createdAt: T0 + 1_000 }),
      mail(ctx.b.id, 'ann@example.com', { createdAt: T0 + 1_000 }),
    ]);
    await ctx.store.claimMail(T0, 1, LEASE);
    await ctx.store.finishMail(one!, { sent: T0 });
    expect(await ctx.store.countMail(ctx.a.id, T0, 'ann@example.com')).toBe(2);
    expect(await ctx.store.countMail(ctx.a.id, T0 + 1, 'ann@example.com')).toBe(1);
    expect(await ctx.store.countMail(ctx.a.id, T0 + 1)).toBe(2);
    expect(await ctx.store.countMail(ctx.b.id, T0)).toBe(1);
    expect(await ctx.store.countMail(ctx.b.id, T0, 'bob@example.com')).toBe(0);
  });

  test('listMail: every site\'s mail in id order, narrowed by status, in keyset pages', async () => {
    const ids = await ctx.store.queueMail([1, 2, 3, 4].map((n) => mail(n % 2 ? ctx.a.id : ctx.b.id, `m${n}@example.com`)));
    await expectKeysetPaging((page) => ctx.store.listMail(undefined, page), ids);
    await ctx.store.claimMail(T0, 1, LEASE);
    await ctx.store.finishMail(ids[0]!, { sent: T0 });
    expect((await ctx.store.listMail('sent', { limit: 10 })).items.map((m) => m.id)).toEqual([ids[0]]);
    expect((await ctx.store.listMail('queued', { limit: 10 })).items.map((m) => m.id)).toEqual(ids.slice(1));
    expect((await ctx.store.listMail('failed', { limit: 10 })).items).toEqual([]);
  });
}
