/**
 * The webhook outbox end to end on every store: changes made through the member API and the
 * billing run are announced in their transactions, and the sender (what `svc serve` runs) delivers
 * them to a real receiver on 127.0.0.1 that verifies each with the `standardwebhooks` package, in
 * order, retried on the documented schedule (the app's clock, moved by the test), at least once.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import type { WebhookBody, WebhookEventType } from '../../src/contract/webhooks';
import { runRenewals } from '../../src/service/billing/renewals';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import type { WebhookEndpointRecord } from '../../src/service/store/webhook-records';
import { newWebhookSecret, RETRY_WAITS_MS } from '../../src/service/webhooks';
import { sendQueuedWebhooks, type WebhookSendDeps, WEBHOOK_LEASE_MS } from '../../src/service/webhooks/sender';
import { BASE, DAY, forEachStore, HOUR, jsonOf, type MemberCtx, paymentWith, validSignUp } from '../member/support';
import { checkWebhookBody } from './body-schema';
import { type Receiver, startReceiver } from './receiver';

const GOOD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
/** Saved; every charge on it is declined. */
const FAILS_ON_CHARGE = { ...GOOD, cardNumber: '4000 0000 0000 0341' };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer = undefined;
  // The receiver refuses a timestamp five minutes off its clock, as standardwebhooks does: its
  // clock (Date) is the app's, which the tests move (sendAll sets it).
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

interface Setup {
  ctx: MemberCtx;
  secret: string;
  endpoint: WebhookEndpointRecord;
  deps: WebhookSendDeps;
  reports: string[];
}

async function setUp(fresh: () => Promise<MemberCtx>, options: { events?: WebhookEventType[] } = {}): Promise<Setup> {
  const ctx = await fresh();
  const secret = newWebhookSecret();
  receiver.secret = secret;
  const endpoint = await ctx.store.createWebhookEndpoint({
    siteId: ctx.demo.site.id, url: `${receiver.url}/hooks`, allowPrivate: true, secret, source: 'cli', createdAt: ctx.now(),
    ...(options.events && { events: options.events }),
  });
  const reports: string[] = [];
  return { ctx, secret, endpoint, reports, deps: { store: ctx.store, clock: ctx.now, env: {}, report: (m) => reports.push(m) } };
}

/** What `svc serve`'s sender does on a pass, until nothing is due. */
async function sendAll(deps: WebhookSendDeps): Promise<void> {
  vi.setSystemTime(deps.clock());
  while ((await sendQueuedWebhooks(deps)) > 0);
}

/** What the receiver got, each held to docs/webhooks.md's promise (the Admin API's schemas) first. */
const bodies = () =>
  receiver.received.map((r) => {
    checkWebhookBody(r.body);
    return JSON.parse(r.body) as WebhookBody;
  });
const types = () => bodies().map((b) => b.type);

/** Signs up a new member and joins `plan` with `card` through the member API; answers the session token. */
async function joinPaid(ctx: MemberCtx, email: string, plan = 'monthly', card = GOOD): Promise<string> {
  const { token } = await jsonOf<{ token: string }>(await ctx.signUp(validSignUp(ctx.demo, { email })), 201);
  const joined = await ctx.authed(token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId: plan, ...(await paymentWith(ctx, token, card)) } });
  expect([201, 402]).toContain(joined.status);
  return token;
}

forEachStore((fresh) => {
  test('a paid sign-up sends member.created, membership.created, payment.succeeded and conversion, in order, each verified', async () => {
    const { ctx, deps } = await setUp(fresh);
    await joinPaid(ctx, 'paying@example.com');
    await sendAll(deps);
    expect(types()).toEqual(['member.created', 'membership.created', 'payment.succeeded', 'conversion']);
    expect(receiver.received.every((r) => r.verified === true)).toBe(true);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^msg_[A-Za-z0-9]+$/);
    const [member, membership, payment, conversion] = bodies() as [
      Extract<WebhookBody, { type: 'member.created' }>,
      Extract<WebhookBody, { type: 'membership.created' }>,
      Extract<WebhookBody, { type: 'payment.succeeded' }>,
      Extract<WebhookBody, { type: 'conversion' }>,
    ];
    expect(member.data.member).toMatchObject({ email: 'paying@example.com', firstName: 'New', status: 'approved' });
    expect(membership.data.membership).toMatchObject({ memberId: member.data.member.id, planPublicId: 'monthly', status: 'active', type: 'subscription' });
    expect(payment.data.invoice).toMatchObject({ memberId: member.data.member.id, membershipId: membership.data.membership.id, status: 'paid', currency: 'usd' });
    expect(conversion.data.memberEvent).toMatchObject({ eventType: 'conversion', memberId: member.data.member.id });
    expect(member.timestamp).toBe(new Date(ctx.now()).toISOString());
    // Null fields are left out, as everywhere.
    expect(receiver.received.some((r) => r.body.includes('null'))).toBe(false);
    // Everything was delivered: nothing is left to claim.
    expect(await ctx.store.claimWebhookDeliveries(ctx.now() + DAY, 10, 1000)).toEqual([]);
  });

  test('a declined first charge sends payment.failed and conversion.abandoned; a refused card at saving sends no payment', async () => {
    const { ctx, deps } = await setUp(fresh);
    await joinPaid(ctx, 'declined@example.com', 'monthly', FAILS_ON_CHARGE);
    await sendAll(deps);
    expect(types()).toEqual(['member.created', 'payment.failed', 'conversion.abandoned']);
    expect((bodies()[1] as Extract<WebhookBody, { type: 'payment.failed' }>).data.invoice).toMatchObject({ status: 'failed' });
  });

  test('an endpoint gets only the events it subscribed to; another site\'s endpoint and a disabled one get nothing', async () => {
    const { ctx, deps } = await setUp(fresh, { events: ['payment.succeeded', 'member.updated'] });
    const other = await startReceiver();
    try {
      await ctx.store.createWebhookEndpoint({ siteId: ctx.other.site.id, url: `${other.url}/x`, allowPrivate: true, secret: newWebhookSecret(), source: 'cli', createdAt: ctx.now() });
      const off = await ctx.store.createWebhookEndpoint({ siteId: ctx.demo.site.id, url: `${other.url}/off`, allowPrivate: true, secret: newWebhookSecret(), source: 'cli', createdAt: ctx.now() });
      await ctx.store.updateWebhookEndpoint(ctx.demo.site.id, off.id, { disabledAt: ctx.now(), disabledReason: 'by hand' });
      const token = await joinPaid(ctx, 'picky@example.com');
      await ctx.authed(token, `${BASE}/me`, { method: 'PATCH', json: { firstName: 'Renamed' } });
      await sendAll(deps);
      expect(types()).toEqual(['payment.succeeded', 'member.updated']);
      expect((bodies()[1] as Extract<WebhookBody, { type: 'member.updated' }>).data.member.firstName).toBe('Renamed');
      expect(other.received).toEqual([]);
    } finally {
      await other.close();
    }
  });

  test('a receiver answering 500 is tried again at the documented waits, in order, then the delivery is given up and the next one goes', async () => {
    const { ctx, deps, reports } = await setUp(fresh, { events: ['member.created'] });
    receiver.answer = (response) => response.writeHead(500).end('down for maintenance');
    await ctx.signUp(validSignUp(ctx.demo, { email: 'first@example.com' }));
    await ctx.signUp(validSignUp(ctx.demo, { email: 'second@example.com' }));
    const start = ctx.now();
    const setClock = (offset: number) => ctx.advance(start + offset - ctx.now());
    // Due after 0, 5 s, 5 min 5 s, … from the first attempt.
    const dueAt = [0, ...RETRY_WAITS_MS].map((_, i) => RETRY_WAITS_MS.slice(0, i).reduce((a, b) => a + b, 0));
    for (const due of dueAt) {
      const before = receiver.received.length;
      if (due > 0) {
        // A millisecond short of its time, nothing goes.
        setClock(due - 1);
        await sendAll(deps);
        expect(receiver.received.length).toBe(before);
      }
      setClock(due);
      await sendAll(deps);
      expect(receiver.received.length).toBeGreaterThan(before);
    }
    // Twelve attempts of the first message only (the second waited its turn), with one webhook-id.
    const emails = bodies().map((b) => (b as Extract<WebhookBody, { type: 'member.created' }>).data.member.email);
    expect(emails.slice(0, 12)).toEqual(Array(12).fill('first@example.com'));
    expect(new Set(receiver.received.slice(0, 12).map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Given up after the twelfth, the first lets the second go at once, in the same pass.
    expect(emails[12]).toBe('second@example.com');
    expect(reports.some((r) => /given up after 12 attempts/.test(r))).toBe(true);
    const page = await ctx.store.listWebhookDeliveries(ctx.demo.site.id, { status: 'failed' }, { limit: 10 });
    expect(page.items.map((d) => d.attempts)).toEqual([12]);
    const attempts = await ctx.store.listWebhookAttempts(ctx.demo.site.id, page.items[0]!.id);
    expect(attempts.map((a) => a.at - start)).toEqual(dueAt);
    expect(attempts.every((a) => a.status === 500 && a.answer === 'down for maintenance' && !a.ok)).toBe(true);
  });

  test('an endpoint failing for five days is disabled and says so; its waiting deliveries stay for when it is enabled', async () => {
    const { ctx, deps, endpoint, reports } = await setUp(fresh, { events: ['member.created'] });
    receiver.answer = (response) => response.writeHead(503).end();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await ctx.signUp(validSignUp(ctx.demo, { email }));
    const start = ctx.now();
    while (ctx.now() - start < 6 * DAY) {
      await sendAll(deps);
      ctx.advance(HOUR);
    }
    const after = (await ctx.store.getWebhookEndpoint(ctx.demo.site.id, endpoint.id))!;
    // Disabled at its first failed attempt five days or more after the first failure, not before.
    const attemptSeconds = receiver.received.map((r) => Number(r.headers['webhook-timestamp']));
    const firstAfterFiveDays = attemptSeconds.find((t) => t * 1000 >= start + 5 * DAY);
    expect(firstAfterFiveDays).toBeDefined();
    expect(Math.floor(after.disabledAt! / 1000)).toBe(firstAfterFiveDays);
    expect(attemptSeconds.at(-1)).toBe(firstAfterFiveDays);
    expect(after.disabledReason).toMatch(/every delivery failed since/);
    expect(reports.some((r) => r.includes(`endpoint ${endpoint.id}`) && r.includes('disabled'))).toBe(true);
    const before = receiver.received.length;
    ctx.advance(DAY);
    await sendAll(deps);
    expect(receiver.received.length).toBe(before);
    // Enabled again (svc webhooks enable) and answering: the waiting ones go, in order.
    receiver.answer = undefined;
    await ctx.store.updateWebhookEndpoint(ctx.demo.site.id, endpoint.id, { disabledAt: null, disabledReason: null });
    ctx.advance(10 * HOUR);
    await sendAll(deps);
    expect(receiver.received.slice(before).every((r) => r.verified)).toBe(true);
    expect(receiver.received.length).toBeGreaterThan(before);
  });

  test('a sender that dies mid-attempt leaves the delivery to the next once its claim ends: at least once, with the same webhook-id', async () => {
    const { ctx, deps } = await setUp(fresh, { events: ['member.created'] });
    await ctx.signUp(validSignUp(ctx.demo, { email: 'lost@example.com' }));
    const [claimed] = await ctx.store.claimWebhookDeliveries(ctx.now(), 10, WEBHOOK_LEASE_MS);
    expect(claimed).toBeDefined();
    // Claimed, never finished: nobody else may take it while the claim holds.
    await sendAll(deps);
    expect(receiver.received).toEqual([]);
    ctx.advance(WEBHOOK_LEASE_MS);
    await sendAll(deps);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([claimed!.messageId]);
    // The first sender, back to life, can record nothing over the second's.
    expect(await ctx.store.finishWebhookAttempt(claimed!.id, claimed!.leaseUntil, { at: ctx.now(), durationMs: 1, ok: true, answer: '' }, { next: { succeeded: true } })).toBe(false);
  });

  test('two senders at once deliver each message once', async () => {
    const { ctx, deps } = await setUp(fresh);
    for (const email of ['x1@example.com', 'x2@example.com', 'x3@example.com']) await joinPaid(ctx, email);
    await Promise.all([sendAll(deps), sendAll(deps), sendAll(deps)]);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids.length).toBe(12);
    expect(new Set(ids).size).toBe(12);
  });

  test('a replay sends the same body with the same webhook-id, after what was waiting', async () => {
    const { ctx, deps } = await setUp(fresh, { events: ['member.created'] });
    await ctx.signUp(validSignUp(ctx.demo, { email: 'again@example.com' }));
    await sendAll(deps);
    const [first] = (await ctx.store.listWebhookDeliveries(ctx.demo.site.id, {}, { limit: 10 })).items;
    const replay = (await ctx.store.replayWebhookDelivery(ctx.demo.site.id, first!.id, ctx.now()))!;
    expect(replay).toMatchObject({ replayOf: first!.id, messageId: first!.messageId, status: 'pending', attempts: 0 });
    await sendAll(deps);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(receiver.received[1]!.verified).toBe(true);
    expect(await ctx.store.replayWebhookDelivery(ctx.demo.site.id, 999_999, ctx.now())).toBeUndefined();
    expect(await ctx.store.replayWebhookDelivery(ctx.other.site.id, first!.id, ctx.now())).toBeUndefined();
  });

  test('during a rotation deliveries carry both signatures, each verifying alone; after it, the new one only', async () => {
    const { ctx, deps, endpoint, secret: old } = await setUp(fresh, { events: ['member.created'] });
    const fresher = newWebhookSecret();
    await ctx.store.updateWebhookEndpoint(ctx.demo.site.id, endpoint.id, { secret: fresher, previousSecret: old, previousSecretUntil: ctx.now() + DAY });
    await ctx.signUp(validSignUp(ctx.demo, { email: 'rot1@example.com' }));
    receiver.secret = old;
    await sendAll(deps);
    expect(receiver.received.at(-1)!.verified).toBe(true);
    expect(receiver.received.at(-1)!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    await ctx.store.replayWebhookDelivery(ctx.demo.site.id, (await ctx.store.listWebhookDeliveries(ctx.demo.site.id, {}, { limit: 1 })).items[0]!.id, ctx.now());
    receiver.secret = fresher;
    await sendAll(deps);
    expect(receiver.received.at(-1)!.verified).toBe(true);
    ctx.advance(DAY);
    await ctx.signUp(validSignUp(ctx.demo, { email: 'rot2@example.com' }));
    receiver.secret = old;
    receiver.answer = (response) => response.writeHead(200).end();
    await sendAll(deps);
    expect(receiver.received.at(-1)!.verified).toBe(false);
    expect(receiver.received.at(-1)!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
  });

  test('a site-file endpoint signs with the secret its environment variable holds; unset, the attempt fails and says so', async () => {
    const { ctx, deps } = await setUp(fresh, { events: ['member.created'] });
    const secret = newWebhookSecret();
    const other = await startReceiver();
    try {
      other.secret = secret;
      await ctx.store.createWebhookEndpoint({ siteId: ctx.demo.site.id, url: other.url, allowPrivate: true, secretEnv: 'HOOK_SECRET', source: 'siteFile', createdAt: ctx.now(), events: ['member.created'] });
      await ctx.signUp(validSignUp(ctx.demo, { email: 'env@example.com' }));
      await sendAll({ ...deps, env: {} });
      expect(other.received).toEqual([]);
      const failed = (await ctx.store.listWebhookDeliveries(ctx.demo.site.id, { status: 'pending' }, { limit: 5 })).items;
      const attempts = await ctx.store.listWebhookAttempts(ctx.demo.site.id, failed[0]!.id);
      expect(attempts[0]!.error).toMatch(/HOOK_SECRET is not set/);
      ctx.advance(RETRY_WAITS_MS[0]!);
      await sendAll({ ...deps, env: { HOOK_SECRET: secret } });
      expect(other.received.map((r) => r.verified)).toEqual([true]);
    } finally {
      await other.close();
    }
  });

  test('the billing run announces renewals and ends; cancelling announces membership.cancelled', async () => {
    const { ctx, deps } = await setUp(fresh, { events: ['membership.cancelled', 'membership.renewed', 'membership.ended'] });
    await joinPaid(ctx, 'renews@example.com');
    const processor = new TestPaymentProcessor({ clock: ctx.now, store: ctx.store });
    ctx.advance(32 * DAY);
    await runRenewals({ store: ctx.store, clock: ctx.now, processor });
    // The sign-up's session has expired meanwhile: the member logs in again.
    const { token } = await ctx.session({ email: 'renews@example.com', password: 'a good password' });
    const me = await jsonOf<{ memberships: { id: number }[] }>(await ctx.authed(token, `${BASE}/me`), 200);
    await ctx.authed(token, `${BASE}/memberships/${me.memberships[0]!.id}/cancel`, { method: 'POST' });
    ctx.advance(32 * DAY);
    await runRenewals({ store: ctx.store, clock: ctx.now, processor });
    await sendAll(deps);
    expect(types()).toEqual(['membership.renewed', 'membership.cancelled', 'membership.ended']);
    const ended = bodies()[2] as Extract<WebhookBody, { type: 'membership.ended' }>;
    expect(ended.data.membership.status).toBe('cancelled');
  });
});
