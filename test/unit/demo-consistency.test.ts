/**
 * The demo's data agrees with itself (issue 14): what each seeded member holds is what the
 * service would have billed for it. Read as clients read it: the Admin API for the members, their
 * memberships, plans and events; the member API, in a session opened for the member (seeded
 * members have no password, so no sign-in), for their memberships, invoices and saved card; and
 * the store for what neither shows, the processor ids the billing run charges. Then the billing
 * run itself charges the renewals that come due.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCOPES } from '../../src/contract/admin';
import type { InvoiceSummary, MemberInfo, SavedCard } from '../../src/contract/member';
import { createServiceApp } from '../../src/service/app';
import { issueApiKey } from '../../src/service/auth/api-keys';
import { createPasswordHasher, TEST_SCRYPT } from '../../src/service/auth/passwords';
import { nodeScrypt } from '../../src/service/platform/node-scrypt';
import { firstChargeAt } from '../../src/service/billing/membership-terms';
import { quotePlan } from '../../src/service/billing/quote';
import { runRenewals } from '../../src/service/billing/renewals';
import { openSession } from '../../src/service/member/sessions';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import type { BillingRowsWriter } from '../../src/service/seed/batch-rows';
import { ensureDemoSite, seedMembers } from '../../src/service/seed/demo';
import { DEMO_LOGIN, ensureDemoLogin } from '../../src/service/seed/demo-login';
import { createMemoryStore } from '../../src/service/store/memory';
import type { InvoiceRecord, MembershipRecord, PlanRecord, SiteRecord } from '../../src/service/store/records';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';
import { walkPages } from '../admin/helpers/requests';
import { adminRequest } from '../support/admin-request';

const NOW = Date.UTC(2026, 10, 23, 12);
const DAY = 86_400_000;
const clock = () => NOW;

const STORES: ReadonlyArray<[string, () => Store]> = [
  ['memory', createMemoryStore],
  ['sqlite in memory', () => openSqliteStore(':memory:')],
];

/** The demo as `npm start` makes it: the site, 300 members of seed 1, and the published login. */
async function seedDemo(store: Store, now = NOW): Promise<SiteRecord> {
  const at = () => now;
  const { site } = await ensureDemoSite(store, at);
  await seedMembers(store, at, site, { members: 300, seed: 1 });
  await ensureDemoLogin(store, at, site, createPasswordHasher(nodeScrypt, TEST_SCRYPT));
  return site;
}

interface AdminMember {
  id: number;
  email: string;
  status: 'approved' | 'pending' | 'blocked';
}
interface AdminMembership {
  id: number;
  memberId: number;
  planId: number;
  status: string;
  type: PlanRecord['type'];
  createdAt: string;
  cancelsOn?: string;
  billing?: { billingPeriodEnd: string };
}
interface AdminEvent {
  id: number;
  memberId: number;
  eventType: string;
  details: Record<string, unknown>;
  createdAt: string;
}

/** Everything a client can read about one member, and the store's records beside it. */
interface MemberView {
  member: AdminMember;
  memberships: AdminMembership[];
  events: AdminEvent[];
  /** From GET /me; absent for a blocked member (the member API turns them away). */
  me?: MemberInfo;
  /** GET /invoices, or the store's for a blocked member. */
  invoices: InvoiceSummary[];
  /** GET /payment-method (undefined on its 204). */
  card?: SavedCard;
  stored: { invoices: InvoiceRecord[]; memberships: MembershipRecord[]; customerId?: string; cardId?: string };
}

async function readDemo(store: Store, site: SiteRecord) {
  const app: Hono = await createServiceApp({
    store,
    clock,
    passwords: createPasswordHasher(nodeScrypt, TEST_SCRYPT),
    processor: new TestPaymentProcessor({ clock, store }),
  });
  const { key } = await issueApiKey(store, clock, { siteId: site.id, scopes: [...SCOPES] });
  const walk = async <T extends { id: number }>(path: string) => (await walkPages<T>(app, path, { key, pageSize: 100 })).items;
  const members = await walk<AdminMember>('/members');
  const memberships = await walk<AdminMembership>('/memberships');
  const events = await walk<AdminEvent>('/memberEvents');
  const plans = new Map<number, any>();
  for (const planId of new Set(memberships.map((m) => m.planId))) {
    const res = await adminRequest(app, `/admin/v1/plans/${planId}`, { key });
    expect(res.status).toBe(200);
    plans.set(planId, res.body);
  }

  const memberApi = async (token: string, path: string) =>
    app.request(`http://svc.test/member/v1/sites/${site.subdomain}${path}`, {
      headers: { authorization: `Bearer ${token}`, origin: `http://${site.domain}` },
    });
  const views: MemberView[] = [];
  for (const member of members) {
    const stored = {
      invoices: await store.listInvoicesOfMember(site.id, member.id),
      memberships: await store.listMembershipsOfMember(site.id, member.id),
      customerId: (await store.getMember(site.id, member.id))?.processorCustomerId,
      cardId: (await store.getPaymentMethod(site.id, member.id))?.processorId,
    };
    const view: MemberView = {
      member,
      memberships: memberships.filter((m) => m.memberId === member.id),
      events: events.filter((e) => e.memberId === member.id),
      invoices: [],
      stored,
    };
    if (member.status === 'blocked') {
      view.invoices = stored.invoices.map((i) => ({
        id: i.processorInvoiceId, description: i.description, subTotalCents: i.subTotalCents, taxCents: i.taxCents,
        totalCents: i.totalCents, currency: i.currency, status: i.status, createdAt: new Date(i.createdAt).toISOString(),
      }));
      const card = await store.getPaymentMethod(site.id, member.id);
      if (card) view.card = { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
    } else {
      const { token } = await openSession(store, clock, site.id, member.id);
      const me = await memberApi(token, '/me');
      expect(me.status).toBe(200);
      view.me = (await me.json()) as MemberInfo;
      const invoices = await memberApi(token, '/invoices');
      expect(invoices.status).toBe(200);
      view.invoices = (await invoices.json()) as InvoiceSummary[];
      const card = await memberApi(token, '/payment-method');
      expect([200, 204]).toContain(card.status);
      if (card.status === 200) view.card = (await card.json()) as SavedCard;
    }
    views.push(view);
  }
  const storedPlans = new Map((await store.listPlans(site.id, { statuses: ['enabled', 'disabled', 'archived', 'deleted'] }, { limit: 1000 })).items.map((p) => [p.id, p]));
  return { views, plans, storedPlans };
}

/** Renews by itself: a subscription, or instalments still to pay, that is active and has a next charge. */
const renews = (m: AdminMembership) => m.status === 'active' && m.billing !== undefined && m.cancelsOn === undefined;
const isPaid = (type: string) => type !== 'free';
/** A card the billing run can charge: a known brand, not expired. */
const chargeable = (card: SavedCard | undefined) =>
  card !== undefined && card.brand !== 'unknown' && /^\d{4}$/.test(card.last4) && Date.UTC(card.expYear, card.expMonth, 1) > NOW;

for (const [storeName, newStore] of STORES) {
  describe(`${storeName} store`, () => {
    let store: Store;
    let data: Awaited<ReturnType<typeof readDemo>>;
    beforeAll(async () => {
      store = newStore();
      const site = await seedDemo(store);
      data = await readDemo(store, site);
    });
    afterAll(async () => {
      await store.close();
    });

    test('the demo has members of every kind this file checks', () => {
      const { views } = data;
      expect(views.length).toBe(301);
      expect(views.some((v) => v.member.email === DEMO_LOGIN.email)).toBe(true);
      expect(views.filter((v) => v.memberships.some(renews)).length).toBeGreaterThan(30);
      expect(views.filter((v) => v.memberships.some((m) => m.type === 'oneTimePayment')).length).toBeGreaterThan(10);
      expect(views.filter((v) => v.memberships.some((m) => m.type === 'multiPayment')).length).toBeGreaterThan(5);
      expect(views.filter((v) => v.memberships.length > 0 && v.memberships.every((m) => !isPaid(m.type))).length).toBeGreaterThan(30);
    });

    test('a member whose membership renews has a saved card the billing run can charge, and paid invoices for that plan', () => {
      for (const v of data.views) {
        const renewing = v.memberships.filter(renews);
        if (renewing.length === 0) continue;
        const who = `member ${v.member.id} (${renewing.map((m) => `${m.type} ${m.id}`).join(', ')})`;
        expect(chargeable(v.card), `${who} has no card to charge: ${JSON.stringify(v.card)}`).toBe(true);
        expect(v.stored.customerId, `${who} has no processor customer`).toMatch(/^cus_test_[A-Za-z0-9]+$/);
        for (const m of renewing) {
          const plan = data.storedPlans.get(m.planId)!;
          const failing = v.me?.memberships.find((w) => w.id === m.id)?.paymentFailure ?? v.stored.memberships.find((s) => s.id === m.id)!.paymentFailure;
          // The billing run's charges on this card succeed unless the membership shows they fail.
          expect(v.stored.cardId, `${who}: card id`).toMatch(failing ? /^pm_test_declined_/ : /^pm_test_ok_/);
          const paid = v.invoices.filter((i) => i.status === 'paid' && i.description.startsWith(plan.name));
          if (plan.type !== 'free' && plan.type !== 'oneTimePayment' && plan.billing.trialPeriodDays && firstChargeAt(plan.billing, Date.parse(m.createdAt)) > NOW) {
            // Still in its trial: nothing has been charged yet.
            expect(paid, `${who}: in a trial, charged`).toEqual([]);
          } else {
            expect(paid.length, `${who}: no paid invoice for ${plan.name} ${m.id}`).toBeGreaterThan(0);
          }
        }
      }
    });

    test('a paid one-time or instalment membership has the paid invoices of what was charged for it', () => {
      let checked = 0;
      for (const v of data.views) {
        for (const m of v.memberships) {
          if (m.type !== 'oneTimePayment' && m.type !== 'multiPayment') continue;
          const plan = data.storedPlans.get(m.planId)!;
          const stored = v.stored.memberships.find((s) => s.id === m.id)!;
          const paid = v.stored.invoices.filter((i) => i.membershipId === m.id && i.status === 'paid');
          const first = quotePlan(plan, stored.createdAt).dueNow;
          const signUp = paid.find((i) => i.createdAt === stored.createdAt);
          expect(signUp, `member ${v.member.id}: no invoice for the sign-up to ${plan.name}`).toBeDefined();
          expect(signUp).toMatchObject({ subTotalCents: first.subTotalCents, taxCents: first.taxCents, totalCents: first.grandTotalCents, description: plan.name });
          if (m.type === 'multiPayment') expect(paid).toHaveLength(stored.paymentsMade!);
          else expect(paid).toHaveLength(1);
          // The member sees the same invoices.
          for (const i of paid) expect(v.invoices.map((s) => s.id)).toContain(i.processorInvoiceId);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(15);
    });

    test('every invoice is one the service would have written: amounts from the plan, for a membership of the member', () => {
      for (const v of data.views) {
        for (const i of v.stored.invoices) {
          expect(i.totalCents).toBe(i.subTotalCents + i.taxCents);
          expect(i.createdAt).toBeLessThanOrEqual(NOW);
          expect(i.processorInvoiceId).toMatch(/^in_test_[A-Za-z0-9]+$/);
          expect(i.processorChargeId).toMatch(/^ch_test_[A-Za-z0-9]+$/);
          const plan = data.storedPlans.get(i.planId)!;
          expect(plan.type).not.toBe('free');
          if (plan.type === 'free') continue;
          expect(i.currency).toBe(plan.billing.currency);
          if (i.membershipId === undefined) {
            // A declined first charge: no membership, and the abandoned conversion names it.
            expect(i.status).toBe('failed');
            const event = v.events.find((e) => e.eventType === 'abandonedConversion' && e.details.invoiceId === i.processorInvoiceId);
            expect(event, `member ${v.member.id}: failed invoice ${i.processorInvoiceId} without its abandoned conversion`).toBeDefined();
            expect(event!.details.chargeId).toBe(i.processorChargeId);
            continue;
          }
          const m = v.stored.memberships.find((s) => s.id === i.membershipId);
          expect(m, `invoice ${i.id} of member ${v.member.id} names membership ${i.membershipId}`).toBeDefined();
          expect(m!.planId).toBe(i.planId);
          expect(i.createdAt).toBeGreaterThanOrEqual(m!.createdAt);
          const quote = quotePlan(plan, i.createdAt);
          if (i.createdAt === m!.createdAt && quote.dueNow.grandTotalCents > 0) {
            expect(i.totalCents).toBe(quotePlan(plan, m!.createdAt).dueNow.grandTotalCents);
          } else {
            expect(i.totalCents).toBe(quote.recurring!.amountCents);
          }
        }
      }
    });

    test('a membership that shows a payment failure has its failed attempts invoiced, a card, and paymentFailed events naming them', () => {
      for (const v of data.views) {
        for (const s of v.stored.memberships.filter((m) => m.paymentFailure)) {
          const failed = v.stored.invoices.filter((i) => i.membershipId === s.id && i.status === 'failed');
          expect(failed.length, `member ${v.member.id} membership ${s.id}`).toBeGreaterThan(0);
          expect(v.card).toBeDefined();
          const named = v.events.filter((e) => e.eventType === 'paymentFailed' && e.details.membershipId === s.id).map((e) => e.details.invoiceId);
          expect(new Set(named)).toEqual(new Set(failed.map((i) => i.processorInvoiceId)));
          if (s.status === 'active') expect(s.billingPeriodEnd).toBeLessThanOrEqual(NOW);
        }
      }
    });

    test('a member on free plans only has no invoices and no card, unless a declined paid sign-up left them', () => {
      let checked = 0;
      for (const v of data.views) {
        if (v.memberships.some((m) => isPaid(m.type))) continue;
        const abandoned = v.events.filter((e) => e.eventType === 'abandonedConversion');
        if (abandoned.length === 0) {
          expect(v.invoices, `member ${v.member.id}`).toEqual([]);
          expect(v.card, `member ${v.member.id}`).toBeUndefined();
          checked++;
        } else {
          // The declined first charge's failed invoice, and the card it was declined on, stay (docs/test-cards.md).
          expect(v.invoices.map((i) => [i.id, i.status])).toEqual(abandoned.map((e) => [e.details.invoiceId, 'failed']));
          expect(v.stored.cardId).toMatch(/^pm_test_declined_/);
        }
      }
      expect(checked).toBeGreaterThan(30);
    });
  });
}

test('the billing run charges the seeded renewals as they come due, on the saved cards', async () => {
  const store = openSqliteStore(':memory:');
  try {
    const site = await seedDemo(store);
    const later = NOW + 40 * DAY;
    const before = (await store.listMemberships(site.id, { status: 'active' }, { limit: 10_000 })).items;
    const due = [];
    for (const m of before) {
      if (m.billingPeriodEnd === undefined || m.billingPeriodEnd > later || m.cancelsAt !== undefined || m.paymentFailure) continue;
      const card = await store.getPaymentMethod(site.id, m.memberId);
      if (card?.processorId.startsWith('pm_test_ok_')) due.push(m);
    }
    expect(due.length).toBeGreaterThan(10);
    const processor = new TestPaymentProcessor({ clock: () => later, store });
    const report = await runRenewals({ store, clock: () => later, processor });
    expect(report.errors).toBe(0);
    expect(report.charged).toBeGreaterThanOrEqual(due.length);
    for (const m of due) {
      const after = (await store.listMembershipsOfMember(site.id, m.memberId)).find((a) => a.id === m.id)!;
      expect(after.paymentFailure, `membership ${m.id}`).toBe(false);
      expect(after.billingPeriodEnd ?? Infinity).not.toBe(m.billingPeriodEnd);
      const invoices = await store.listInvoicesOfMember(site.id, m.memberId);
      expect(invoices.some((i) => i.membershipId === m.id && i.status === 'paid' && i.createdAt === later)).toBe(true);
    }
  } finally {
    await store.close();
  }
});

test('the same seed gives the same invoices and cards', async () => {
  const dump = async () => {
    const store = createMemoryStore();
    const site = await seedDemo(store);
    const rows = [];
    for (let id = 1; id <= 301; id++) {
      rows.push({
        invoices: await store.listInvoicesOfMember(site.id, id),
        card: await store.getPaymentMethod(site.id, id),
        customer: (await store.getMember(site.id, id))?.processorCustomerId,
      });
    }
    await store.close();
    return rows;
  };
  const [a, b] = [await dump(), await dump()];
  // The published login is made at the clock's time, as the rest; nothing in either depends on the wall clock.
  expect(a).toEqual(b);
  expect(a.some((r) => r.invoices.length > 0)).toBe(true);
});

test('seeded on the day after a renewal date, failed renewals wait for their next attempt, and the billing run carries them on', async () => {
  // 2 December: Monthly renewed on the 1st, so a card that started to fail then has had two attempts.
  const now = Date.UTC(2026, 11, 2, 12);
  const store = createMemoryStore();
  try {
    const { site } = await ensureDemoSite(store, () => now);
    await seedMembers(store, () => now, site, { members: 1000, seed: 1 });
    const failing = (await store.listMemberships(site.id, { status: 'active' }, { limit: 10_000 })).items.filter((m) => m.paymentFailure);
    expect(failing.length).toBeGreaterThan(0);
    for (const m of failing) {
      const attempts = Math.floor((now - m.billingPeriodEnd!) / DAY) + 1;
      expect(attempts).toBeGreaterThanOrEqual(1);
      expect(attempts).toBeLessThan(4);
      const failed = (await store.listInvoicesOfMember(site.id, m.memberId)).filter((i) => i.membershipId === m.id && i.status === 'failed');
      expect(failed.map((i) => i.createdAt).sort()).toEqual(Array.from({ length: attempts }, (_, k) => m.billingPeriodEnd! + k * DAY));
      const events = (await store.listMemberEvents(site.id, { memberId: m.memberId }, { limit: 1000 })).items;
      const tries = events.filter((e) => e.eventType === 'paymentFailed' && e.details.membershipId === m.id);
      expect(tries.map((e) => e.details.attempt)).toEqual(Array.from({ length: attempts }, (_, k) => k + 1));
      expect(tries.every((e) => e.details.reason === 'card_declined')).toBe(true);
      expect((await store.getPaymentMethod(site.id, m.memberId))?.processorId).toMatch(/^pm_test_declined_/);
    }
    const billing = (at: number) => runRenewals({ store, clock: () => at, processor: new TestPaymentProcessor({ clock: () => at, store }) });
    // The last attempt was less than a day ago: nothing is tried yet.
    const first = await billing(now);
    expect(first).toMatchObject({ charged: 0, failed: 0, errors: 0 });
    expect(first.waiting).toBe(failing.length);
    // A day later each is tried again on the same card and fails again; the fourth failure ends it.
    const next = await billing(now + DAY);
    expect(next.errors).toBe(0);
    expect(next.failed).toBeGreaterThanOrEqual(failing.length);
    for (const m of failing) {
      const after = (await store.listMembershipsOfMember(site.id, m.memberId)).find((a) => a.id === m.id)!;
      const attempts = Math.floor((now + DAY - m.billingPeriodEnd!) / DAY) + 1;
      expect(after.status).toBe(attempts >= 4 ? 'cancelled' : 'active');
      expect(after.paymentFailure).toBe(true);
      const tries = (await store.listMemberEvents(site.id, { memberId: m.memberId }, { limit: 1000 })).items.filter(
        (e) => e.eventType === 'paymentFailed' && e.details.membershipId === m.id,
      );
      expect(tries.at(-1)?.details.attempt).toBe(attempts);
    }
  } finally {
    await store.close();
  }
});

/** The one-row methods, one call per invoice and card, as the member API and the billing run write them. */
const oneRowAtATime = (store: Store): BillingRowsWriter => ({
  async write(invoices, cards) {
    for (const invoice of invoices) await store.createInvoice(invoice);
    for (const card of cards) await store.savePaymentMethod(card);
  },
});

for (const [storeName, newStore] of [...STORES, ['sqlite in a file', (dir: string) => openSqliteStore(join(dir, 'seed.db'))]] as const) {
  test(`${storeName} store: the seed's invoices and cards, written with the batch methods, are what the one-row methods write`, async () => {
    const read = async (oneRow: boolean) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-seed-rows-'));
      try {
        const store = newStore(dir);
        const { site } = await ensureDemoSite(store, clock);
        // Small batches, so rows of several batches (and a part statement of rows on SQLite) are written.
        await seedMembers(store, clock, site, { members: 250, seed: 9, batchSize: 120, ...(oneRow && { billingRows: oneRowAtATime(store) }) });
        const members = [];
        for (let id = 1; id <= 250; id++) {
          members.push({ invoices: await store.listInvoicesOfMember(site.id, id), card: await store.getPaymentMethod(site.id, id) });
        }
        await store.close();
        return members;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    const batched = await read(false);
    expect(batched.filter((m) => m.invoices.length > 0).length).toBeGreaterThan(50);
    expect(batched.filter((m) => m.card !== undefined).length).toBeGreaterThan(30);
    // Ids included: the batch methods number the rows as the one-row methods do.
    expect(batched).toStrictEqual(await read(true));
  });
}
