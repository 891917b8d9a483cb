/**
 * `svc members …` (issue 32) on a SQLite file of the demo site, in this process: each owner action
 * by a member's id or e-mail, its result as one line of JSON on stdout, recorded `by: { cli: true }`;
 * every bad argument a usage error (exit 2) and every refusal exit 1, changing nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { systemClock } from '../../src/service/domain/clock';
import { ensureDemoSite, seedMembers } from '../../src/service/seed/demo';
import type { MembershipRecord, SiteRecord } from '../../src/service/store/records';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';
import { runSvc } from '../support/svc-main';

let dir: string;
let db: string;
let site: SiteRecord;
const svc = (...args: string[]) => runSvc(['members', ...args, '--db', db], {});
const withDb = async <T>(use: (store: Store) => Promise<T>): Promise<T> => {
  const store = openSqliteStore(db);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
};
const used = new Set<number>();
/** An active membership of a member no other test used. */
const activeMembership = (wanted: (m: MembershipRecord) => boolean = () => true) =>
  withDb(async (store) => {
    const all = (await store.listMemberships(site.id, { status: 'active' }, { limit: 10_000 })).items;
    const m = all.find((x) => !used.has(x.memberId) && wanted(x))!;
    used.add(m.memberId);
    return m;
  });
const eventsOf = (memberId: number) => withDb(async (store) => (await store.listMemberEvents(site.id, { memberId }, { limit: 1000 })).items);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-members-cli-'));
  db = join(dir, 'demo.db');
  await withDb(async (store) => {
    site = (await ensureDemoSite(store, systemClock)).site;
    await seedMembers(store, systemClock, site, { members: 60, seed: 3 });
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('cancel by membership id, now: one line of JSON, the membership cancelled, the event by the CLI', async () => {
  const m = await activeMembership();
  const run = await svc('cancel', '--site', 'demo', String(m.id));
  expect(run.code, run.err).toBe(0);
  expect(run.out).toHaveLength(1);
  expect(JSON.parse(run.out[0]!)).toMatchObject({ id: m.id, status: 'cancelled' });
  expect(run.err).toContain(`membership ${m.id} cancelled`);
  expect((await eventsOf(m.memberId)).filter((e) => e.eventType === 'cancellation').at(-1)?.details).toMatchObject({ by: { cli: true }, when: 'now' });
  // Again: refused, exit 1, nothing changed.
  const again = await svc('cancel', '--site', 'demo', String(m.id));
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/cancelled already; nothing changed/);
});

test('cancel by member e-mail and --plan, at the period\'s end', async () => {
  const m = await activeMembership((x) => x.type === 'subscription' && x.billingPeriodEnd !== undefined && x.cancelsAt === undefined);
  const { email, plan } = await withDb(async (store) => ({ email: (await store.getMember(site.id, m.memberId))!.email, plan: (await store.getPlan(site.id, m.planId))! }));
  const run = await svc('cancel', '--site', 'demo', email.toUpperCase(), '--plan', plan.publicId, '--at-period-end');
  expect(run.code, run.err).toBe(0);
  expect(JSON.parse(run.out[0]!)).toMatchObject({ id: m.id, status: 'active', cancelsOn: new Date(m.billingPeriodEnd!).toISOString() });
});

test('refund part of an invoice, then the rest', async () => {
  const invoice = await withDb(async (store) => (await store.listInvoices(site.id, { status: 'paid' }, { limit: 1000 })).items.find((i) => i.totalCents > 100 && !used.has(i.memberId))!);
  used.add(invoice.memberId);
  const part = await svc('refund', '--site', 'demo', String(invoice.id), '--amount-cents', '100', '--expected-refunded-cents', '0');
  expect(part.code, part.err).toBe(0);
  expect(JSON.parse(part.out[0]!)).toMatchObject({ id: invoice.id, status: 'paid', refundedCents: 100 });
  // The same command again (it looked as if it had failed): refused on the refunded amount it expected.
  const again = await svc('refund', '--site', 'demo', String(invoice.id), '--amount-cents', '100', '--expected-refunded-cents', '0');
  expect(again).toMatchObject({ code: 1, out: [] });
  expect(again.err).toMatch(/has 100 refunded now, not 0 as expected/);
  const rest = await svc('refund', '--site', 'demo', String(invoice.id));
  expect(JSON.parse(rest.out[0]!)).toMatchObject({ status: 'refunded', refundedCents: invoice.totalCents });
  expect(rest.err).toContain(`${invoice.totalCents} of ${invoice.totalCents}`);
});

test('comp a plan until a date; block, unblock; export prints JSON; erase asks for --yes', async () => {
  const m = await activeMembership();
  const plan = await withDb(async (store) => {
    const held = new Set((await store.listMembershipsOfMember(site.id, m.memberId)).filter((x) => x.status === 'active').map((x) => x.planId));
    return (await store.listPlans(site.id, { statuses: ['enabled'] }, { limit: 100 })).items.find((p) => !held.has(p.id))!;
  });
  const until = new Date(Date.now() + 10 * 86_400_000).toISOString();
  const comp = await svc('comp', '--site', 'demo', String(m.memberId), '--plan', String(plan.id), '--until', until);
  expect(comp.code, comp.err).toBe(0);
  expect(JSON.parse(comp.out[0]!)).toMatchObject({ memberId: m.memberId, planId: plan.id, comp: true, expiresOn: until });

  expect(JSON.parse((await svc('block', '--site', 'demo', String(m.memberId))).out[0]!).status).toBe('blocked');
  expect(JSON.parse((await svc('unblock', '--site', 'demo', String(m.memberId))).out[0]!).status).toBe('approved');

  const exported = await svc('export', '--site', 'demo', String(m.memberId));
  expect(exported.code).toBe(0);
  const document = JSON.parse(exported.out.join('\n'));
  expect(document.member.id).toBe(m.memberId);
  expect(document.memberships.some((x: { comp?: boolean }) => x.comp)).toBe(true);

  const refused = await svc('erase', '--site', 'demo', String(m.memberId));
  expect(refused.code).toBe(2);
  expect(refused.err).toMatch(/--yes/);
  expect((await withDb((store) => store.getMember(site.id, m.memberId)))!.status).toBe('approved');
  const erased = await svc('erase', '--site', 'demo', String(m.memberId), '--yes');
  expect(erased.code, erased.err).toBe(0);
  expect(JSON.parse(erased.out[0]!)).toMatchObject({ id: m.memberId, status: 'erased', email: `erased-${m.memberId}@erased.invalid` });
  const types = (await eventsOf(m.memberId)).filter((e) => (e.details as { by?: unknown }).by !== undefined).map((e) => e.eventType);
  expect(types).toEqual(['membershipComped', 'memberBlocked', 'memberUnblocked', 'memberExported', 'memberErased']);
});

test.each([
  [['nope', '--site', 'demo', '1'], 2, /unknown members action nope/],
  [['block', '1'], 2, /needs --site/],
  [['block', '--site', 'demo'], 2, /exactly one member/],
  [['refund', '--site', 'demo', 'abc'], 2, /the invoice must be an id/],
  [['refund', '--site', 'demo', '1', '--amount-cents', '12.50'], 2, /--amount-cents takes a whole number/],
  [['refund', '--site', 'demo', '1', '--expected-refunded-cents', '1.5'], 2, /--expected-refunded-cents takes the invoice's refundedCents/],
  [['comp', '--site', 'demo', '1'], 2, /needs --plan/],
  [['comp', '--site', 'demo', '1', '--plan', '1', '--until', 'soon'], 2, /--until takes a date-time/],
  [['block', '--site', 'nosuch', '1'], 1, /no site nosuch/],
  [['block', '--site', 'demo', 'nobody@example.com'], 1, /no member nobody@example.com in site demo; nothing changed/],
  [['comp', '--site', 'demo', '1', '--plan', 'no-such-plan'], 1, /no plan no-such-plan/],
])('svc members %j exits %i with a clear error', async (args, code, message) => {
  const run = await svc(...args);
  expect(run.code).toBe(code);
  expect(run.err).toMatch(message);
  expect(run.out).toEqual([]);
});
