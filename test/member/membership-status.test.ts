/**
 * The status a member's memberships have in MemberInfo (spec 2.7, 3): the widget grants content
 * by it (docs/decisions/0012), so a membership past its expiry date must not read `active`.
 */
import { expect, test } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { BASE, DAY, forEachStore, GRACE, jsonOf, type MemberCtx } from './support';

async function graceJoins(ctx: MemberCtx, plan: string, fields: { status: 'active' | 'cancelled' | 'expired'; expiresAt?: number }) {
  await ctx.store.createMemberships([
    {
      siteId: ctx.demo.site.id,
      memberId: ctx.demo.memberIds.grace!,
      planId: ctx.demo.planIds[plan]!,
      createdAt: ctx.now() - 30 * DAY,
      paymentFailure: false,
      ...fields,
    },
  ]);
}

const statuses = async (ctx: MemberCtx) => {
  const { token } = await ctx.session(GRACE);
  const member = await jsonOf<MemberInfo>(await ctx.authed(token, `${BASE}/me`), 200);
  return member.memberships.map((m) => [m.publicPlanId, m.status, m.expiresOn]);
};

forEachStore((fresh) => {
  test('an active membership past its expiry date reads expired; one still running reads active', async () => {
    const ctx = await fresh();
    await graceJoins(ctx, 'course', { status: 'active', expiresAt: ctx.now() - 1 });
    await graceJoins(ctx, 'lifetime', { status: 'active', expiresAt: ctx.now() + DAY });
    expect(await statuses(ctx)).toEqual([
      ['course3', 'expired', new Date(ctx.now() - 1).toISOString()],
      ['lifetime', 'active', new Date(ctx.now() + DAY).toISOString()],
    ]);
  });

  test('the expiry moment itself counts as expired, and the clock moving on expires a running one', async () => {
    const ctx = await fresh();
    await graceJoins(ctx, 'lifetime', { status: 'active', expiresAt: ctx.now() + DAY });
    ctx.advance(DAY - 1);
    expect((await statuses(ctx))[0]![1]).toBe('active');
    ctx.advance(1);
    expect((await statuses(ctx))[0]![1]).toBe('expired');
  });

  test('cancelled and expired memberships keep their stored status', async () => {
    const ctx = await fresh();
    await graceJoins(ctx, 'community', { status: 'cancelled' });
    await graceJoins(ctx, 'course', { status: 'expired', expiresAt: ctx.now() + DAY });
    expect((await statuses(ctx)).map(([, status]) => status)).toEqual(['cancelled', 'expired']);
  });
});
