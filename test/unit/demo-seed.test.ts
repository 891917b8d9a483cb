/** The demo data is what `npm start` shows a new user: it must be varied, consistent and repeatable. */
import { expect, test } from 'vitest';
import { PLAN_STATUSES } from '../../src/contract/admin';
import { SIGNUP_FIELD_TYPES } from '../../src/contract/member';
import { nextFixedBillingDate } from '../../src/service/billing/calendar';
import { firstChargeAt } from '../../src/service/billing/membership-terms';
import { ensureDemoSite, seedMembers } from '../../src/service/seed/demo';
import { createMemoryStore } from '../../src/service/store/memory';
import type { Store } from '../../src/service/store/store';

const NOW = Date.UTC(2026, 10, 23, 12);
const clock = () => NOW;

async function all<T>(read: (afterId: number | undefined) => Promise<{ items: (T & { id: number })[]; hasMore: boolean }>) {
  const rows: T[] = [];
  let afterId: number | undefined;
  for (;;) {
    const page = await read(afterId);
    rows.push(...page.items);
    if (!page.hasMore) return rows;
    afterId = page.items[page.items.length - 1]!.id;
  }
}

async function seeded(seed: number, members = 200): Promise<Store> {
  const store = createMemoryStore();
  const { site } = await ensureDemoSite(store, clock);
  await seedMembers(store, clock, site, { members, seed, batchSize: 64 });
  return store;
}

async function dump(store: Store) {
  const page = (afterId: number | undefined) => ({ limit: 100, ...(afterId !== undefined && { afterId }) });
  return {
    plans: await all((a) => store.listPlans(1, { statuses: PLAN_STATUSES }, page(a))),
    members: await all((a) => store.listMembers(1, {}, page(a))),
    memberships: await all((a) => store.listMemberships(1, {}, page(a))),
    events: await all((a) => store.listMemberEvents(1, {}, page(a))),
    views: await all((a) => store.listContentViews(1, {}, page(a))),
  };
}

test('the demo site has plans of all four types, an archived and a deleted one, and a library', async () => {
  const store = createMemoryStore();
  const first = await ensureDemoSite(store, clock);
  expect(first.created).toBe(true);
  expect((await ensureDemoSite(store, clock)).created).toBe(false);
  const { plans } = await dump(store);
  expect(new Set(plans.map((p) => p.type))).toEqual(new Set(['free', 'oneTimePayment', 'multiPayment', 'subscription']));
  expect(plans.map((p) => p.status)).toEqual(expect.arrayContaining(['enabled', 'archived', 'deleted']));
  expect(plans.some((p) => !p.isPublic)).toBe(true);
  expect((await store.listContentNodes(first.site.id)).length).toBeGreaterThan(5);
});

test('the demo site has custom sign-up fields of all five types, some required, with options where they belong', async () => {
  const store = createMemoryStore();
  const { site } = await ensureDemoSite(store, clock);
  const fields = await store.listSignupFields(site.id);
  expect(new Set(fields.map((f) => f.type))).toEqual(new Set(SIGNUP_FIELD_TYPES));
  expect(fields.some((f) => f.required)).toBe(true);
  expect(fields.some((f) => !f.required)).toBe(true);
  for (const f of fields) {
    if (f.type === 'select' || f.type === 'multiple-select') expect(f.options?.length).toBeGreaterThan(1);
    else expect(f).not.toHaveProperty('options');
  }
  // Asked again, the site keeps the fields it has.
  await ensureDemoSite(store, clock);
  expect(await store.listSignupFields(site.id)).toEqual(fields);
});

test('seeded members filled in every required sign-up field with a value of its type, and no one has a password', async () => {
  const store = await seeded(6, 100);
  const site = (await store.getSiteBySubdomain('demo'))!;
  const fields = new Map((await store.listSignupFields(site.id)).map((f) => [f.id, f]));
  const members = await all((a) => store.listMembers(site.id, {}, { limit: 100, ...(a !== undefined && { afterId: a }) }));
  let optionalFilled = 0;
  for (const member of members) {
    const values = await store.listSignupValues(site.id, member.id);
    const filled = new Set(values.map((v) => v.fieldId));
    for (const f of fields.values()) if (f.required) expect(filled.has(f.id)).toBe(true);
    for (const { fieldId, value } of values) {
      const field = fields.get(fieldId)!;
      const options = (field.options ?? []).map((o) => o.value);
      if (!field.required) optionalFilled++;
      if (field.type === 'checkbox') expect(typeof value).toBe('boolean');
      else if (field.type === 'select') expect(options).toContain(value);
      else if (field.type === 'multiple-select') for (const v of value as string[]) expect(options).toContain(v);
      else expect(value).toEqual(expect.any(String));
    }
    expect((await store.findMemberLogin(site.id, member.email))?.passwordHash).toBeUndefined();
  }
  expect(optionalFilled).toBeGreaterThan(50);
  // Deterministic, like the rest of the seed.
  const again = await seeded(6, 100);
  for (const member of members.slice(0, 20)) {
    expect(await again.listSignupValues(site.id, member.id)).toEqual(await store.listSignupValues(site.id, member.id));
  }
});

test('the same seed gives the same data; another seed gives other data', async () => {
  const a = await dump(await seeded(3, 60));
  const b = await dump(await seeded(3, 60));
  const c = await dump(await seeded(4, 60));
  const strip = (d: typeof a) => ({ ...d, plans: d.plans.map(({ publicId, ...p }) => p), memberships: d.memberships.map(({ planPublicId, ...m }) => m) });
  expect(strip(a)).toEqual(strip(b));
  expect(strip(a).members).not.toEqual(strip(c).members);
});

test('members come with about 1.3 memberships, 5 events and 3 content views each', async () => {
  const d = await dump(await seeded(1, 400));
  expect(d.members).toHaveLength(400);
  expect(d.memberships.length / 400).toBeGreaterThan(1.1);
  expect(d.memberships.length / 400).toBeLessThan(1.6);
  expect(d.events.length / 400).toBeGreaterThan(4);
  expect(d.events.length / 400).toBeLessThan(7);
  expect(d.views.length / 400).toBeGreaterThan(2);
  expect(d.views.length / 400).toBeLessThan(4);
  expect(new Set(d.memberships.map((m) => m.status))).toEqual(new Set(['active', 'cancelled', 'expired']));
  expect(new Set(d.events.map((e) => e.eventType))).toEqual(
    new Set(['signup', 'login', 'conversion', 'cancellation', 'abandonedConversion', 'paymentFailed']),
  );
});

test('dates agree with the plans: expiries, billing period ends, nothing in the future that should not be', async () => {
  const d = await dump(await seeded(2, 400));
  const plans = new Map(d.plans.map((p) => [p.id, p]));
  for (const m of d.memberships) {
    const plan = plans.get(m.planId)!;
    expect(m.type).toBe(plan.type);
    expect(m.createdAt).toBeLessThanOrEqual(NOW);
    if (plan.type === 'subscription') {
      expect(m.expiresAt).toBeUndefined();
      if (m.status === 'active') {
        // A failed renewal waits for its next attempt (at most a few days); any other is ahead.
        if (m.paymentFailure) expect(m.billingPeriodEnd).toBeLessThanOrEqual(NOW);
        else expect(m.billingPeriodEnd).toBeGreaterThan(NOW);
        if (m.cancelsAt !== undefined) expect(m.cancelsAt).toBe(m.billingPeriodEnd);
        // After the trial's first charge, renewals fall on the plan's fixed day.
        const inTrial = plan.billing.trialPeriodDays && m.billingPeriodEnd === firstChargeAt(plan.billing, m.createdAt);
        if (plan.billing.billingDate && !inTrial && !m.paymentFailure) expect(new Date(m.billingPeriodEnd!).getUTCDate()).toBe(plan.billing.billingDate.day);
      } else {
        // Ended: at the end of the period it was cancelled in, or after its last failed payment.
        expect(m.status).toBe('cancelled');
        expect(m.billingPeriodEnd).toBeUndefined();
        if (!m.paymentFailure) expect(m.cancelsAt).toBeLessThanOrEqual(NOW);
      }
    } else {
      if (plan.expiration.mode === 'none') expect(m.expiresAt).toBeUndefined();
      else expect(m.expiresAt).toBeTypeOf('number');
      if (m.status === 'expired') expect(m.expiresAt).toBeLessThanOrEqual(NOW);
      if (m.status === 'active' && m.expiresAt !== undefined) expect(m.expiresAt).toBeGreaterThan(NOW);
      if (plan.type !== 'multiPayment') expect(m.billingPeriodEnd).toBeUndefined();
    }
  }
  expect(d.memberships.some((m) => m.type === 'multiPayment' && m.billingPeriodEnd !== undefined)).toBe(true);
  for (const e of d.events) expect(e.createdAt).toBeLessThanOrEqual(NOW);
  for (const v of d.views) expect(v.viewedAt).toBeLessThanOrEqual(NOW);
});

test('abandoned conversions carry amount, chargeId and invoiceId as strings', async () => {
  const d = await dump(await seeded(5, 200));
  const abandoned = d.events.filter((e) => e.eventType === 'abandonedConversion');
  expect(abandoned.length).toBeGreaterThan(5);
  for (const e of abandoned) {
    expect(e.details).toEqual({ amount: expect.stringMatching(/^\$\d+\.\d\d$/), chargeId: expect.stringMatching(/^ch_/), invoiceId: expect.stringMatching(/^in_/) });
  }
});

test('growing the site again adds members without clashing e-mails', async () => {
  const store = await seeded(1, 50);
  const site = (await store.getSiteBySubdomain('demo'))!;
  await seedMembers(store, clock, site, { members: 50, seed: 2 });
  const emails = (await dump(store)).members.map((m) => m.email);
  expect(emails).toHaveLength(100);
  expect(new Set(emails).size).toBe(100);
  for (const email of emails) expect(email).toMatch(/^[a-z.-]+\.[0-9a-z]+@example\.com$/);
});

test('fixed billing dates fall on the next such day, or the last day of a shorter month', () => {
  const at = (iso: string) => Date.parse(iso);
  expect(nextFixedBillingDate(at('2026-11-23T12:00:00Z'), { day: 1 })).toBe(at('2026-12-01T00:00:00Z'));
  expect(nextFixedBillingDate(at('2026-11-23T12:00:00Z'), { day: 25 })).toBe(at('2026-11-25T00:00:00Z'));
  expect(nextFixedBillingDate(at('2027-02-10T00:00:00Z'), { day: 31 })).toBe(at('2027-02-28T00:00:00Z'));
  expect(nextFixedBillingDate(at('2026-11-23T12:00:00Z'), { day: 15, month: 3 })).toBe(at('2027-03-15T00:00:00Z'));
  expect(nextFixedBillingDate(at('2026-03-01T00:00:00Z'), { day: 29, month: 2 })).toBe(at('2027-02-28T00:00:00Z'));
  expect(nextFixedBillingDate(at('2027-03-01T00:00:00Z'), { day: 29, month: 2 })).toBe(at('2028-02-29T00:00:00Z'));
});
