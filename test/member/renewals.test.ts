/**
 * The charges after sign-up (src/service/billing/renewals.ts, decision 0015): subscription
 * renewals, multi-payment instalments, failed payments retried a day apart and ended after the
 * last attempt, a new card retried at once, and cancelling at period end. The run uses a new
 * test processor, as `svc billing run` or a restarted `svc serve` would.
 */
import { expect, test } from 'vitest';
import type { ContentItem, ConversionDetail, InvoiceSummary, MemberInfo } from '../../src/contract/member';
import { MAX_ATTEMPTS, RETRY_AFTER_MS, runRenewals } from '../../src/service/billing/renewals';
import { sha256Hex } from '../../src/service/crypto/digests';
import { definePlan } from '../../src/service/domain/plans';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { BASE, DAY, expectError, forEachStore, GRACE, HOUR, jsonOf, putCard, testCard, type MemberCtx } from './support';

const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
/** Saved like any card; every charge on it is declined (docs/test-cards.md). 0002 would be refused as it is saved. */
const FAILS_ON_CHARGE = { ...GOOD, cardNumber: '4000 0000 0000 0341' };

const run = (ctx: MemberCtx) => runRenewals({ store: ctx.store, clock: ctx.now, processor: new TestPaymentProcessor({ clock: ctx.now, store: ctx.store }) });
const join = async (ctx: MemberCtx, token: string, planPublicId: string, card = GOOD) =>
  jsonOf<ConversionDetail>(
    await ctx.authed(token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId, paymentMethodId: await testCard(ctx, token, card) } }),
    201,
  );
/** A new sign-in each time: the clock moves by months here, past any session's life. */
const graceToken = async (ctx: MemberCtx) => (await ctx.session(GRACE)).token;
const membership = async (ctx: MemberCtx, id: number) =>
  (await jsonOf<MemberInfo>(await ctx.authed(await graceToken(ctx), `${BASE}/me`), 200)).memberships.find((m) => m.id === id)!;
const invoices = async (ctx: MemberCtx) => jsonOf<InvoiceSummary[]>(await ctx.authed(await graceToken(ctx), `${BASE}/invoices`), 200);
const eventsOf = async (ctx: MemberCtx, type: string) =>
  (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: ctx.demo.memberIds.grace }, { limit: 100 })).items.filter((e) => e.eventType === type);
const untilDue = (ctx: MemberCtx, iso: string) => ctx.advance(Date.parse(iso) - ctx.now() + 1);

forEachStore((fresh) => {
  test('a subscription renews when its period ends: charged on the saved card, a paid invoice, the next period end one interval on', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'monthly');
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 0 }); // not due yet
    const firstEnd = joined.billingPeriodEnd!;
    untilDue(ctx, firstEnd);
    expect(await run(ctx)).toMatchObject({ charged: 1, failed: 0, ended: 0 });
    const renewed = await membership(ctx, joined.id);
    expect(renewed).toMatchObject({ status: 'active', paymentFailure: false });
    const next = new Date(firstEnd);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect(renewed.billingPeriodEnd).toBe(next.toISOString());
    expect((await invoices(ctx)).map((i) => [i.description, i.status, i.totalCents])).toEqual([
      ['Monthly: renewal', 'paid', 1200],
      ['Monthly', 'paid', 1200],
    ]);
    expect(await run(ctx)).toMatchObject({ charged: 0 }); // paid for this period: not charged twice
  });

  test('two runs at once (the timer, and a member saving a card) charge a due renewal once', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'monthly');
    untilDue(ctx, joined.billingPeriodEnd!);
    const [a, b] = await Promise.all([run(ctx), run(ctx)]);
    expect(a.charged + b.charged).toBe(1);
    expect((await invoices(ctx)).map((i) => i.description)).toEqual(['Monthly: renewal', 'Monthly']);
  });

  test('a multi-payment plan takes one instalment per interval until paid off, then bills no more', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'course3');
    untilDue(ctx, joined.billingPeriodEnd!);
    expect(await run(ctx)).toMatchObject({ charged: 1 });
    const second = await membership(ctx, joined.id);
    untilDue(ctx, second.billingPeriodEnd!);
    expect(await run(ctx)).toMatchObject({ charged: 1 });
    const paidOff = await membership(ctx, joined.id);
    expect(paidOff.billingPeriodEnd).toBeUndefined();
    expect(paidOff.status).toBe('active');
    ctx.advance(60 * DAY);
    expect(await run(ctx)).toMatchObject({ charged: 0 });
    expect((await invoices(ctx)).map((i) => i.description)).toEqual([
      'Course in three payments: payment 3 of 3',
      'Course in three payments: payment 2 of 3',
      'Course in three payments',
    ]);
    const records = await ctx.store.listMembershipsOfMember(ctx.demo.site.id, ctx.demo.memberIds.grace!);
    expect(records.find((m) => m.id === joined.id)?.paymentsMade).toBe(3);
  });

  test('a declined renewal: paymentFailure, a failed invoice and a paymentFailed event; retried a day later; ended after the last attempt', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'monthly');
    expect((await putCard(ctx, token, FAILS_ON_CHARGE)).status).toBe(200);
    untilDue(ctx, joined.billingPeriodEnd!);
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 1, ended: 0 });
    expect(await membership(ctx, joined.id)).toMatchObject({ status: 'active', paymentFailure: true, billingPeriodEnd: joined.billingPeriodEnd });
    const [failure] = await eventsOf(ctx, 'paymentFailed');
    expect(failure!.details).toStrictEqual({
      planId: ctx.demo.planIds.monthly, membershipId: joined.id, amount: '$12.00', reason: 'card_declined', attempt: 1,
      chargeId: expect.stringMatching(/^ch_test_/), invoiceId: expect.stringMatching(/^in_test_/),
    });
    expect((await invoices(ctx))[0]).toMatchObject({ id: failure!.details.invoiceId, status: 'failed', description: 'Monthly: renewal' });

    ctx.advance(RETRY_AFTER_MS - HOUR);
    expect(await run(ctx)).toMatchObject({ failed: 0, waiting: 1 });
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      ctx.advance(RETRY_AFTER_MS);
      expect(await run(ctx)).toMatchObject({ failed: 1, ended: attempt === MAX_ATTEMPTS ? 1 : 0 });
    }
    const ended = await membership(ctx, joined.id);
    expect(ended).toMatchObject({ status: 'cancelled', paymentFailure: true });
    expect(ended.billingPeriodEnd).toBeUndefined();
    expect((await eventsOf(ctx, 'paymentFailed')).map((e) => e.details.attempt)).toEqual([1, 2, 3, 4]);
    expect((await eventsOf(ctx, 'cancellation')).at(-1)?.details).toEqual({ planId: ctx.demo.planIds.monthly, reason: 'paymentFailed' });
    ctx.advance(30 * DAY);
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 0 });
  });

  test('a trial plan with 0341 (saved, declined when charged): 201 with nothing charged; at the trial’s end the run’s charge fails: paymentFailure, a failed invoice, a paymentFailed event', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const trial = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Trial monthly', type: 'subscription', isPublic: true,
      billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 14 },
    });
    const { membership: joined, order } = await join(ctx, token, trial.publicId, FAILS_ON_CHARGE);
    expect(order.grandTotalCents).toBe(0);
    expect(joined).toMatchObject({ status: 'active', paymentFailure: false, billingPeriodEnd: new Date(ctx.now() + 14 * DAY).toISOString() });
    expect(await invoices(ctx)).toEqual([]);
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 0 }); // still in the trial

    untilDue(ctx, joined.billingPeriodEnd!);
    // A new processor, as `svc billing run` has: the card's id alone says its charges fail.
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 1, ended: 0 });
    expect(await membership(ctx, joined.id)).toMatchObject({ status: 'active', paymentFailure: true, billingPeriodEnd: joined.billingPeriodEnd });
    const [failure] = await eventsOf(ctx, 'paymentFailed');
    expect(failure!.details).toStrictEqual({
      planId: trial.id, membershipId: joined.id, amount: '$12.00', reason: 'card_declined', attempt: 1,
      chargeId: expect.stringMatching(/^ch_test_/), invoiceId: expect.stringMatching(/^in_test_/),
    });
    expect((await invoices(ctx)).map((i) => [i.id, i.description, i.status, i.totalCents])).toEqual([
      // The charge that ends the trial is its first payment, not a renewal.
      [failure!.details.invoiceId, 'Trial monthly: first payment', 'failed', 1200],
    ]);
  });

  test('saving a new card after a failed payment charges it at once and clears paymentFailure', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'monthly');
    expect((await putCard(ctx, token, FAILS_ON_CHARGE)).status).toBe(200);
    untilDue(ctx, joined.billingPeriodEnd!);
    await run(ctx);
    expect((await membership(ctx, joined.id)).paymentFailure).toBe(true);
    expect((await putCard(ctx, await graceToken(ctx), GOOD)).status).toBe(200);
    const after = await membership(ctx, joined.id);
    expect(after.paymentFailure).toBe(false);
    expect(Date.parse(after.billingPeriodEnd!)).toBeGreaterThan(ctx.now());
    expect((await invoices(ctx)).map((i) => i.status)).toEqual(['paid', 'failed', 'paid']);
  });

  test('a subscription cancelled at period end is not charged and ends then, closing its content', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'monthly');
    await jsonOf(await ctx.authed(token, `${BASE}/memberships/${joined.id}/cancel`, { method: 'POST' }), 200);
    await jsonOf<ContentItem>(await ctx.authed(token, `${BASE}/content/${ctx.demo.contentIds.interview}`), 200);
    untilDue(ctx, joined.billingPeriodEnd!);
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 0, ended: 1 });
    expect((await membership(ctx, joined.id)).status).toBe('cancelled');
    expect((await invoices(ctx))).toHaveLength(1);
    await expectError(await ctx.authed(await graceToken(ctx), `${BASE}/content/${ctx.demo.contentIds.interview}`), 403, 'noAccess');
  });

  test('a membership whose expiry date has come is stored expired (the Admin API reads the store) and is not charged any more', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'course3');
    ctx.advance(400 * DAY); // past the plan's one-year access, with two instalments never taken
    expect(await run(ctx)).toMatchObject({ expired: 1, charged: 0, failed: 0 });
    const stored = (await ctx.store.listMemberships(ctx.demo.site.id, { memberId: ctx.demo.memberIds.grace }, { limit: 10 })).items;
    expect(stored.find((m) => m.id === joined.id)).toMatchObject({ status: 'expired' });
    expect(stored.find((m) => m.id === joined.id)?.billingPeriodEnd).toBeUndefined();
    expect(await run(ctx)).toMatchObject({ expired: 0, charged: 0 });
  });

  test('memberships of members who never paid here (no processor customer) are left alone', async () => {
    const ctx = await fresh();
    // Ada's Monthly comes from the fixtures: due in 20 days, no customer, no card.
    ctx.advance(21 * DAY);
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 0, ended: 0, errors: 0 });
    const ada = await ctx.store.listMembershipsOfMember(ctx.demo.site.id, ctx.demo.memberIds.ada!);
    expect(ada.every((m) => m.status === 'active' && !m.paymentFailure)).toBe(true);
  });

  test('the run deletes expired sessions, signed-out ones included once they would have expired, and says how many', async () => {
    const ctx = await fresh();
    expect(await run(ctx)).toMatchObject({ sessionsDeleted: 0 });
    const old = await ctx.session(GRACE);
    const signedOut = await ctx.session(GRACE);
    expect((await ctx.authed(signedOut.token, `${BASE}/sessions/current`, { method: 'DELETE' })).status).toBe(204);
    ctx.advance(6 * DAY);
    const recent = await ctx.session(GRACE);
    expect(await run(ctx)).toMatchObject({ sessionsDeleted: 0, errors: 0 }); // none has expired yet
    ctx.advance(2 * DAY); // the first two are 8 days old: past their 7 idle days
    expect(await run(ctx)).toMatchObject({ sessionsDeleted: 2, errors: 0 });
    await expectError(await ctx.authed(old.token, `${BASE}/me`), 401, 'unauthenticated');
    expect((await ctx.authed(recent.token, `${BASE}/me`)).status).toBe(200);
    expect(await ctx.store.findSessionByHash(sha256Hex(old.token))).toBeUndefined();
    expect(await run(ctx)).toMatchObject({ sessionsDeleted: 0 });
  });

  test('a failing session sweep is counted and reported, and billing still runs', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const { membership: joined } = await join(ctx, token, 'monthly');
    untilDue(ctx, joined.billingPeriodEnd!);
    const failing = new Proxy(ctx.store, {
      get: (target, name, receiver) =>
        name === 'deleteExpiredSessions' ? () => Promise.reject(new Error('disk full')) : Reflect.get(target, name, receiver),
    });
    const errors: unknown[] = [];
    const report = await runRenewals({ store: failing, clock: ctx.now, processor: new TestPaymentProcessor({ clock: ctx.now, store: ctx.store }) }, (error) => errors.push(error));
    expect(report).toMatchObject({ charged: 1, errors: 1, sessionsDeleted: 0 });
    expect(errors).toEqual([expect.objectContaining({ message: 'disk full' })]);
  });

  test('a cancel at period end ends an imported member’s subscription too, though billing leaves it alone', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session({ email: 'ada@demo.localhost', password: 'demo-password' });
    const monthly = (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, ctx.demo.memberIds.ada!)).find((m) => m.planId === ctx.demo.planIds.monthly)!;
    await jsonOf(await ctx.authed(token, `${BASE}/memberships/${monthly.id}/cancel`, { method: 'POST' }), 200);
    ctx.advance(21 * DAY);
    expect(await run(ctx)).toMatchObject({ ended: 1, charged: 0, failed: 0 });
    const after = (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, ctx.demo.memberIds.ada!)).find((m) => m.id === monthly.id);
    expect(after).toMatchObject({ status: 'cancelled' });
    expect(after?.billingPeriodEnd).toBeUndefined();
  });
});
