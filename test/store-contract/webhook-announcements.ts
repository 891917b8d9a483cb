/**
 * Contract: the store's writes that announce a webhook (issue 31), each in its own transaction.
 * A sign-up announces `member.created`; a change a receiver sees of a member (names, e-mail,
 * its confirmation, custom fields, metadata), `member.updated`, whether by updateMember,
 * updateMemberMetadata or a redeemed token; new memberships `membership.created`, a membership
 * change its caller names; a charge `payment.succeeded` or `payment.failed`, a refund once
 * `payment.refunded`; a conversion and an abandoned one theirs. The bodies are the Admin API's
 * records of what was written. The bulk writers (createMembers, createInvoices) announce
 * nothing, and a write that fails leaves no message and no delivery behind.
 * (./webhooks: endpoints, claims and attempts.)
 */
import { expect, test } from 'vitest';
import type { WebhookEventType } from '../../src/contract/webhooks';
import { toInvoice, toMember, toMemberEvent, toMembership } from '../../src/service/admin/serialize';
import { isoTime } from '../../src/service/http/json';
import { ConflictError, MissingReferenceError } from '../../src/service/store/errors';
import type { NewInvoice, NewMemberEvent, NewMembership, SendLimits } from '../../src/service/store/records';
import { type Ctx, PLAN_TERMS, T0, expectRejects, newEndpoint, newMember, newPlan } from './fixtures';

const HOUR = 3_600_000;
const LEASE = 60_000;

/** A body as a receiver parses it. */
interface Sent {
  messageId: string;
  type: WebhookEventType;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}
/** What a body with `data` at `at` parses to: absent fields left out, as JSON leaves them. */
const body = (type: WebhookEventType, at: number, data: Record<string, unknown>) => JSON.parse(JSON.stringify({ type, timestamp: isoTime(at), data }));

export function webhookAnnouncementTests(ctx: Ctx): void {
  /**
   * Every message delivered to site a's endpoints so far, in the order written: each delivery
   * claimed and finished, until none is left. Claimed after anything the store stamps with its
   * own clock (a write given no time: updateMember and the like).
   */
  async function sent(): Promise<Sent[]> {
    const out: Array<Sent & { id: number }> = [];
    for (;;) {
      const now = Date.now() + HOUR;
      const claimed = await ctx.store.claimWebhookDeliveries(now, 100, LEASE);
      if (claimed.length === 0) return out.sort((x, y) => x.id - y.id).map(({ id: _, ...s }) => s);
      for (const d of claimed) {
        expect(d.siteId).toBe(ctx.a.id);
        out.push({ id: d.id, messageId: d.messageId, type: d.type, body: JSON.parse(d.body) });
        await ctx.store.finishWebhookAttempt(d.id, d.leaseUntil, { at: now, durationMs: 1, ok: true, status: 200, answer: '' }, { next: { succeeded: true } });
      }
    }
  }
  const types = async () => (await sent()).map((s) => s.type);
  /** An endpoint of site a for every type. */
  const listen = () => ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
  /** The timestamp of a write stamped with the store's clock, between `before` and now. */
  const stampedSince = (before: number) => (s: Sent) => {
    const at = Date.parse(s.body.timestamp);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    return at;
  };
  const OPEN: SendLimits = { kinds: ['signInCode'], since: T0, perAddress: 1000, perSite: 1000 };
  let serial = 0;
  /** A token of the member of site a, through queueRequestedMail; answers its id. */
  async function tokenOf(memberId: number, purpose: 'signIn' | 'passwordReset' | 'emailChange' = 'signIn', newEmail?: string) {
    const tokenHash = `announce-token-${++serial}`;
    const mail = { siteId: ctx.a.id, kind: 'signInCode', to: 'x@example.com', subject: 'Code', text: 'Code', createdAt: T0 };
    const token = { siteId: ctx.a.id, memberId, purpose, tokenHash, createdAt: T0, expiresAt: T0 + HOUR, ...(newEmail && { newEmail }) };
    expect(await ctx.store.queueRequestedMail({ mail, token, limits: OPEN })).toBe('queued');
    return (await ctx.store.findMemberToken(tokenHash))!.id;
  }
  const invoice = (memberId: number, planId: number, extra: Partial<NewInvoice> = {}): NewInvoice => ({
    siteId: ctx.a.id, memberId, planId, processorInvoiceId: `in_${++serial}`, processorChargeId: `ch_${serial}`, subTotalCents: 1000,
    taxCents: 190, totalCents: 1190, currency: 'eur', status: 'paid', description: 'Gold', createdAt: T0 + 7, ...extra,
  });

  test('signUpMember announces member.created with the member as written, to the endpoints that want it and no others', async () => {
    await listen();
    const choosy = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['payment.failed'] }));
    await ctx.store.createWebhookEndpoint(newEndpoint(ctx.b.id));
    const { memberId } = await ctx.store.signUpMember({
      member: newMember(ctx.a.id, 'ann@example.com', { firstName: 'Ann', passwordHash: '$scrypt$x', createdAt: T0 + 3 }), events: [],
    });
    expect((await ctx.store.listWebhookDeliveries(ctx.a.id, { endpointId: choosy.id }, { limit: 10 })).items).toEqual([]);
    expect((await ctx.store.listWebhookDeliveries(ctx.b.id, {}, { limit: 10 })).items).toEqual([]);
    const [created, ...rest] = await sent();
    expect(rest).toEqual([]);
    expect(created!.messageId).toMatch(/^msg_/);
    expect(created!.body).toStrictEqual(body('member.created', T0 + 3, { member: toMember((await ctx.store.getMember(ctx.a.id, memberId))!) }));
    expect(created!.body).toMatchObject({ data: { member: { id: memberId, email: 'ann@example.com', firstName: 'Ann' } } });
  });

  test('updateMember announces member.updated with the member after a change a receiver sees; a password, the processor customer or the same value again announce nothing', async () => {
    const [field] = await ctx.store.createSignupFields([{ siteId: ctx.a.id, type: 'text', label: 'Company', required: false, position: 0 }]);
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com', { firstName: 'Ann' })]);
    await listen();
    const before = Date.now();
    const renamed = (await ctx.store.updateMember(ctx.a.id, ann!, { firstName: 'Anna', lastName: 'Lee' }))!;
    await ctx.store.updateMember(ctx.a.id, ann!, { passwordHash: '$scrypt$new' });
    await ctx.store.updateMember(ctx.a.id, ann!, { processorCustomerId: 'cus_1' });
    await ctx.store.updateMember(ctx.a.id, ann!, { firstName: 'Anna' });
    // Given no time, the store stamps it with its own clock, and it is due at once: a sender whose
    // clock is behind the store's (a test's, a billing run `--at` a date) still gets it.
    expect((await ctx.store.claimWebhookDeliveries(T0, 10, LEASE)).map((d) => d.type)).toEqual(['member.updated']);
    const [updated, ...rest] = await sent();
    expect(rest).toEqual([]);
    const at = stampedSince(before)(updated!);
    expect(updated!.body).toStrictEqual(body('member.updated', at, { member: toMember(renamed) }));

    await ctx.store.updateMember(ctx.a.id, ann!, { signupValues: [{ fieldId: field!, value: 'Acme' }] });
    await ctx.store.updateMember(ctx.a.id, ann!, { signupValues: [{ fieldId: field!, value: 'Acme' }] });
    const moved = (await ctx.store.updateMember(ctx.a.id, ann!, { email: 'anna@example.com' }))!;
    expect(await ctx.store.updateMember(ctx.a.id, ann! + 100, { firstName: 'Nobody' })).toBeUndefined();
    const later = await sent();
    expect(later.map((s) => s.type)).toEqual(['member.updated', 'member.updated']);
    expect(later[1]!.body.data).toStrictEqual(JSON.parse(JSON.stringify({ member: toMember(moved) })));
  });

  test('updateMemberMetadata announces member.updated when the metadata changed', async () => {
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    await listen();
    await ctx.store.updateMemberMetadata(ctx.a.id, ann!, (current) => ({ ...current, plan: 'gold' }));
    await ctx.store.updateMemberMetadata(ctx.a.id, ann!, (current) => ({ ...current }));
    expect(await ctx.store.updateMemberMetadata(ctx.a.id, ann! + 100, () => ({ x: 1 }))).toBeUndefined();
    const [updated, ...rest] = await sent();
    expect(rest).toEqual([]);
    expect(updated!.body).toMatchObject({ type: 'member.updated', data: { member: { id: ann, email: 'ann@example.com' } } });
  });

  test('redeemMemberToken announces member.updated, at its time, when its effects change the member: an address confirmed or moved; not a new password alone', async () => {
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    await listen();
    // Each token issued just before it is redeemed: a new password or address voids the member's unused ones.
    const confirmed = await ctx.store.redeemMemberToken(await tokenOf(ann!), T0 + 5, { member: { emailConfirmedAt: T0 + 5 } });
    await ctx.store.redeemMemberToken(await tokenOf(ann!, 'passwordReset'), T0 + 6, { member: { passwordHash: '$scrypt$reset' } });
    await ctx.store.redeemMemberToken(await tokenOf(ann!), T0 + 7, { events: [{ eventType: 'login', details: {}, createdAt: T0 + 7 }] });
    const moved = await ctx.store.redeemMemberToken(await tokenOf(ann!, 'emailChange', 'new@example.com'), T0 + 8, {
      member: { email: 'new@example.com', emailConfirmedAt: T0 + 8 },
    });
    if (!confirmed.redeemed || !moved.redeemed) throw new Error('both tokens are redeemed');
    const messages = await sent();
    expect(messages.map((s) => s.body)).toStrictEqual([
      body('member.updated', T0 + 5, { member: toMember(confirmed.member) }),
      body('member.updated', T0 + 8, { member: toMember(moved.member) }),
    ]);
    expect(messages[1]!.body).toMatchObject({ data: { member: { email: 'new@example.com' } } });
  });

  test('createMemberships announces membership.created for each, with the membership as read back (its plan\'s public id and type)', async () => {
    const free = await ctx.store.createPlan(newPlan(ctx.a.id));
    const paid = await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['subscription plan with a billing date and a signup fee']));
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    await listen();
    const rows: NewMembership[] = [
      { siteId: ctx.a.id, memberId: ann!, planId: free.id, status: 'active', createdAt: T0 + 1, paymentFailure: false },
      { siteId: ctx.a.id, memberId: ann!, planId: paid.id, status: 'active', createdAt: T0 + 2, paymentFailure: false, billingPeriodEnd: T0 + 1000 },
    ];
    const ids = await ctx.store.createMemberships(rows);
    const written = await ctx.store.listMembershipsOfMember(ctx.a.id, ann!);
    expect(written.map((m) => m.id)).toEqual(ids);
    expect((await sent()).map((s) => s.body)).toStrictEqual(written.map((m) => body('membership.created', m.createdAt, { membership: toMembership(m) })));
    expect(written.map((m) => [m.planPublicId, m.type])).toEqual([[free.publicId, 'free'], [paid.publicId, 'subscription']]);
  });

  test('updateMembership announces what its caller names, with the membership after the change; nothing unnamed', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['subscription plan with a billing date and a signup fee']));
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    const [id] = await ctx.store.createMemberships([
      { siteId: ctx.a.id, memberId: ann!, planId: plan.id, status: 'active', createdAt: T0, paymentFailure: false, billingPeriodEnd: T0 + 1000 },
    ]);
    await listen();
    await ctx.store.updateMembership(ctx.a.id, id!, { paymentsMade: 1 });
    const before = Date.now();
    const cancelled = (await ctx.store.updateMembership(ctx.a.id, id!, { cancelsAt: T0 + 1000 }, 'membership.cancelled'))!;
    const ended = (await ctx.store.updateMembership(ctx.a.id, id!, { status: 'cancelled', billingPeriodEnd: null }, 'membership.ended'))!;
    expect(await ctx.store.updateMembership(ctx.a.id, id! + 100, { status: 'expired' }, 'membership.ended')).toBeUndefined();
    expect((await ctx.store.claimWebhookDeliveries(T0, 10, LEASE)).map((d) => d.type)).toEqual(['membership.cancelled']);
    const messages = await sent();
    expect(messages.map((s) => s.body)).toStrictEqual([
      body('membership.cancelled', stampedSince(before)(messages[0]!), { membership: toMembership(cancelled) }),
      body('membership.ended', stampedSince(before)(messages[1]!), { membership: toMembership(ended) }),
    ]);
    expect(messages[1]!.body).toMatchObject({ data: { membership: { status: 'cancelled', cancelsOn: isoTime(T0 + 1000) } } });
  });

  test('createInvoice announces payment.succeeded or payment.failed; markInvoiceRefunded payment.refunded once; createInvoices nothing', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id, {}, PLAN_TERMS['one-time payment plan with tax']));
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    await listen();
    await ctx.store.createInvoices([invoice(ann!, plan.id), invoice(ann!, plan.id, { status: 'failed' })]);
    const paid = await ctx.store.createInvoice(invoice(ann!, plan.id));
    const declined = await ctx.store.createInvoice(invoice(ann!, plan.id, { status: 'failed', createdAt: T0 + 8 }));
    const before = Date.now();
    const refunded = (await ctx.store.markInvoiceRefunded(ctx.a.id, paid.processorChargeId))!;
    await ctx.store.markInvoiceRefunded(ctx.a.id, paid.processorChargeId);
    await ctx.store.markInvoiceRefunded(ctx.a.id, declined.processorChargeId);
    const messages = await sent();
    expect(messages.map((s) => s.body)).toStrictEqual([
      body('payment.succeeded', T0 + 7, { invoice: toInvoice(paid) }),
      body('payment.failed', T0 + 8, { invoice: toInvoice(declined) }),
      body('payment.refunded', stampedSince(before)(messages[2]!), { invoice: toInvoice(refunded) }),
    ]);
    expect(messages[2]!.body).toMatchObject({ data: { invoice: { status: 'refunded', id: paid.id } } });
  });

  test('createMemberEvents announces conversions and abandoned ones, with the event as written; other events and createMembers nothing', async () => {
    const [ann] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com')]);
    await listen();
    await ctx.store.createMembers([newMember(ctx.a.id, 'bob@example.com')]);
    const events: NewMemberEvent[] = [
      { siteId: ctx.a.id, memberId: ann!, eventType: 'conversion', details: { planId: 1, membershipId: 2, orderId: 'ord_1' }, createdAt: T0 + 1 },
      { siteId: ctx.a.id, memberId: ann!, eventType: 'login', details: {}, createdAt: T0 + 2 },
      { siteId: ctx.a.id, memberId: ann!, eventType: 'abandonedConversion', details: { amount: '$12.00', chargeId: 'ch_1', invoiceId: 'in_1' }, createdAt: T0 + 3 },
    ];
    const ids = await ctx.store.createMemberEvents(events);
    expect((await sent()).map((s) => s.body)).toStrictEqual([
      body('conversion', T0 + 1, { memberEvent: toMemberEvent({ ...events[0]!, id: ids[0]! }) }),
      body('conversion.abandoned', T0 + 3, { memberEvent: toMemberEvent({ ...events[2]!, id: ids[2]! }) }),
    ]);
  });

  test('a write that fails announces nothing: no delivery, and no message left behind', async () => {
    const plan = await ctx.store.createPlan(newPlan(ctx.a.id));
    const [ann, bob] = await ctx.store.createMembers([newMember(ctx.a.id, 'ann@example.com'), newMember(ctx.a.id, 'bob@example.com')]);
    const taken = await ctx.store.createInvoice(invoice(ann!, plan.id));
    const change = await tokenOf(ann!, 'emailChange', 'bob@example.com');
    await listen();
    const membership = (memberId: number): NewMembership => ({ siteId: ctx.a.id, memberId, planId: plan.id, status: 'active', createdAt: T0, paymentFailure: false });
    await expectRejects(ctx.store.createMemberships([membership(ann!), membership(bob! + 100)]), MissingReferenceError, 'memberId');
    await expectRejects(ctx.store.signUpMember({ member: newMember(ctx.a.id, 'ann@example.com'), events: [] }), ConflictError, 'email');
    await expectRejects(ctx.store.createInvoice(invoice(bob!, plan.id, { processorInvoiceId: taken.processorInvoiceId })), ConflictError, 'processorInvoiceId');
    await expectRejects(ctx.store.updateMember(ctx.a.id, ann!, { firstName: 'Anna', email: 'bob@example.com' }), ConflictError, 'email');
    await expectRejects(ctx.store.redeemMemberToken(change, T0 + 1, { member: { email: 'bob@example.com', emailConfirmedAt: T0 + 1 } }), ConflictError, 'email');
    await expect(ctx.store.updateMemberMetadata(ctx.a.id, ann!, () => { throw new Error('refused'); })).rejects.toThrow('refused');
    const conversion = { siteId: ctx.a.id, eventType: 'conversion' as const, details: {}, createdAt: T0 };
    await expectRejects(ctx.store.createMemberEvents([{ ...conversion, memberId: ann! }, { ...conversion, memberId: bob! + 100 }]), MissingReferenceError, 'memberId');

    expect((await ctx.store.listWebhookDeliveries(ctx.a.id, {}, { limit: 10 })).items).toEqual([]);
    expect(await ctx.store.deleteOldWebhookRecords(T0)).toBe(0);
    expect(await types()).toEqual([]);
  });
}
