/**
 * Contract: the processor events a site's webhook handled (issue 28, decision 0033). An event is
 * recorded once, however many deliveries of it arrive at once; the same id at another site is
 * another event; a site's payments settings read back as written.
 */
import { expect, test } from 'vitest';
import { type Ctx, T0 } from './fixtures';

export function processorEventTests(ctx: Ctx): void {
  test('recordProcessorEvent: the first of 10 deliveries at once is new, the rest are not; another site\'s same id is its own', async () => {
    const event = { siteId: ctx.a.id, eventId: 'evt_1NwQ', type: 'charge.refunded', receivedAt: T0 };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => ctx.store.recordProcessorEvent(event)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await ctx.store.recordProcessorEvent({ ...event, receivedAt: T0 + 1 })).toBe(false);
    expect(await ctx.store.recordProcessorEvent({ ...event, siteId: ctx.b.id })).toBe(true);
    expect(await ctx.store.recordProcessorEvent({ ...event, eventId: 'evt_2' })).toBe(true);
  });

  test('a site\'s payments settings read back as written, and a patch clears them', async () => {
    const payments = { processor: 'stripe' as const, publishableKey: 'pk_test_abcdefgh', secretKeyEnv: 'A_SECRET', webhookSecretEnv: 'A_HOOK' };
    const updated = await ctx.store.updateSite(ctx.a.id, { payments });
    expect(updated!.payments).toEqual(payments);
    expect((await ctx.store.getSiteBySubdomain('alpha'))!.payments).toEqual(payments);
    expect((await ctx.store.updateSite(ctx.a.id, { payments: null }))!.payments).toBeUndefined();
    expect((await ctx.store.getSite(ctx.a.id))!.payments).toBeUndefined();
  });
}
