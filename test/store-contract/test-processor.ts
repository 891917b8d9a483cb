/**
 * Contract: payments state every process shares (issue 26, decision 0029). A plan sign-up's claim
 * has one holder at a time, however many ask at once, and lapses when its holder never gives it
 * back. The built-in test processor's records (customers, cards, charges) read back as written,
 * in order, and a charge's idempotency key names one charge while it is kept, however many
 * callers record it at once; a new processor over the same store knows all of it. An intent (a
 * payment waiting for the member's authorization) reads back as recorded, keys as a charge's, and
 * is settled once, however many answers arrive at once.
 */
import { expect, test } from 'vitest';
import { claimPlanSignUp, SIGN_UP_CLAIM_MS } from '../../src/service/member/plan-signup';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { ConflictError } from '../../src/service/store/errors';
import type { TestProcessorCard, TestProcessorCharge, TestProcessorIntent } from '../../src/service/store/records';
import { type Ctx, T0, expectRejects } from './fixtures';

const DAY = 86_400_000;

const card = (id: string, customerId: string, more: Partial<TestProcessorCard> = {}): TestProcessorCard => ({
  id, customerId, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, createdAt: T0, ...more,
});
const charge = (n: number, more: Partial<TestProcessorCharge> = {}): TestProcessorCharge => ({
  invoiceId: `in_test_${n}`, chargeId: `ch_test_${n}`, customerId: 'cus_test_ann', cardId: 'pm_test_ok_1', amountCents: 1200 + n,
  currency: 'usd', description: 'Monthly', status: 'paid', createdAt: T0, ...more,
});
const intent = (n: number, more: Partial<TestProcessorIntent> = {}): TestProcessorIntent => ({
  id: `pi_test_${n}`, clientSecret: `pi_test_${n}_secret_${'x'.repeat(n % 5)}z`, customerId: 'cus_test_ann', cardId: 'pm_test_3ds_1',
  amountCents: 1200 + n, currency: 'eur', description: `Monthly ${n}`, metadata: { site: '1', member: `${n}`, plan: 'gold' },
  status: 'requiresAction', createdAt: T0 + n, ...more,
});

export function testProcessorTests(ctx: Ctx): void {
  test('claimPlanSignUp: 10 claims of one sign-up at once, exactly one wins; released, the next may claim; others\' sign-ups are apart', async () => {
    const signUp = { siteId: ctx.a.id, memberId: 7, planId: 3 };
    const claims = await Promise.all(Array.from({ length: 10 }, () => claimPlanSignUp(ctx.store, signUp, T0)));
    const won = claims.filter((release) => release !== undefined);
    expect(won).toHaveLength(1);
    // Another member's, another plan's, another site's sign-up is not held by it.
    for (const other of [{ ...signUp, memberId: 8 }, { ...signUp, planId: 4 }, { ...signUp, siteId: ctx.b.id }]) {
      expect(await claimPlanSignUp(ctx.store, other, T0)).toBeDefined();
    }
    expect(await claimPlanSignUp(ctx.store, signUp, T0 + 1)).toBeUndefined();
    await won[0]!();
    expect(await claimPlanSignUp(ctx.store, signUp, T0 + 2)).toBeDefined();
  });

  test('claimPlanSignUp: a claim never given back (its process died) holds for SIGN_UP_CLAIM_MS, then goes to the next sign-up', async () => {
    const signUp = { siteId: ctx.a.id, memberId: 7, planId: 3 };
    const first = await claimPlanSignUp(ctx.store, signUp, T0);
    expect(first).toBeDefined();
    expect(await claimPlanSignUp(ctx.store, signUp, T0 + SIGN_UP_CLAIM_MS - 1)).toBeUndefined();
    const next = await claimPlanSignUp(ctx.store, signUp, T0 + SIGN_UP_CLAIM_MS);
    expect(next).toBeDefined();
    // The first holder's late release does not free the next holder's claim.
    await first!();
    expect(await claimPlanSignUp(ctx.store, signUp, T0 + SIGN_UP_CLAIM_MS + 1)).toBeUndefined();
  });

  test('test processor customers and cards read back as written, cards in the order added; unknown ones are absent or empty', async () => {
    await ctx.store.createTestProcessorCustomers([
      { id: 'cus_test_ann', email: 'ann@example.com', name: 'Ann Lee', createdAt: T0 },
      { id: 'cus_test_bob', email: 'bob@example.com', createdAt: T0 + 1 },
    ]);
    expect(await ctx.store.getTestProcessorCustomer('cus_test_ann')).toStrictEqual({ id: 'cus_test_ann', email: 'ann@example.com', name: 'Ann Lee', createdAt: T0 });
    expect(await ctx.store.getTestProcessorCustomer('cus_test_bob')).toStrictEqual({ id: 'cus_test_bob', email: 'bob@example.com', createdAt: T0 + 1 });
    expect(await ctx.store.getTestProcessorCustomer('cus_test_nobody')).toBeUndefined();

    // Ids that sort otherwise than they came: the order is the order added.
    const cards = [
      card('pm_test_ok_9', 'cus_test_ann'),
      card('pm_test_declined_10', 'cus_test_ann', { declineCode: 'card_declined', last4: '0341' }),
      card('pm_test_3ds_11', 'cus_test_ann', { authentication: 'onSession', last4: '3155' }),
      card('pm_test_3ds_12', 'cus_test_ann', { authentication: 'always', declineCode: 'authentication_required', last4: '3220' }),
    ];
    await ctx.store.addTestProcessorCards(cards.slice(0, 1));
    await ctx.store.addTestProcessorCards([card('pm_test_ok_bob', 'cus_test_bob', { brand: 'mastercard', last4: '4444', expMonth: 1, expYear: 2031 }), ...cards.slice(1)]);
    expect(await ctx.store.listTestProcessorCards('cus_test_ann')).toStrictEqual(cards);
    expect((await ctx.store.listTestProcessorCards('cus_test_bob')).map((c) => [c.id, c.brand, c.last4])).toEqual([['pm_test_ok_bob', 'mastercard', '4444']]);
    expect(await ctx.store.listTestProcessorCards('cus_test_nobody')).toEqual([]);
    // What a caller changes in an answer is not what the store holds.
    (await ctx.store.listTestProcessorCards('cus_test_ann'))[0]!.last4 = '0000';
    expect((await ctx.store.listTestProcessorCards('cus_test_ann'))[0]!.last4).toBe('4242');
  });

  test('a test processor id taken is a ConflictError on id, and a batch with one writes none of its rows', async () => {
    await ctx.store.createTestProcessorCustomers([{ id: 'cus_test_ann', email: 'ann@example.com', createdAt: T0 }]);
    await expectRejects(
      ctx.store.createTestProcessorCustomers([{ id: 'cus_test_new', email: 'new@example.com', createdAt: T0 }, { id: 'cus_test_ann', email: 'x@example.com', createdAt: T0 }]),
      ConflictError, 'id',
    );
    expect(await ctx.store.getTestProcessorCustomer('cus_test_new')).toBeUndefined();
    await expectRejects(ctx.store.addTestProcessorCards([card('pm_test_ok_1', 'cus_test_ann'), card('pm_test_ok_1', 'cus_test_ann')]), ConflictError, 'id');
    expect(await ctx.store.listTestProcessorCards('cus_test_ann')).toEqual([]);
    await ctx.store.recordTestProcessorCharge(charge(1), T0 - DAY);
    await expectRejects(ctx.store.recordTestProcessorCharge(charge(2, { invoiceId: 'in_test_1' }), T0 - DAY), ConflictError, 'id');
    await expectRejects(ctx.store.recordTestProcessorCharge(charge(3, { chargeId: 'ch_test_1' }), T0 - DAY), ConflictError, 'id');
    expect((await ctx.store.listTestProcessorCharges('cus_test_ann')).map((c) => c.invoiceId)).toEqual(['in_test_1']);
  });

  test('recordTestProcessorCharge: charges read back in the order recorded; a key kept names its charge, a key of a charge at or before keptAfter is taken over', async () => {
    const failed = charge(2, { status: 'failed', declineCode: 'insufficient_funds', idempotencyKey: 'renewal:1:7:100:1', createdAt: T0 + 1 });
    expect(await ctx.store.recordTestProcessorCharge(charge(10), T0 - DAY)).toStrictEqual(charge(10));
    expect(await ctx.store.recordTestProcessorCharge(failed, T0 - DAY)).toStrictEqual(failed);
    // The same key within the day: the first charge is the answer, and nothing is written.
    expect(await ctx.store.recordTestProcessorCharge(charge(3, { idempotencyKey: 'renewal:1:7:100:1', createdAt: T0 + 5 }), T0 + 5 - DAY)).toStrictEqual(failed);
    expect(await ctx.store.listTestProcessorCharges('cus_test_ann')).toStrictEqual([charge(10), failed]);
    expect(await ctx.store.listTestProcessorCharges('cus_test_bob')).toEqual([]);
    // A day after the first, the key is forgotten: a new charge takes it, and the key names that one from then on.
    const later = charge(4, { idempotencyKey: 'renewal:1:7:100:1', createdAt: T0 + 1 + DAY });
    expect(await ctx.store.recordTestProcessorCharge(later, T0 + 1)).toStrictEqual(later);
    expect(await ctx.store.recordTestProcessorCharge(charge(5, { idempotencyKey: 'renewal:1:7:100:1', createdAt: T0 + 2 + DAY }), T0 + 2)).toStrictEqual(later);
    const { idempotencyKey: _forgotten, ...firstWithoutKey } = failed;
    expect(await ctx.store.listTestProcessorCharges('cus_test_ann')).toStrictEqual([charge(10), firstWithoutKey, later]);
  });

  test('recordTestProcessorCharge: 10 charges with one key at once record one charge, and every caller is answered it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => ctx.store.recordTestProcessorCharge(charge(i, { idempotencyKey: 'plan-signup:1:2:cus_test_ann:0' }), T0 - DAY)),
    );
    const recorded = await ctx.store.listTestProcessorCharges('cus_test_ann');
    expect(recorded).toHaveLength(1);
    for (const answer of answers) expect(answer).toStrictEqual(recorded[0]);
  });

  test('recordTestProcessorCharge: the same charge (same ids, same key) recorded 10 times at once is one charge, answered to every caller, not a conflict', async () => {
    // An authorized intent's charge: whoever records it (the answer, the confirmation) records the same one.
    const same = charge(7, { idempotencyKey: 'authorized:pi_test_1' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => ctx.store.recordTestProcessorCharge(same, 0)));
    expect(await ctx.store.listTestProcessorCharges('cus_test_ann')).toStrictEqual([same]);
    for (const answer of answers) expect(answer).toStrictEqual(same);
  });

  test('a new test processor over the same store (another process, a restart) charges the cards the first saved, and honours its keys', async () => {
    const first = new TestPaymentProcessor({ clock: () => T0, store: ctx.store });
    const { customerId } = await first.createCustomer({ email: 'ann@example.com', name: 'Ann Lee' });
    const good = await first.addPaymentMethod(customerId, { cardNumber: '4242424242424242', cardExpiry: '12/30', cardCvc: '123' });
    const declining = await first.addPaymentMethod(customerId, { cardNumber: '4000000000000341', cardExpiry: '12/30', cardCvc: '123' });
    const order = { amountCents: 1200, currency: 'usd', description: 'Monthly' };
    const receipt = await first.charge(customerId, good.id, { ...order, idempotencyKey: 'k' });

    const second = new TestPaymentProcessor({ clock: () => T0 + 1, store: ctx.store });
    expect(await second.listPaymentMethods(customerId)).toEqual([good, declining]);
    expect(await second.charge(customerId, good.id, { ...order, idempotencyKey: 'k' })).toEqual(receipt);
    expect(await second.charge(customerId, good.id, order)).not.toEqual(receipt);
    await expect(second.charge(customerId, declining.id, order)).rejects.toMatchObject({ name: 'PaymentDeclinedError', declineCode: 'card_declined' });
    expect((await first.listInvoices(customerId)).map((i) => i.status)).toEqual(['paid', 'paid', 'failed']);
    expect(await first.listInvoices(customerId)).toEqual(await second.listInvoices(customerId));
  });

  test('recordTestProcessorIntent / getTestProcessorIntent: an intent reads back as recorded, every field, its metadata and its absent optionals', async () => {
    const waiting = intent(1);
    const full = intent(2, {
      metadata: { site: '7', member: '42', plan: 'pln_x', note: 'quotes " and \\ and ünïcode ✓', empty: '' },
      status: 'succeeded', chargeId: 'ch_test_2', invoiceId: 'in_test_2', idempotencyKey: 'plan-signup:7:42:pln_x:0',
    });
    const bare = intent(3, { metadata: {} });
    for (const recorded of [waiting, full, bare]) expect(await ctx.store.recordTestProcessorIntent(recorded, T0 - DAY)).toStrictEqual(recorded);
    expect(await ctx.store.getTestProcessorIntent('pi_test_1')).toStrictEqual(waiting);
    expect(await ctx.store.getTestProcessorIntent('pi_test_2')).toStrictEqual(full);
    expect(await ctx.store.getTestProcessorIntent('pi_test_3')).toStrictEqual(bare);
    expect(await ctx.store.getTestProcessorIntent('pi_test_nothing')).toBeUndefined();
    // Charges are apart: an intent is no charge of its customer.
    expect(await ctx.store.listTestProcessorCharges('cus_test_ann')).toEqual([]);
    // What a caller changes in an answer, or in what it recorded, is not what the store holds.
    (await ctx.store.getTestProcessorIntent('pi_test_1'))!.metadata.plan = 'changed';
    waiting.metadata.site = 'changed';
    expect((await ctx.store.getTestProcessorIntent('pi_test_1'))!.metadata).toStrictEqual({ site: '1', member: '1', plan: 'gold' });
  });

  test('recordTestProcessorIntent: a key kept names its intent and nothing is written; a key of an intent at or before keptAfter is taken over', async () => {
    const first = intent(1, { idempotencyKey: 'plan-signup:1:2:pln_1:0', createdAt: T0 + 1 });
    expect(await ctx.store.recordTestProcessorIntent(first, T0 - DAY)).toStrictEqual(first);
    // The same key within the day: the first intent is the answer, and the second is not recorded.
    expect(await ctx.store.recordTestProcessorIntent(intent(2, { idempotencyKey: 'plan-signup:1:2:pln_1:0', createdAt: T0 + 5 }), T0 + 5 - DAY))
      .toStrictEqual(first);
    expect(await ctx.store.getTestProcessorIntent('pi_test_2')).toBeUndefined();
    // keptAfter is the first's createdAt: not after it, so the key is forgotten and the new intent takes it.
    const later = intent(3, { idempotencyKey: 'plan-signup:1:2:pln_1:0', createdAt: T0 + 1 + DAY });
    expect(await ctx.store.recordTestProcessorIntent(later, T0 + 1)).toStrictEqual(later);
    const { idempotencyKey: _forgotten, ...firstWithoutKey } = first;
    expect(await ctx.store.getTestProcessorIntent('pi_test_1')).toStrictEqual(firstWithoutKey);
    // From then on the key names the new one.
    expect(await ctx.store.recordTestProcessorIntent(intent(4, { idempotencyKey: 'plan-signup:1:2:pln_1:0', createdAt: T0 + 2 + DAY }), T0 + 2))
      .toStrictEqual(later);
    expect(await ctx.store.getTestProcessorIntent('pi_test_4')).toBeUndefined();
    // A charge with the same key is another kind of record: it neither answers nor takes the intent's key.
    expect(await ctx.store.recordTestProcessorCharge(charge(5, { idempotencyKey: 'plan-signup:1:2:pln_1:0', createdAt: T0 + 3 + DAY }), T0 + 3))
      .toStrictEqual(charge(5, { idempotencyKey: 'plan-signup:1:2:pln_1:0', createdAt: T0 + 3 + DAY }));
    expect(await ctx.store.getTestProcessorIntent('pi_test_3')).toStrictEqual(later);
  });

  test('recordTestProcessorIntent: an id taken is a ConflictError on id, and the refused intent changes nothing, not even an old key it carried', async () => {
    const first = intent(1, { idempotencyKey: 'k-old', createdAt: T0 });
    await ctx.store.recordTestProcessorIntent(first, T0 - DAY);
    await ctx.store.recordTestProcessorIntent(intent(2), T0 - DAY);
    // Its key is old enough to be taken over; its id is taken.
    await expectRejects(ctx.store.recordTestProcessorIntent(intent(2, { idempotencyKey: 'k-old', createdAt: T0 + DAY + 1, amountCents: 1 }), T0 + 1), ConflictError, 'id');
    await expectRejects(ctx.store.recordTestProcessorIntent(intent(1, { description: 'again' }), T0 - DAY), ConflictError, 'id');
    expect(await ctx.store.getTestProcessorIntent('pi_test_1')).toStrictEqual(first);
    expect(await ctx.store.getTestProcessorIntent('pi_test_2')).toStrictEqual(intent(2));
  });

  test('recordTestProcessorIntent: 10 intents with one key at once record one, and every caller is answered it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => ctx.store.recordTestProcessorIntent(intent(i, { idempotencyKey: 'plan-signup:1:2:cus_test_ann:0', createdAt: T0 }), T0 - DAY)),
    );
    const recorded = (await Promise.all(answers.map((_, i) => ctx.store.getTestProcessorIntent(`pi_test_${i}`)))).filter((found) => found !== undefined);
    expect(recorded).toHaveLength(1);
    for (const answer of answers) expect(answer).toStrictEqual(recorded[0]);
  });

  test('settleTestProcessorIntent: succeeded sets the status and its charge; a later answer (failed) finds it settled and changes nothing', async () => {
    const waiting = intent(1, { idempotencyKey: 'k1' });
    await ctx.store.recordTestProcessorIntent(waiting, T0 - DAY);
    await ctx.store.recordTestProcessorIntent(intent(2), T0 - DAY);
    const succeeded = { ...waiting, status: 'succeeded' as const, chargeId: 'ch_test_9', invoiceId: 'in_test_9' };
    expect(await ctx.store.settleTestProcessorIntent('pi_test_1', { status: 'succeeded', chargeId: 'ch_test_9', invoiceId: 'in_test_9' })).toStrictEqual(succeeded);
    expect(await ctx.store.settleTestProcessorIntent('pi_test_1', { status: 'failed' })).toStrictEqual(succeeded);
    expect(await ctx.store.settleTestProcessorIntent('pi_test_1', { status: 'succeeded', chargeId: 'ch_test_10', invoiceId: 'in_test_10' })).toStrictEqual(succeeded);
    expect(await ctx.store.getTestProcessorIntent('pi_test_1')).toStrictEqual(succeeded);
    // Another intent is not touched.
    expect(await ctx.store.getTestProcessorIntent('pi_test_2')).toStrictEqual(intent(2));
  });

  test('settleTestProcessorIntent: failed sets the status alone, for good; an unknown id is undefined and records nothing', async () => {
    await ctx.store.recordTestProcessorIntent(intent(1), T0 - DAY);
    const failed = { ...intent(1), status: 'failed' as const };
    expect(await ctx.store.settleTestProcessorIntent('pi_test_1', { status: 'failed' })).toStrictEqual(failed);
    expect(await ctx.store.settleTestProcessorIntent('pi_test_1', { status: 'succeeded', chargeId: 'ch_test_1', invoiceId: 'in_test_1' })).toStrictEqual(failed);
    expect(await ctx.store.getTestProcessorIntent('pi_test_1')).toStrictEqual(failed);
    expect(await ctx.store.settleTestProcessorIntent('pi_test_nothing', { status: 'failed' })).toBeUndefined();
    expect(await ctx.store.getTestProcessorIntent('pi_test_nothing')).toBeUndefined();
  });

  test('settleTestProcessorIntent: 10 answers at once with different outcomes settle it once, and every caller is answered the intent as it ends', async () => {
    await ctx.store.recordTestProcessorIntent(intent(1), T0 - DAY);
    const outcomes = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0 ? { status: 'succeeded' as const, chargeId: `ch_test_${i}`, invoiceId: `in_test_${i}` } : { status: 'failed' as const });
    const answers = await Promise.all(outcomes.map((outcome) => ctx.store.settleTestProcessorIntent('pi_test_1', outcome)));
    const settled = await ctx.store.getTestProcessorIntent('pi_test_1');
    expect(settled?.status).not.toBe('requiresAction');
    // It ended as one of the outcomes, all of it: a charge with its own invoice, or none.
    expect(outcomes.map((outcome) => ({ ...intent(1), ...outcome }))).toContainEqual(settled);
    for (const answer of answers) expect(answer).toStrictEqual(settled);
  });
}
