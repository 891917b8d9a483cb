/** GET /plans and GET /plans/{publicId}: what the sign-up screens show (PlanOffer). */
import { expect, test } from 'vitest';
import type { PlanOffer } from '../../src/contract/member';
import { definePlan } from '../../src/service/domain/plans';
import { BASE, expectError, forEachStore, jsonOf, type MemberCtx } from './support';

const plans = async (ctx: MemberCtx) => jsonOf<PlanOffer[]>(await ctx.request(`${BASE}/plans`), 200);
const plan = (ctx: MemberCtx, publicId: string) => ctx.request(`${BASE}/plans/${publicId}`);
const iso = (ms: number) => new Date(ms).toISOString();

forEachStore((fresh) => {
  test('GET /plans lists the enabled public plans by id, priced; the archived one is not there', async () => {
    const ctx = await fresh();
    const offers = await plans(ctx);
    expect(offers.map((p) => [p.publicId, p.type])).toEqual([
      ['community', 'free'],
      ['lifetime', 'one_time_payment'],
      ['course3', 'multi_payment'],
      ['monthly', 'subscription'],
    ]);
    const [community, lifetime, course, monthly] = offers as [PlanOffer, PlanOffer, PlanOffer, PlanOffer];
    expect(community).toStrictEqual({
      id: ctx.demo.planIds.community,
      publicId: 'community',
      name: 'Community',
      description: '<p>Join the community: the newsletter and the <strong>public</strong> library.</p>',
      type: 'free',
      dueNow: { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 },
      welcomeUrl: 'https://demo.localhost/welcome',
    });
    // A plan with no welcome page of the owner's names none: a new member stays where they are.
    expect(offers.filter((p) => 'welcomeUrl' in p).map((p) => p.publicId)).toEqual(['community']);
    expect(lifetime).toMatchObject({ currency: 'usd', dueNow: { subTotalCents: 19900, taxCents: 0, grandTotalCents: 19900 } });
    expect(lifetime).not.toHaveProperty('recurring');
    expect(course).toMatchObject({
      currency: 'usd',
      dueNow: { grandTotalCents: 6000 },
      recurring: { amountCents: 6000, interval: { count: 1, unit: 'month' }, paymentCount: 3, firstChargeAt: iso(ctx.now()) },
    });
    expect(Date.parse(course.expiresAt!)).toBeGreaterThan(ctx.now());
    expect(monthly).toMatchObject({ dueNow: { grandTotalCents: 1200 }, recurring: { amountCents: 1200, interval: { count: 1, unit: 'month' } } });
    expect(Date.parse(monthly.billingPeriodEnd!)).toBeGreaterThan(ctx.now());
  });

  test('tax, a trial and a fixed billing date show in the offer; rich text arrives sanitized', async () => {
    const ctx = await fresh();
    await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
      name: 'Pro', type: 'subscription', isPublic: true, description: '<p onclick="x()">Pro <script>bad()</script></p>',
      billing: { price: 19.99, currency: 'eur', interval: { count: 1, unit: 'month' }, taxPercentage: 7.5, taxDescription: '<b>VAT</b><img src=x>', trialPeriodDays: 14, billingDate: { day: 1 } },
    });
    const pro = (await plans(ctx)).find((p) => p.name === 'Pro')!;
    expect(pro).toMatchObject({
      type: 'subscription',
      currency: 'eur',
      description: '<p>Pro </p>',
      taxDescription: '<b>VAT</b>',
      taxPercentage: 7.5,
      trialDays: 14,
      billingDate: { day: 1 },
      dueNow: { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 },
      recurring: { subTotalCents: 1999, taxCents: 150, amountCents: 2149, firstChargeAt: iso(ctx.now() + 14 * 86_400_000) },
    });
  });

  test('GET /plans/{publicId} opens any enabled plan, listed or not; others are 404 on publicId', async () => {
    const ctx = await fresh();
    const hidden = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, { name: 'Secret', type: 'free', isPublic: false, expiration: { mode: 'none' } });
    expect((await plans(ctx)).some((p) => p.publicId === hidden.publicId)).toBe(false);
    expect((await jsonOf<PlanOffer>(await plan(ctx, hidden.publicId), 200)).name).toBe('Secret');
    expect((await jsonOf<PlanOffer>(await plan(ctx, 'monthly'), 200)).publicId).toBe('monthly');
    await expectError(await plan(ctx, 'founders'), 404, 'notFound', 'publicId');
    await expectError(await plan(ctx, 'nope'), 404, 'notFound', 'publicId');
    await expectError(await ctx.request(`/member/v1/sites/other/plans/monthly`, { origin: null }), 404, 'notFound', 'publicId');
  });

  test('the plans routes answer other methods with 405', async () => {
    const ctx = await fresh();
    const res = await ctx.request(`${BASE}/plans`, { method: 'POST', json: {} });
    await expectError(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')).toBe('GET');
  });
});
