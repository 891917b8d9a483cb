/**
 * Contract: webhook endpoints and their outbox (issue 31). A site's endpoints are kept with every
 * field, patched (`null` clears) and deleted with their deliveries and attempts. A message gets
 * one pending delivery per enabled endpoint of its site that wants its type, and none is kept
 * that nobody wants. A claim takes of each enabled endpoint only its oldest pending delivery,
 * when due, for a lease: one delivery in flight per endpoint, in order; a lapsed lease lets
 * another claim take it over, and the first claimant's result is then refused. An attempt is
 * recorded with what follows it (done, again at a time, given up) and the endpoint's state.
 * Deliveries are listed newest first, replayed with the same message, and swept when old.
 * (./webhook-announcements: the store's own writes that announce.)
 */
import { expect, test } from 'vitest';
import type { WebhookEventType } from '../../src/contract/webhooks';
import { MissingReferenceError } from '../../src/service/store/errors';
import type { NewWebhookAttempt, NewWebhookMessage } from '../../src/service/store/webhook-records';
import { type Ctx, T0, expectRejects, newEndpoint } from './fixtures';

const LEASE = 60_000;

let serial = 0;
/** A message of the site, with a body naming it, at `at`. */
function message(siteId: number, type: WebhookEventType = 'member.created', at = T0): NewWebhookMessage {
  const publicId = `msg_contract${++serial}`;
  return { siteId, publicId, type, body: JSON.stringify({ type, timestamp: new Date(at).toISOString(), data: { publicId } }), createdAt: at };
}
/** An attempt at `at`, answered `status` (2xx: ok). */
const attempt = (at: number, status = 200, extra: Partial<NewWebhookAttempt> = {}): NewWebhookAttempt => ({
  at, durationMs: 120, ok: status >= 200 && status < 300, status, answer: status === 200 ? 'ok' : 'busy', ...extra,
});
const DONE = { next: { succeeded: true as const } };

export function webhookTests(ctx: Ctx): void {
  const list = async (filter = {}, limit = 100) => (await ctx.store.listWebhookDeliveries(ctx.a.id, filter, { limit })).items;
  const claim = (now: number, limit = 10) => ctx.store.claimWebhookDeliveries(now, limit, LEASE);

  test('webhook endpoints: each field reads back as written, listed in id order per site; an unknown site is MissingReferenceError', async () => {
    const first = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    // A site file's: its secret kept in the environment, not here.
    const { secret: _secret, ...filtered } = newEndpoint(ctx.a.id, {
      url: 'http://localhost:4000/hook', events: ['member.created', 'payment.failed'], allowPrivate: true,
      secretEnv: 'SHOP_WEBHOOK_SECRET', source: 'siteFile', createdAt: T0 + 5,
    });
    const second = await ctx.store.createWebhookEndpoint(filtered);
    const theirs = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.b.id));
    expect(first).toStrictEqual({ ...newEndpoint(ctx.a.id), id: first.id });
    expect(second).toStrictEqual({ ...filtered, id: second.id });
    expect(second.id).toBeGreaterThan(first.id);
    expect(await ctx.store.getWebhookEndpoint(ctx.a.id, second.id)).toStrictEqual(second);
    expect(await ctx.store.getWebhookEndpoint(ctx.b.id, second.id)).toBeUndefined();
    expect(await ctx.store.listWebhookEndpoints(ctx.a.id)).toStrictEqual([first, second]);
    expect(await ctx.store.listWebhookEndpoints(ctx.b.id)).toStrictEqual([theirs]);
    await expectRejects(ctx.store.createWebhookEndpoint(newEndpoint(999_999)), MissingReferenceError, 'siteId');
  });

  test('updateWebhookEndpoint: absent keys stay, null clears; another site\'s or an unknown endpoint answers undefined', async () => {
    const { id } = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['conversion'], secretEnv: 'OLD_ENV' }));
    const rotated = await ctx.store.updateWebhookEndpoint(ctx.a.id, id, {
      url: 'https://hooks.example.com/v2', secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretUntil: T0 + 100,
      disabledAt: T0 + 7, disabledReason: 'failing for 5 days', allowPrivate: true,
    });
    expect(rotated).toStrictEqual({
      ...newEndpoint(ctx.a.id), id, events: ['conversion'], secretEnv: 'OLD_ENV', url: 'https://hooks.example.com/v2', secret: 'whsec_new',
      previousSecret: 'whsec_old', previousSecretUntil: T0 + 100, disabledAt: T0 + 7, disabledReason: 'failing for 5 days', allowPrivate: true,
    });
    const cleared = await ctx.store.updateWebhookEndpoint(ctx.a.id, id, {
      events: null, secretEnv: null, previousSecret: null, previousSecretUntil: null, disabledAt: null, disabledReason: null,
    });
    expect(cleared).toStrictEqual({ ...newEndpoint(ctx.a.id), id, url: 'https://hooks.example.com/v2', secret: 'whsec_new', allowPrivate: true });
    expect(await ctx.store.getWebhookEndpoint(ctx.a.id, id)).toStrictEqual(cleared);
    expect(await ctx.store.updateWebhookEndpoint(ctx.a.id, id, {})).toStrictEqual(cleared);
    expect(await ctx.store.updateWebhookEndpoint(ctx.b.id, id, { url: 'https://elsewhere.example.com/' })).toBeUndefined();
    expect(await ctx.store.updateWebhookEndpoint(ctx.a.id, id + 100, { url: 'https://elsewhere.example.com/' })).toBeUndefined();
    expect(await ctx.store.getWebhookEndpoint(ctx.a.id, id)).toStrictEqual(cleared);
  });

  test('queueWebhooks: a delivery per enabled endpoint of the site that wants the type, due when the message happened; none kept that nobody wants', async () => {
    const all = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    const failures = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['payment.failed'] }));
    const disabled = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    await ctx.store.updateWebhookEndpoint(ctx.a.id, disabled.id, { disabledAt: T0, disabledReason: 'off' });
    const theirs = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.b.id, { events: ['conversion'] }));

    const created = message(ctx.a.id, 'member.created', T0 + 10);
    expect(await ctx.store.queueWebhooks([created])).toBe(1);
    const [delivery] = await list();
    expect(delivery).toStrictEqual({
      id: delivery!.id, siteId: ctx.a.id, endpointId: all.id, messageId: created.publicId, type: 'member.created', status: 'pending',
      attempts: 0, nextAttemptAt: T0 + 10, createdAt: T0 + 10,
    });
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, delivery!.id)).toStrictEqual(delivery);
    expect(await ctx.store.getWebhookDelivery(ctx.b.id, delivery!.id)).toBeUndefined();

    const failed = message(ctx.a.id, 'payment.failed');
    expect(await ctx.store.queueWebhooks([failed, message(ctx.b.id, 'member.created')])).toBe(2);
    expect((await list({ endpointId: failures.id })).map((d) => d.messageId)).toEqual([failed.publicId]);
    expect((await list({ endpointId: all.id })).map((d) => d.messageId)).toEqual([failed.publicId, created.publicId]);
    expect(await list({ endpointId: disabled.id })).toEqual([]);
    expect((await ctx.store.listWebhookDeliveries(ctx.b.id, {}, { limit: 10 })).items).toEqual([]);

    // The other site's endpoint wants conversions only, and a site without endpoints wants nothing: no row is kept.
    expect(await ctx.store.queueWebhooks([message(ctx.b.id, 'payment.failed'), message(999_999, 'conversion')])).toBe(0);
    expect(await ctx.store.deleteOldWebhookRecords(T0 - 1)).toBe(0);
    expect(await ctx.store.queueWebhooks([message(ctx.b.id, 'conversion')])).toBe(1);
    expect((await ctx.store.listWebhookDeliveries(ctx.b.id, {}, { limit: 10 })).items.map((d) => d.endpointId)).toEqual([theirs.id]);
    expect(await ctx.store.queueWebhooks([])).toBe(0);
  });

  test('a claim takes of each endpoint its oldest pending delivery when due, with body, endpoint and lease; the next one waits until it is finished', async () => {
    const ann = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['member.created'] }));
    const bob = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['member.updated'], secret: 'whsec_bob' }));
    const [one, two, three, future] = [
      message(ctx.a.id, 'member.created', T0), message(ctx.a.id, 'member.created', T0 + 1), message(ctx.a.id, 'member.updated', T0 + 2),
      message(ctx.a.id, 'member.updated', T0 + 100_000),
    ];
    await ctx.store.queueWebhooks([one!, two!, three!, future!]);
    const ids = new Map((await list()).map((d) => [d.messageId, d.id]));

    const claimed = await claim(T0 + 10);
    expect(claimed.map((d) => d.messageId)).toEqual([one!.publicId, three!.publicId]);
    expect(claimed[0]).toStrictEqual({
      id: ids.get(one!.publicId), siteId: ctx.a.id, endpointId: ann.id, messageId: one!.publicId, type: 'member.created', status: 'pending',
      attempts: 0, nextAttemptAt: T0 + 10 + LEASE, createdAt: T0, body: one!.body, endpoint: ann, leaseUntil: T0 + 10 + LEASE,
    });
    expect(claimed[1]!.endpoint).toStrictEqual(bob);
    // Claimed: not again during the lease, and nothing behind them either.
    expect(await claim(T0 + 20)).toEqual([]);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, ids.get(one!.publicId)!)).toMatchObject({ nextAttemptAt: T0 + 10 + LEASE, attempts: 0 });

    expect(await ctx.store.finishWebhookAttempt(claimed[0]!.id, claimed[0]!.leaseUntil, attempt(T0 + 30), DONE)).toBe(true);
    const [next] = await claim(T0 + 40);
    expect(next!.messageId).toBe(two!.publicId);
    expect(await ctx.store.finishWebhookAttempt(next!.id, next!.leaseUntil, attempt(T0 + 50), DONE)).toBe(true);
    expect(await ctx.store.finishWebhookAttempt(claimed[1]!.id, claimed[1]!.leaseUntil, attempt(T0 + 50), DONE)).toBe(true);
    // The last one is not due yet.
    expect(await claim(T0 + 99_999)).toEqual([]);
    expect((await claim(T0 + 100_000)).map((d) => d.messageId)).toEqual([future!.publicId]);
  });

  test('a claim takes up to its limit, the longest waiting first', async () => {
    const endpoints = [];
    for (let i = 0; i < 3; i++) endpoints.push(await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { url: `https://h${i}.example.com/` })));
    // One message to all three; each endpoint's delivery is its head.
    await ctx.store.queueWebhooks([message(ctx.a.id, 'conversion', T0)]);
    const first = await claim(T0, 2);
    expect(first.map((d) => d.endpointId)).toEqual([endpoints[0]!.id, endpoints[1]!.id]);
    expect((await claim(T0, 2)).map((d) => d.endpointId)).toEqual([endpoints[2]!.id]);
    expect(await claim(T0, 2)).toEqual([]);
  });

  test('a lapsed lease: the delivery is claimed again, and the first claimant\'s finishWebhookAttempt answers false and records nothing', async () => {
    await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    await ctx.store.queueWebhooks([message(ctx.a.id)]);
    const [stale] = await claim(T0);
    expect(await claim(T0 + LEASE - 1)).toEqual([]);
    const [taken] = await claim(T0 + LEASE);
    expect(taken).toMatchObject({ id: stale!.id, attempts: 0, leaseUntil: T0 + 2 * LEASE });
    expect(await ctx.store.finishWebhookAttempt(stale!.id, stale!.leaseUntil, attempt(T0 + LEASE + 5), DONE)).toBe(false);
    expect(await ctx.store.listWebhookAttempts(ctx.a.id, stale!.id)).toEqual([]);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, stale!.id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await ctx.store.finishWebhookAttempt(taken!.id, taken!.leaseUntil, attempt(T0 + LEASE + 6), DONE)).toBe(true);
    expect(await ctx.store.finishWebhookAttempt(taken!.id, taken!.leaseUntil, attempt(T0 + LEASE + 7), DONE)).toBe(false);
    expect(await ctx.store.finishWebhookAttempt(taken!.id + 100, taken!.leaseUntil, attempt(T0 + LEASE + 7), DONE)).toBe(false);
  });

  test('finishWebhookAttempt: a retry is due at its time, the first attempt\'s time kept; given up and succeeded are final, ending when their attempt did; attempts listed oldest first', async () => {
    const endpoint = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    const [first, second] = [message(ctx.a.id, 'member.created'), message(ctx.a.id, 'member.updated')];
    await ctx.store.queueWebhooks([first!, second!]);

    const [try1] = await claim(T0);
    const busy = attempt(T0 + 1, 503, { answer: 'try later' });
    expect(await ctx.store.finishWebhookAttempt(try1!.id, try1!.leaseUntil, busy, { next: { retryAt: T0 + 5_000 } })).toBe(true);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, try1!.id)).toStrictEqual({
      id: try1!.id, siteId: ctx.a.id, endpointId: endpoint.id, messageId: first!.publicId, type: 'member.created', status: 'pending',
      attempts: 1, firstAttemptAt: T0 + 1, nextAttemptAt: T0 + 5_000, createdAt: T0,
    });
    // The endpoint's next message waits behind the retry.
    expect(await claim(T0 + 4_999)).toEqual([]);
    const [try2] = await claim(T0 + 5_000);
    expect(try2).toMatchObject({ id: try1!.id, attempts: 1, firstAttemptAt: T0 + 1 });
    const refused = attempt(T0 + 5_001, 0, { ok: false, status: undefined, answer: '', error: 'connection: ECONNREFUSED', durationMs: 3 });
    delete refused.status;
    expect(await ctx.store.finishWebhookAttempt(try2!.id, try2!.leaseUntil, refused, { next: { failed: true } })).toBe(true);
    const failed = await ctx.store.getWebhookDelivery(ctx.a.id, try1!.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, firstAttemptAt: T0 + 1, finishedAt: T0 + 5_004 });
    expect(await ctx.store.listWebhookAttempts(ctx.a.id, try1!.id)).toStrictEqual([
      { id: expect.any(Number), deliveryId: try1!.id, ...busy },
      { id: expect.any(Number), deliveryId: try1!.id, ...refused },
    ]);
    expect(await ctx.store.listWebhookAttempts(ctx.b.id, try1!.id)).toEqual([]);

    // Given up: the next message goes out.
    const [next] = await claim(T0 + 6_000);
    expect(next).toMatchObject({ messageId: second!.publicId, endpointId: endpoint.id });
    expect(await ctx.store.finishWebhookAttempt(next!.id, next!.leaseUntil, attempt(T0 + 6_000), DONE)).toBe(true);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, next!.id)).toMatchObject({ status: 'succeeded', attempts: 1, firstAttemptAt: T0 + 6_000, finishedAt: T0 + 6_120 });
    expect(await claim(T0 + 1e9)).toEqual([]);
  });

  test('an attempt\'s result changes its endpoint: failing since, disabled (its pending deliveries then wait), and cleared again', async () => {
    const endpoint = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    await ctx.store.queueWebhooks([message(ctx.a.id), message(ctx.a.id)]);
    const [first] = await claim(T0);
    await ctx.store.finishWebhookAttempt(first!.id, first!.leaseUntil, attempt(T0, 500), { next: { retryAt: T0 + 5 }, endpoint: { failingSince: T0 } });
    expect(await ctx.store.getWebhookEndpoint(ctx.a.id, endpoint.id)).toStrictEqual({ ...endpoint, failingSince: T0 });
    const [again] = await claim(T0 + 5);
    expect(again!.endpoint.failingSince).toBe(T0);
    await ctx.store.finishWebhookAttempt(again!.id, again!.leaseUntil, attempt(T0 + 5, 500), {
      next: { retryAt: T0 + 10 }, endpoint: { disabledAt: T0 + 5, disabledReason: 'every delivery failed since …' },
    });
    expect(await ctx.store.getWebhookEndpoint(ctx.a.id, endpoint.id)).toStrictEqual({
      ...endpoint, failingSince: T0, disabledAt: T0 + 5, disabledReason: 'every delivery failed since …',
    });
    // Disabled: its deliveries stay pending and unclaimed, and new messages get none.
    expect(await claim(T0 + 1_000)).toEqual([]);
    expect(await ctx.store.queueWebhooks([message(ctx.a.id)])).toBe(0);
    expect((await list({ status: 'pending' })).length).toBe(2);
    // Enabled again by its owner: the oldest pending one goes out first.
    await ctx.store.updateWebhookEndpoint(ctx.a.id, endpoint.id, { disabledAt: null, disabledReason: null });
    const [resumed] = await claim(T0 + 1_000);
    expect(resumed).toMatchObject({ id: first!.id, attempts: 2 });
    await ctx.store.finishWebhookAttempt(resumed!.id, resumed!.leaseUntil, attempt(T0 + 1_000), { next: { succeeded: true }, endpoint: { failingSince: null } });
    expect(await ctx.store.getWebhookEndpoint(ctx.a.id, endpoint.id)).toStrictEqual(endpoint);
  });

  test('replayWebhookDelivery: a new pending delivery of the same message (same id and body) due now, after the endpoint\'s others; unknown answers undefined', async () => {
    const endpoint = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    const [original, later] = [message(ctx.a.id, 'payment.succeeded'), message(ctx.a.id, 'payment.failed', T0 + 1)];
    await ctx.store.queueWebhooks([original!]);
    const [claimed] = await claim(T0);
    await ctx.store.finishWebhookAttempt(claimed!.id, claimed!.leaseUntil, attempt(T0), DONE);
    await ctx.store.queueWebhooks([later!]);

    const replay = await ctx.store.replayWebhookDelivery(ctx.a.id, claimed!.id, T0 + 50);
    expect(replay).toStrictEqual({
      id: replay!.id, siteId: ctx.a.id, endpointId: endpoint.id, messageId: original!.publicId, type: 'payment.succeeded', status: 'pending',
      attempts: 0, nextAttemptAt: T0 + 50, replayOf: claimed!.id, createdAt: T0 + 50,
    });
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, replay!.id)).toStrictEqual(replay);
    const [next] = await claim(T0 + 100);
    expect(next!.messageId).toBe(later!.publicId);
    await ctx.store.finishWebhookAttempt(next!.id, next!.leaseUntil, attempt(T0 + 100), DONE);
    const [again] = await claim(T0 + 100);
    expect(again).toMatchObject({ id: replay!.id, messageId: original!.publicId, body: original!.body, replayOf: claimed!.id });
    expect(await ctx.store.replayWebhookDelivery(ctx.b.id, claimed!.id, T0)).toBeUndefined();
    expect(await ctx.store.replayWebhookDelivery(ctx.a.id, replay!.id + 100, T0)).toBeUndefined();
  });

  test('listWebhookDeliveries: newest first, afterId pages to older ones, by endpoint and by status', async () => {
    const first = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    const second = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['conversion'] }));
    await ctx.store.createWebhookEndpoint(newEndpoint(ctx.b.id));
    for (let i = 0; i < 3; i++) await ctx.store.queueWebhooks([message(ctx.a.id, 'conversion', T0 + i), message(ctx.b.id, 'conversion')]);
    const all = (await list()).map((d) => d.id);
    expect(all).toHaveLength(6);
    expect(all).toEqual([...all].sort((x, y) => y - x));

    const walked: number[] = [];
    let page = await ctx.store.listWebhookDeliveries(ctx.a.id, {}, { limit: 4 });
    expect(page.hasMore).toBe(true);
    walked.push(...page.items.map((d) => d.id));
    page = await ctx.store.listWebhookDeliveries(ctx.a.id, {}, { limit: 4, afterId: walked.at(-1) });
    expect(page.hasMore).toBe(false);
    walked.push(...page.items.map((d) => d.id));
    expect(walked).toEqual(all);
    expect(await ctx.store.listWebhookDeliveries(ctx.a.id, {}, { limit: 6 })).toMatchObject({ hasMore: false });
    expect(await ctx.store.listWebhookDeliveries(ctx.a.id, {}, { limit: 6, afterId: all.at(-1) })).toStrictEqual({ items: [], hasMore: false });

    const ofSecond = (await list({ endpointId: second.id })).map((d) => d.id);
    expect(ofSecond).toHaveLength(3);
    expect((await list({ endpointId: first.id })).every((d) => d.endpointId === first.id && !ofSecond.includes(d.id))).toBe(true);
    const [claimed] = await claim(T0 + 10, 1);
    await ctx.store.finishWebhookAttempt(claimed!.id, claimed!.leaseUntil, attempt(T0 + 10), DONE);
    expect((await list({ status: 'succeeded' })).map((d) => d.id)).toEqual([claimed!.id]);
    expect(await list({ status: 'pending' })).toHaveLength(5);
    expect((await list({ status: 'pending', endpointId: claimed!.endpointId })).every((d) => d.endpointId === claimed!.endpointId)).toBe(true);
    expect(await list({ status: 'failed' })).toEqual([]);
  });

  test('deleteWebhookEndpoint deletes its deliveries and their attempts; the other endpoints\' stay', async () => {
    const gone = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    const kept = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    await ctx.store.queueWebhooks([message(ctx.a.id)]);
    const claimed = await claim(T0);
    for (const d of claimed) await ctx.store.finishWebhookAttempt(d.id, d.leaseUntil, attempt(T0, 500), { next: { retryAt: T0 + 5 } });
    const doomed = claimed.find((d) => d.endpointId === gone.id)!;

    expect(await ctx.store.deleteWebhookEndpoint(ctx.b.id, gone.id)).toBe(false);
    expect(await ctx.store.deleteWebhookEndpoint(ctx.a.id, gone.id)).toBe(true);
    expect(await ctx.store.deleteWebhookEndpoint(ctx.a.id, gone.id)).toBe(false);
    expect(await ctx.store.getWebhookEndpoint(ctx.a.id, gone.id)).toBeUndefined();
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, doomed.id)).toBeUndefined();
    expect(await ctx.store.listWebhookAttempts(ctx.a.id, doomed.id)).toEqual([]);
    expect((await list()).map((d) => d.endpointId)).toEqual([kept.id]);
    expect(await claim(T0 + 5)).toHaveLength(1);
  });

  test('deleteOldWebhookRecords: attempts made before the time, deliveries finished before it, then messages nothing sends; answers how many', async () => {
    await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id));
    const [done, pending] = [message(ctx.a.id, 'member.created'), message(ctx.a.id, 'member.updated')];
    await ctx.store.queueWebhooks([done!, pending!]);
    const [first] = await claim(T0);
    await ctx.store.finishWebhookAttempt(first!.id, first!.leaseUntil, attempt(T0, 500), { next: { retryAt: T0 + 10 } });
    const [second] = await claim(T0 + 10);
    await ctx.store.finishWebhookAttempt(second!.id, second!.leaseUntil, attempt(T0 + 10), DONE);
    const [retried] = await claim(T0 + 1_000);
    await ctx.store.finishWebhookAttempt(retried!.id, retried!.leaseUntil, attempt(T0 + 1_000, 500), { next: { retryAt: T0 + 5_000 } });
    // A replay of the finished one keeps its message alive.
    const replay = await ctx.store.replayWebhookDelivery(ctx.a.id, first!.id, T0 + 1_000);

    expect(await ctx.store.deleteOldWebhookRecords(T0)).toBe(0);
    // The first delivery's two attempts, the pending one's none yet (made at T0 + 1000), the delivery itself; its message is replayed.
    expect(await ctx.store.deleteOldWebhookRecords(T0 + 500)).toBe(3);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, first!.id)).toBeUndefined();
    expect(await ctx.store.listWebhookAttempts(ctx.a.id, retried!.id)).toHaveLength(1);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, retried!.id)).toMatchObject({ status: 'pending', attempts: 1 });
    // Both finish; then everything goes.
    const [retriedAgain] = await claim(T0 + 5_000, 1);
    expect(retriedAgain).toMatchObject({ id: retried!.id });
    await ctx.store.finishWebhookAttempt(retriedAgain!.id, retriedAgain!.leaseUntil, attempt(T0 + 5_000), DONE);
    const [last] = await claim(T0 + 6_000);
    expect(last!.id).toBe(replay!.id);
    await ctx.store.finishWebhookAttempt(last!.id, last!.leaseUntil, attempt(T0 + 6_000), DONE);
    // 3 attempts, 2 deliveries, 2 messages.
    expect(await ctx.store.deleteOldWebhookRecords(T0 + 10_000)).toBe(7);
    expect(await list()).toEqual([]);
    expect(await ctx.store.deleteOldWebhookRecords(T0 + 10_000)).toBe(0);
  });

  test('deleteOldWebhookRecords: what waits for an endpoint disabled since before the time goes, with its attempts; an enabled one\'s stays', async () => {
    const off = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['member.created'] }));
    const on = await ctx.store.createWebhookEndpoint(newEndpoint(ctx.a.id, { events: ['member.created'], secret: 'whsec_on' }));
    await ctx.store.queueWebhooks([message(ctx.a.id, 'member.created', T0)]);
    const [toOff, toOn] = await claim(T0);
    expect([toOff!.endpointId, toOn!.endpointId]).toEqual([off.id, on.id]);
    // Attempts made after the times below, so that only the delivery's going takes them.
    for (const d of [toOff!, toOn!]) await ctx.store.finishWebhookAttempt(d.id, d.leaseUntil, attempt(T0 + 200, 500), { next: { retryAt: T0 + 300 } });
    await ctx.store.updateWebhookEndpoint(ctx.a.id, off.id, { disabledAt: T0 + 100, disabledReason: 'failing' });
    // Disabled at T0 + 100: not before T0 + 100 itself.
    expect(await ctx.store.deleteOldWebhookRecords(T0 + 100)).toBe(0);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, toOff!.id)).toMatchObject({ status: 'pending' });
    // Past it: the disabled endpoint's pending delivery goes, its attempt with it; the enabled one's stays.
    expect(await ctx.store.deleteOldWebhookRecords(T0 + 150)).toBe(1);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, toOff!.id)).toBeUndefined();
    expect(await ctx.store.listWebhookAttempts(ctx.a.id, toOff!.id)).toEqual([]);
    expect(await ctx.store.getWebhookDelivery(ctx.a.id, toOn!.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await ctx.store.listWebhookAttempts(ctx.a.id, toOn!.id)).toHaveLength(1);
  });
}
