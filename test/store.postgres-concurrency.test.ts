/**
 * The PostgreSQL store under writers that run at once, as several processes of one installation
 * do: each test opens two stores (two pools, as two processes would) on one schema and races
 * them. What SQLite gets from its one writer at a time, the PostgreSQL store must get from
 * SERIALIZABLE transactions and single conditional statements: nothing lost, no limit passed,
 * nothing done twice.
 */
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { openPostgresStore } from '../src/service/store/postgres';
import { connectPostgres } from '../src/service/store/postgres/connection';
import type { NewMail, SendLimits } from '../src/service/store/records';
import type { Store } from '../src/service/store/store';
import { T0, addMembers, newSite } from './store-contract/fixtures';
import { describePostgres, newPostgresSchema } from './support/postgres';

const HOUR = 3_600_000;

describePostgres('postgres store, concurrent writers', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two stores on one fresh schema, with a site and `members` members made through the first. */
  async function twoProcesses(members = 1) {
    const { url, drop } = await newPostgresSchema();
    cleanups.push(drop);
    const stores: [Store, Store] = [await openPostgresStore(url, { max: 10 }), await openPostgresStore(url, { max: 10 })];
    for (const store of stores) cleanups.push(() => store.close());
    const site = await stores[0].createSite(newSite('alpha'));
    const ids = await addMembers(stores[0], site.id, members);
    /** The store the i-th racer writes through: every other one each. */
    const via = (i: number) => stores[i % 2]!;
    return { url, stores, site, members: ids, via };
  }
  const mail = (siteId: number, to: string, overrides: Partial<NewMail> = {}): NewMail => ({
    siteId, kind: 'signInCode', to, subject: 'Your code', text: 'Your code is 123456.', createdAt: T0, ...overrides,
  });

  test('20 concurrent updateMemberMetadata on one member, through two pools, each adding a key: none is lost', async () => {
    const { site, members: [ann], via } = await twoProcesses();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => via(i).updateMemberMetadata(site.id, ann!, (current) => ({ ...current, [`key${i}`]: i }))),
    );
    const metadata = (await via(0).getMemberMetadata(site.id, ann!))!;
    expect(Object.keys(metadata).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `key${i}`).sort());
    // Each update saw every update before it: the answers hold 1, 2, … 20 keys.
    expect(results.map((r) => Object.keys(r!).length).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  test('20 concurrent spendCodeTry with max 5, through two pools: exactly 5 are true, and 5 tries are counted', async () => {
    const { site, members: [ann], via } = await twoProcesses();
    const token = { siteId: site.id, memberId: ann!, purpose: 'signIn' as const, tokenHash: 't-1', codeHash: 'c-1', createdAt: T0, expiresAt: T0 + HOUR };
    const open: SendLimits = { kinds: ['signInCode'], since: T0, perAddress: 100, perSite: 100 };
    expect(await via(0).queueRequestedMail({ mail: mail(site.id, 'ann@example.com'), token, limits: open })).toBe('queued');
    const { id } = (await via(0).findMemberToken('t-1'))!;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => via(i).spendCodeTry(id, 5)));
    expect(answers.filter(Boolean)).toHaveLength(5);
    expect((await via(1).findMemberToken('t-1'))?.attempts).toBe(5);
  });

  test('claimMail from two pools at once never returns one mail twice, and between them claims every due mail', async () => {
    const { site, via } = await twoProcesses(0);
    const ids = await via(0).queueMail(Array.from({ length: 60 }, (_, i) => mail(site.id, `m${i}@example.com`)));
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => via(i).claimMail(T0, 10, 60_000)));
    const claimed = claims.flat().map((m) => m.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBe(Math.min(60, 8 * 10));
    expect(claimed.sort((a, b) => a - b)).toEqual(ids);
    for (const m of claims.flat()) expect(m.attempts).toBe(1);
    expect(await via(1).claimMail(T0, 10, 60_000)).toEqual([]);
  });

  test('claimMail skips a mail another sender holds locked instead of waiting for it', async () => {
    const { url, site, via } = await twoProcesses(0);
    const [held, free] = await via(0).queueMail([mail(site.id, 'held@example.com'), mail(site.id, 'free@example.com')]);
    // Another sender mid-claim: its transaction holds the oldest due mail's row.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    cleanups.push(() => other.end());
    await other.query('BEGIN');
    await other.query('SELECT id FROM mail_outbox WHERE id = $1 FOR UPDATE', [held]);
    expect((await via(1).claimMail(T0, 10, 60_000)).map((m) => m.id)).toEqual([free]);
    await other.query('ROLLBACK');
    expect((await via(0).claimMail(T0, 10, 60_000)).map((m) => m.id)).toEqual([held]);
  });

  test('claimWebhookDeliveries from two pools at once: disjoint claims, at most one delivery of an endpoint in flight, every endpoint\'s first taken', async () => {
    const { site, via } = await twoProcesses(0);
    const endpoints = [];
    for (let i = 0; i < 30; i++) {
      endpoints.push(await via(0).createWebhookEndpoint({
        siteId: site.id, url: `https://h${i}.example.com/`, allowPrivate: false, secret: 'whsec_x', source: 'cli', createdAt: T0,
      }));
    }
    const message = (n: number) => ({ siteId: site.id, publicId: `msg_race${n}`, type: 'conversion' as const, body: `{"n":${n}}`, createdAt: T0 });
    // Two messages: each endpoint has two pending deliveries, of which only the first may go.
    expect(await via(0).queueWebhooks([message(1), message(2)])).toBe(60);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => via(i).claimWebhookDeliveries(T0, 5, 60_000)));
    const claimed = claims.flat();
    expect(new Set(claimed.map((d) => d.id)).size).toBe(claimed.length);
    expect(new Set(claimed.map((d) => d.endpointId)).size).toBe(claimed.length);
    expect(claimed.length).toBe(30);
    expect(claimed.every((d) => d.messageId === 'msg_race1')).toBe(true);
    expect(await via(1).claimWebhookDeliveries(T0, 50, 60_000)).toEqual([]);
  });

  test('claimWebhookDeliveries skips a delivery another sender holds locked instead of waiting for it', async () => {
    const { url, site, via } = await twoProcesses(0);
    for (const host of ['held', 'free']) {
      await via(0).createWebhookEndpoint({ siteId: site.id, url: `https://${host}.example.com/`, allowPrivate: false, secret: 'whsec_x', source: 'cli', createdAt: T0 });
    }
    await via(0).queueWebhooks([{ siteId: site.id, publicId: 'msg_held', type: 'conversion', body: '{}', createdAt: T0 }]);
    const [held, free] = (await via(0).listWebhookDeliveries(site.id, {}, { limit: 10 })).items.map((d) => d.id).sort((a, b) => a - b);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    cleanups.push(() => other.end());
    await other.query('BEGIN');
    await other.query('SELECT id FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [held]);
    expect((await via(1).claimWebhookDeliveries(T0, 10, 60_000)).map((d) => d.id)).toEqual([free]);
    await other.query('ROLLBACK');
    expect((await via(0).claimWebhookDeliveries(T0, 10, 60_000)).map((d) => d.id)).toEqual([held]);
  });

  test('20 concurrent queueRequestedMail at a send limit of 3 per address, through two pools: exactly 3 are queued, with their tokens', async () => {
    const { site, members: [ann], via } = await twoProcesses();
    const limits: SendLimits = { kinds: ['signInCode'], since: T0, perAddress: 3, perSite: 100 };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        via(i).queueRequestedMail({
          mail: mail(site.id, 'ann@example.com', { createdAt: T0 + i }),
          token: { siteId: site.id, memberId: ann!, purpose: 'passwordReset', tokenHash: `reset-${i}`, createdAt: T0 + i, expiresAt: T0 + HOUR },
          limits,
        }),
      ),
    );
    expect(answers.filter((a) => a === 'queued')).toHaveLength(3);
    expect(answers.filter((a) => a === 'addressLimit')).toHaveLength(17);
    expect(await via(0).countMail(site.id, T0, 'ann@example.com')).toBe(3);
    const tokens = await Promise.all(answers.map((_, i) => via(1).findMemberToken(`reset-${i}`)));
    // A refused request wrote no token; each queued one wrote its own.
    expect(tokens.map(Boolean)).toEqual(answers.map((a) => a === 'queued'));
  });

  test('two concurrent redeemMemberToken of one token, through two pools: exactly one redeems it, and its effects are written once', async () => {
    const { site, members: [ann], via } = await twoProcesses();
    const token = { siteId: site.id, memberId: ann!, purpose: 'signIn' as const, tokenHash: 'link', createdAt: T0, expiresAt: T0 + HOUR };
    const open: SendLimits = { kinds: ['signInCode'], since: T0, perAddress: 100, perSite: 100 };
    expect(await via(0).queueRequestedMail({ mail: mail(site.id, 'ann@example.com'), token, limits: open })).toBe('queued');
    const { id } = (await via(0).findMemberToken('link'))!;
    const effects = (n: number) => ({
      member: { emailConfirmedAt: T0 + 10 },
      session: { tokenHash: `session-${n}`, createdAt: T0 + 10, lastUsedAt: T0 + 10, expiresAt: T0 + HOUR },
      events: [{ eventType: 'login' as const, details: { n }, createdAt: T0 + 10 }],
    });
    const outcomes = await Promise.all([0, 1].map((n) => via(n).redeemMemberToken(id, T0 + 10, effects(n))));
    const winners = outcomes.flatMap((o, n) => (o.redeemed ? [n] : []));
    expect(winners).toHaveLength(1);
    expect(outcomes[1 - winners[0]!]).toEqual({ redeemed: false, reason: 'used' });
    expect(await via(0).findSessionByHash(`session-${winners[0]}`)).toBeDefined();
    expect(await via(0).findSessionByHash(`session-${1 - winners[0]!}`)).toBeUndefined();
    expect((await via(1).listMemberEvents(site.id, { memberId: ann! }, { limit: 10 })).items.map((e) => e.details)).toEqual([{ n: winners[0] }]);
  });

  test('10 concurrent savePaymentMethod for one member, through two pools: every save succeeds and the member keeps one card, a saved one', async () => {
    const { site, members: [ann], via } = await twoProcesses();
    const saved = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        via(i).savePaymentMethod({
          siteId: site.id, memberId: ann!, processorId: `pm_${i}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, createdAt: T0 + i,
        }),
      ),
    );
    expect(new Set(saved.map((card) => card.id)).size).toBe(10);
    const kept = await via(1).getPaymentMethod(site.id, ann!);
    expect(saved).toContainEqual(kept);
  });

  test('40 transactions that each read what all the others write, at once, on a pool of 10: every one commits (the retries spread out until they stop colliding)', async () => {
    // A burst of sign-ups is this shape: each reads the index the others insert into, so PostgreSQL
    // lets about one of them commit a round and asks the rest to run again. The last ones lose many
    // rounds: a limit of 20 attempts refused some here (and a sign-up of a burst of 20 on a busy
    // machine, test/cli/durability.test.ts); the retries now go on for a time instead.
    const { url, drop } = await newPostgresSchema();
    cleanups.push(drop);
    const conn = await connectPostgres(url, { max: 10 });
    cleanups.push(() => conn.close());
    await conn.run('CREATE TABLE race (n integer NOT NULL)');
    await Promise.all(
      Array.from({ length: 40 }, () =>
        conn.transaction(async (tx) => {
          const seen = Number((await tx.first('SELECT count(*) AS n FROM race'))!.n);
          await tx.first('SELECT pg_sleep(0.06)');
          await tx.run('INSERT INTO race (n) VALUES (?)', seen);
        }),
      ),
    );
    // Serializable: each saw every insert committed before it, so the counts seen are 0 … 39.
    const seen = (await conn.all('SELECT n FROM race ORDER BY n')).map((row) => Number(row.n));
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
