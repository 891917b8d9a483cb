/**
 * The notices billing queues for a member (issue 15, src/service/billing/notices.ts): a receipt
 * for each payment (plan sign-up and renewal), one word per missed payment however often it is
 * retried, and a reminder a week before a membership ends (cancelled at period end, or a plan
 * that expires); each off when the site's mail settings say so. Checked through the real code
 * paths: the member API over the mock-server fixtures, the billing run, the store's outbox.
 */
import { expect, test } from 'vitest';
import type { ConversionDetail, InvoiceSummary } from '../../src/contract/member';
import { ENDING_NOTICE_MS } from '../../src/service/billing/notices';
import { RETRY_AFTER_MS, runRenewals } from '../../src/service/billing/renewals';
import { definePlan } from '../../src/service/domain/plans';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import type { MailRecord, SiteMailSettings } from '../../src/service/store/records';
import { BASE, DAY, expectError, forEachStore, GRACE, HOUR, jsonOf, paymentWith, putCard, type MemberCtx } from '../member/support';

const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
/** Saved like any card; every charge on it is declined (docs/test-cards.md). */
const FAILS_ON_CHARGE = { ...GOOD, cardNumber: '4000 0000 0000 0341' };
const BILLING_KINDS = ['receipt', 'paymentFailed', 'endingSoon'];

const run = (ctx: MemberCtx) => runRenewals({ store: ctx.store, clock: ctx.now, processor: new TestPaymentProcessor({ clock: ctx.now, store: ctx.store }) });
/** A new sign-in each time: the clock moves by weeks here, past a session's idle life. */
const token = async (ctx: MemberCtx) => (await ctx.session(GRACE)).token;
/** A sign-up as the widget makes it: the card, when given, made a payment method first, and its id sent. */
const signUp = async (ctx: MemberCtx, planPublicId: string, card?: typeof GOOD) => {
  const session = await token(ctx);
  return ctx.authed(session, `${BASE}/memberships`, { method: 'POST', json: { planPublicId, ...(await paymentWith(ctx, session, card)) } });
};
const join = async (ctx: MemberCtx, planPublicId: string, card?: typeof GOOD) => jsonOf<ConversionDetail>(await signUp(ctx, planPublicId, card), 201);
const invoices = async (ctx: MemberCtx) => jsonOf<InvoiceSummary[]>(await ctx.authed(await token(ctx), `${BASE}/invoices`), 200);
const failedPayments = async (ctx: MemberCtx) =>
  (await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: ctx.demo.memberIds.grace }, { limit: 100 })).items.filter((e) => e.eventType === 'paymentFailed');

/** Every mail in the outbox, oldest first. */
async function outbox(ctx: MemberCtx): Promise<MailRecord[]> {
  const page = await ctx.store.listMail(undefined, { limit: 100 });
  expect(page.hasMore).toBe(false);
  return page.items;
}
/** The billing notices to Grace (of `kind` when given), oldest first. */
const notices = async (ctx: MemberCtx, kind?: string) =>
  (await outbox(ctx)).filter((m) => m.to === GRACE.email && BILLING_KINDS.includes(m.kind) && (kind === undefined || m.kind === kind));

const setMail = async (ctx: MemberCtx, mail: SiteMailSettings) => {
  expect(await ctx.store.updateSite(ctx.demo.site.id, { mail })).toBeDefined();
};
/** Grace on Monthly with the card given, cancelled at period end: answers the membership's id and its end. */
async function cancelledMonthly(ctx: MemberCtx, card = GOOD): Promise<{ id: number; endsAt: number }> {
  const { membership } = await join(ctx, 'monthly', card);
  const cancelled = await jsonOf<{ cancelsOn?: string }>(await ctx.authed(await token(ctx), `${BASE}/memberships/${membership.id}/cancel`, { method: 'POST' }), 200);
  const endsAt = Date.parse(membership.billingPeriodEnd!);
  expect(Date.parse(cancelled.cancelsOn!)).toBe(endsAt);
  return { id: membership.id, endsAt };
}
/** Moves the clock to `ms` before `at`. */
const toBefore = (ctx: MemberCtx, at: number, ms: number) => {
  expect(at - ms).toBeGreaterThan(ctx.now());
  ctx.advance(at - ms - ctx.now());
};

test('the reminder goes a week before the end', () => {
  expect(ENDING_NOTICE_MS).toBe(7 * DAY);
});

forEachStore((fresh) => {
  test('a paid plan sign-up queues one receipt: to the member, from the site’s name, naming the plan, the amount, the date, a link to the invoices', async () => {
    const ctx = await fresh();
    expect(await notices(ctx)).toEqual([]);
    const { order } = await join(ctx, 'lifetime', GOOD);
    expect(order.grandTotalCents).toBe(19900);
    const mails = await notices(ctx);
    expect(mails).toHaveLength(1);
    const [receipt] = mails as [MailRecord];
    expect(receipt).toMatchObject({
      siteId: ctx.demo.site.id, kind: 'receipt', to: GRACE.email, status: 'queued', subject: 'Your receipt from Demo Academy', fromName: 'Demo Academy',
    });
    // No reply-to unless the site sets one; a receipt needs no once-key (its invoice is written once).
    expect(receipt.replyTo).toBeUndefined();
    expect(receipt.onceKey).toBeUndefined();
    expect(receipt.text).toContain('Plan: Lifetime\n');
    expect(receipt.text).toContain('Amount: $199.00\n');
    expect(receipt.text).toContain('Date: November 1, 2026\n');
    expect(receipt.text).toContain('https://demo.localhost/?svcopen=/member/invoices\n');
    expect(receipt.html).toContain('Lifetime');
    expect(receipt.html).toContain('$199.00');
    expect(receipt.createdAt).toBe(ctx.now());
    // The invoice it is the receipt for.
    expect((await invoices(ctx)).map((i) => [i.description, i.status, i.totalCents])).toEqual([['Lifetime', 'paid', 19900]]);
  });

  test('a receipt on a German site is in German, with the amount and date as German writes them', async () => {
    const ctx = await fresh();
    expect(await ctx.store.updateSite(ctx.demo.site.id, { locale: 'de' })).toMatchObject({ locale: 'de' });
    await join(ctx, 'lifetime', GOOD);
    const [receipt, ...more] = await notices(ctx, 'receipt');
    expect(more).toEqual([]);
    expect(receipt!.subject).toBe('Ihr Zahlungsbeleg von Demo Academy');
    expect(receipt!.text).toContain('Vielen Dank für Ihre Zahlung an Demo Academy.');
    expect(receipt!.text).toContain('Tarif: Lifetime\n');
    expect(receipt!.text).toMatch(/Betrag: 199,00\s\$\n/);
    expect(receipt!.text).toContain('Datum: 1. November 2026\n');
    expect(receipt!.text).not.toContain('Amount');
  });

  test('the site’s mail settings name the sender and the reply-to address of a receipt', async () => {
    const ctx = await fresh();
    await setMail(ctx, { replyTo: 'help@demo.example' });
    await join(ctx, 'lifetime', GOOD);
    expect(await notices(ctx)).toEqual([expect.objectContaining({ kind: 'receipt', fromName: 'Demo Academy', replyTo: 'help@demo.example' })]);

    await setMail(ctx, { fromName: 'The Academy Team', replyTo: 'billing@demo.example' });
    await join(ctx, 'course3', GOOD);
    const last = (await notices(ctx)).at(-1)!;
    expect(last).toMatchObject({ kind: 'receipt', fromName: 'The Academy Team', replyTo: 'billing@demo.example' });
    expect(last.text).toContain('Plan: Course in three payments\n');
    expect(last.text).toContain('Amount: $60.00\n');
    // The words still name the site itself.
    expect(last.subject).toBe('Your receipt from Demo Academy');
  });

  test('a free plan sign-up queues no receipt', async () => {
    const ctx = await fresh();
    const { order } = await join(ctx, 'community');
    expect(order.grandTotalCents).toBe(0);
    expect(await notices(ctx)).toEqual([]);
    expect(await invoices(ctx)).toEqual([]);
  });

  test('a trial sign-up (nothing charged now) queues no receipt', async () => {
    const ctx = await fresh();
    const trial = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Trial monthly', type: 'subscription', isPublic: true,
      billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 14 },
    });
    expect((await join(ctx, trial.publicId, GOOD)).order.grandTotalCents).toBe(0);
    expect(await notices(ctx)).toEqual([]);
  });

  test('a declined first charge queues nothing: no receipt, no payment-failed notice (the failed invoice is there)', async () => {
    const ctx = await fresh();
    await expectError(await signUp(ctx, 'lifetime', FAILS_ON_CHARGE), 402, 'paymentDeclined');
    expect((await invoices(ctx)).map((i) => [i.description, i.status])).toEqual([['Lifetime', 'failed']]);
    expect(await notices(ctx)).toEqual([]);
  });

  test('a renewal that is paid queues a receipt for it', async () => {
    const ctx = await fresh();
    const { membership } = await join(ctx, 'monthly', GOOD);
    expect(await notices(ctx, 'receipt')).toHaveLength(1);
    expect(await run(ctx)).toMatchObject({ charged: 0 });
    expect(await notices(ctx, 'receipt')).toHaveLength(1);

    ctx.advance(Date.parse(membership.billingPeriodEnd!) - ctx.now() + 1);
    expect(await run(ctx)).toMatchObject({ charged: 1, failed: 0 });
    const receipts = await notices(ctx, 'receipt');
    expect(receipts).toHaveLength(2);
    expect(receipts[1]!.text).toContain('Plan: Monthly\n');
    expect(receipts[1]!.text).toContain('Amount: $12.00\n');
    expect(receipts[1]!.text).toContain('For: Monthly: renewal\n');
    expect(receipts[1]!.text).toContain('Date: December 1, 2026\n');
    expect(receipts[1]!.createdAt).toBe(ctx.now());
    expect(await notices(ctx, 'paymentFailed')).toEqual([]);
    // Paid for this period: a second run neither charges nor mails.
    expect(await run(ctx)).toMatchObject({ charged: 0 });
    expect(await notices(ctx, 'receipt')).toHaveLength(2);
  });

  test('a failed renewal queues one payment-failed notice; the retry a day later, failing again for the same due date, queues no second', async () => {
    const ctx = await fresh();
    const { membership } = await join(ctx, 'monthly', GOOD);
    expect((await putCard(ctx, await token(ctx), FAILS_ON_CHARGE)).status).toBe(200);
    const dueAt = Date.parse(membership.billingPeriodEnd!);
    ctx.advance(dueAt - ctx.now() + 1);
    expect(await run(ctx)).toMatchObject({ charged: 0, failed: 1 });

    const failed = await notices(ctx, 'paymentFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      to: GRACE.email, fromName: 'Demo Academy', subject: 'Your payment for Monthly on Demo Academy failed',
      onceKey: `paymentFailed:${membership.id}:${dueAt}`, createdAt: ctx.now(),
    });
    expect(failed[0]!.text).toContain('$12.00');
    expect(failed[0]!.text).toContain('https://demo.localhost/?svcopen=/member/payment_method/update\n');
    expect(failed[0]!.text).toContain('Please update your card with this link:');
    // Only the sign-up's receipt: a failed charge is no payment.
    expect(await notices(ctx, 'receipt')).toHaveLength(1);

    ctx.advance(RETRY_AFTER_MS);
    expect(await run(ctx)).toMatchObject({ failed: 1 });
    expect((await failedPayments(ctx)).map((e) => e.details.attempt)).toEqual([1, 2]);
    expect((await invoices(ctx)).map((i) => [i.description, i.status])).toEqual([
      ['Monthly: renewal', 'failed'],
      ['Monthly: renewal', 'failed'],
      ['Monthly', 'paid'],
    ]);
    expect(await notices(ctx, 'paymentFailed')).toHaveLength(1);
    expect(await notices(ctx)).toHaveLength(2);
  });

  test('a renewal its bank held for the member (3220, authentication_required): the notice asks them to confirm the payment, on the screen that offers "Pay now"', async () => {
    const ctx = await fresh();
    const { membership } = await join(ctx, 'monthly', GOOD);
    expect((await putCard(ctx, await token(ctx), { ...GOOD, cardNumber: '4000 0000 0000 3220' })).status).toBe(200);
    ctx.advance(Date.parse(membership.billingPeriodEnd!) - ctx.now() + 1);
    expect(await run(ctx)).toMatchObject({ failed: 1 });
    const [held] = await notices(ctx, 'paymentFailed');
    expect(held!.text).toContain('Your bank asks you to confirm the payment. Confirm it with this link:');
    expect(held!.text).toContain('https://demo.localhost/?svcopen=/member/payment_method/update\n');
    expect(held!.text).not.toContain('update your card');
  });

  test('a good card saved after a failed renewal is charged at once and queues its receipt', async () => {
    const ctx = await fresh();
    const { membership } = await join(ctx, 'monthly', GOOD);
    expect((await putCard(ctx, await token(ctx), FAILS_ON_CHARGE)).status).toBe(200);
    ctx.advance(Date.parse(membership.billingPeriodEnd!) - ctx.now() + 1);
    await run(ctx);
    expect((await putCard(ctx, await token(ctx), GOOD)).status).toBe(200);
    expect((await notices(ctx)).map((m) => m.kind)).toEqual(['receipt', 'paymentFailed', 'receipt']);
    expect((await notices(ctx)).at(-1)!.text).toContain('For: Monthly: renewal\n');
  });

  test('a subscription cancelled at period end: no reminder 8 days before, one within the week, none again on later runs', async () => {
    const ctx = await fresh();
    const { id, endsAt } = await cancelledMonthly(ctx);
    expect(await run(ctx)).toMatchObject({ errors: 0 });
    toBefore(ctx, endsAt, 8 * DAY);
    expect(await run(ctx)).toMatchObject({ errors: 0 });
    expect(await notices(ctx, 'endingSoon')).toEqual([]);

    toBefore(ctx, endsAt, 6 * DAY);
    expect(await run(ctx)).toMatchObject({ errors: 0, ended: 0 });
    const reminders = await notices(ctx, 'endingSoon');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({
      to: GRACE.email, fromName: 'Demo Academy', onceKey: `endingSoon:${id}:${endsAt}`, createdAt: ctx.now(),
      subject: 'Your Monthly membership on Demo Academy ends on December 1, 2026',
    });
    expect(reminders[0]!.text).toContain('https://demo.localhost/?svcopen=/member/plans/all\n');

    // The same run again, later runs that week, and the run that ends it: no second reminder.
    expect(await run(ctx)).toMatchObject({ errors: 0 });
    ctx.advance(HOUR);
    expect(await run(ctx)).toMatchObject({ errors: 0 });
    ctx.advance(3 * DAY);
    expect(await run(ctx)).toMatchObject({ errors: 0 });
    ctx.advance(endsAt - ctx.now() + 1);
    expect(await run(ctx)).toMatchObject({ ended: 1, charged: 0 });
    expect(await notices(ctx, 'endingSoon')).toHaveLength(1);
    expect(await notices(ctx)).toHaveLength(2); // the sign-up's receipt and the reminder
  });

  test('a membership that ends in 8 days gets no reminder yet; two days later it does', async () => {
    const ctx = await fresh();
    const { endsAt } = await cancelledMonthly(ctx);
    toBefore(ctx, endsAt, 8 * DAY);
    await run(ctx);
    ctx.advance(23 * HOUR); // 7 days and an hour before: still outside the week
    await run(ctx);
    expect(await notices(ctx, 'endingSoon')).toEqual([]);
    ctx.advance(25 * HOUR);
    await run(ctx);
    expect(await notices(ctx, 'endingSoon')).toHaveLength(1);
  });

  test('a free plan that expires within the week gets one reminder, naming its end date', async () => {
    const ctx = await fresh();
    const expiresAt = Date.parse('2026-11-06T12:00:00Z'); // 5 days after the fixtures' now
    const plan = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Open week', type: 'free', isPublic: true, expiration: { mode: 'specificTime', expiresAt: new Date(expiresAt).toISOString() },
    });
    const { membership } = await join(ctx, plan.publicId);
    expect(Date.parse(membership.expiresOn!)).toBe(expiresAt);
    await run(ctx);
    const reminders = await notices(ctx, 'endingSoon');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ onceKey: `endingSoon:${membership.id}:${expiresAt}`, subject: 'Your Open week membership on Demo Academy ends on November 6, 2026' });
    ctx.advance(DAY);
    await run(ctx);
    expect(await notices(ctx, 'endingSoon')).toHaveLength(1);
  });

  test('a one-time plan that expires: no reminder while the end is more than a week off, one within the week, in the site’s language', async () => {
    const ctx = await fresh();
    expect(await ctx.store.updateSite(ctx.demo.site.id, { locale: 'de' })).toBeDefined();
    const plan = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Zehn Tage', type: 'oneTimePayment', isPublic: true, expiration: { mode: 'interval', count: 10, unit: 'day' },
      billing: { price: 5, currency: 'usd' },
    });
    const { membership } = await join(ctx, plan.publicId, GOOD);
    const expiresAt = Date.parse(membership.expiresOn!);
    expect(expiresAt).toBe(ctx.now() + 10 * DAY);
    await run(ctx);
    expect(await notices(ctx, 'endingSoon')).toEqual([]);
    toBefore(ctx, expiresAt, 6 * DAY);
    await run(ctx);
    const reminders = await notices(ctx, 'endingSoon');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ onceKey: `endingSoon:${membership.id}:${expiresAt}`, subject: 'Ihre Mitgliedschaft Zehn Tage bei Demo Academy endet am 11. November 2026' });
    ctx.advance(7 * DAY); // past its end: expired, and told nothing more
    expect(await run(ctx)).toMatchObject({ expired: 1 });
    expect(await notices(ctx, 'endingSoon')).toHaveLength(1);
  });

  test('the site’s mail settings turn each notice off; invoices, events and the membership’s end are written all the same', async () => {
    const ctx = await fresh();
    await setMail(ctx, { notices: { receipt: false, paymentFailed: false, endingSoon: false } });
    expect((await ctx.store.getSite(ctx.demo.site.id))!.mail).toEqual({ notices: { receipt: false, paymentFailed: false, endingSoon: false } });

    // Sign-up: paid, invoiced, no receipt.
    await join(ctx, 'lifetime', GOOD);
    const { membership } = await join(ctx, 'monthly');
    expect((await invoices(ctx)).map((i) => [i.description, i.status])).toEqual([['Monthly', 'paid'], ['Lifetime', 'paid']]);

    // Renewal paid: invoiced, no receipt.
    ctx.advance(Date.parse(membership.billingPeriodEnd!) - ctx.now() + 1);
    expect(await run(ctx)).toMatchObject({ charged: 1 });
    expect((await invoices(ctx))[0]).toMatchObject({ description: 'Monthly: renewal', status: 'paid' });

    // Cancelled at period end, three days before it: no reminder; it ends all the same.
    const cancelled = await jsonOf<{ cancelsOn?: string }>(await ctx.authed(await token(ctx), `${BASE}/memberships/${membership.id}/cancel`, { method: 'POST' }), 200);
    const endsAt = Date.parse(cancelled.cancelsOn!);
    toBefore(ctx, endsAt, 3 * DAY);
    expect(await run(ctx)).toMatchObject({ errors: 0, ended: 0 });

    // An instalment that fails: the failed invoice and the event, no notice.
    const { membership: course } = await join(ctx, 'course3');
    expect((await putCard(ctx, await token(ctx), FAILS_ON_CHARGE)).status).toBe(200);
    ctx.advance(Date.parse(course.billingPeriodEnd!) - ctx.now() + 1);
    expect(await run(ctx)).toMatchObject({ failed: 1, ended: 1, errors: 0 });
    expect((await invoices(ctx))[0]).toMatchObject({ description: 'Course in three payments: payment 2 of 3', status: 'failed' });
    expect(await failedPayments(ctx)).toHaveLength(1);
    const ended = (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, ctx.demo.memberIds.grace!)).find((m) => m.id === membership.id);
    expect(ended?.status).toBe('cancelled');

    expect(await notices(ctx)).toEqual([]);
  });

  test('one notice turned off leaves the others on', async () => {
    const ctx = await fresh();
    await setMail(ctx, { notices: { receipt: false } });
    const { membership } = await join(ctx, 'monthly', GOOD);
    expect((await putCard(ctx, await token(ctx), FAILS_ON_CHARGE)).status).toBe(200);
    ctx.advance(Date.parse(membership.billingPeriodEnd!) - ctx.now() + 1);
    expect(await run(ctx)).toMatchObject({ failed: 1 });
    expect((await notices(ctx)).map((m) => m.kind)).toEqual(['paymentFailed']);

    // On again (the block removed): the next payment has its receipt.
    expect(await ctx.store.updateSite(ctx.demo.site.id, { mail: null })).toBeDefined();
    expect((await ctx.store.getSite(ctx.demo.site.id))!.mail).toBeUndefined();
    expect((await putCard(ctx, await token(ctx), GOOD)).status).toBe(200);
    expect((await notices(ctx)).map((m) => m.kind)).toEqual(['paymentFailed', 'receipt']);
  });
});
