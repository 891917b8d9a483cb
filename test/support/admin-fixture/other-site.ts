/**
 * The fixture's `other` site: plans of every type and status, and members, memberships, events
 * and views whose values deliberately collide with the demo site's.
 */
import { FIRST_NAMES, LAST_NAMES } from '../../../src/service/seed/catalogue';
import { SeededRandom } from '../../../src/service/seed/random';
import type { NewMember, NewMembership, NewPlan, PlanRecord, SiteRecord } from '../../../src/service/store/records';
import type { Store } from '../../../src/service/store/store';
import { DAY, FIXTURE_NOW } from './clock';
import { readAll } from './site-data';

/** The other site's one content space. */
export const OTHER_SPACE = 'Bibliothek';

/** Omit over each member of a union, so the plan terms of every type stay allowed. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const OTHER_PLANS: Array<OmitEach<NewPlan, 'siteId' | 'createdAt'>> = [
  {
    publicId: 'oth-free',
    name: 'Gratis',
    description: '<p>Kostenlos</p>',
    status: 'enabled',
    isPublic: true,
    colorCode: '#112233',
    welcomeUrl: 'https://other.example.org/willkommen',
    type: 'free',
    expiration: { mode: 'interval', count: 30, unit: 'day' },
  },
  {
    publicId: 'oth-once',
    name: 'Einmalig',
    status: 'enabled',
    isPublic: true,
    colorCode: '#223344',
    type: 'oneTimePayment',
    expiration: { mode: 'specificTime', expiresAt: '2026-06-30T00:00:00.000Z' },
    billing: { price: 99, currency: 'eur', taxPercentage: 19, taxDescription: '<p>MwSt.</p>' },
  },
  {
    publicId: 'oth-multi',
    name: 'Ratenzahlung',
    status: 'disabled',
    isPublic: true,
    colorCode: '#334455',
    type: 'multiPayment',
    expiration: { mode: 'none' },
    billing: { price: 30, currency: 'eur', interval: { count: 1, unit: 'month' }, paymentCountRequired: 4, trialPeriodDays: 7 },
  },
  {
    publicId: 'oth-sub',
    name: 'Abo',
    status: 'enabled',
    isPublic: false,
    colorCode: '#445566',
    contentUrl: 'https://other.example.org/inhalt',
    type: 'subscription',
    billing: { price: 15, currency: 'eur', interval: { count: 1, unit: 'month' }, billingDate: { day: 15 }, signupFee: 5 },
  },
  {
    publicId: 'oth-archived',
    name: 'Alt',
    status: 'archived',
    isPublic: true,
    colorCode: '#556677',
    type: 'free',
    expiration: { mode: 'none' },
  },
  {
    publicId: 'oth-deleted',
    name: 'Gelöscht',
    status: 'deleted',
    isPublic: true,
    colorCode: '#667788',
    type: 'subscription',
    billing: { price: 150, currency: 'eur', interval: { count: 1, unit: 'year' }, billingDate: { day: 1, month: 6 } },
  },
];

/** The other site and its plans, which it creates one after the other. */
export async function createOtherSite(store: Store): Promise<{ site: SiteRecord; plans: PlanRecord[] }> {
  const site = await store.createSite({
    name: 'Other Guild',
    subdomain: 'other',
    domain: 'other.example.org',
    defaultCurrency: 'eur',
    locale: 'de',
    adminApiEnabled: true,
    createdAt: FIXTURE_NOW - 500 * DAY,
  });
  const plans: PlanRecord[] = [];
  for (const [i, plan] of OTHER_PLANS.entries()) {
    plans.push(await store.createPlan({ ...plan, siteId: site.id, createdAt: FIXTURE_NOW - (400 - i) * DAY } as NewPlan));
  }
  return { site, plans };
}

/**
 * Members, memberships, events, views and invoices of the other site. Values deliberately collide
 * with the demo site's (the same e-mails, names, timestamps and processor ids), so a filter that
 * forgets the site shows.
 */
export async function addOtherActivity(store: Store, demo: SiteRecord, other: SiteRecord, plans: PlanRecord[]): Promise<void> {
  const rnd = new SeededRandom(4242);
  const demoMembers = await readAll((page) => store.listMembers(demo.id, {}, page));
  const demoMemberships = await readAll((page) => store.listMemberships(demo.id, {}, page));
  const demoEvents = await readAll((page) => store.listMemberEvents(demo.id, {}, page));
  const demoInvoices = await readAll((page) => store.listInvoices(demo.id, {}, page));

  const newMembers: NewMember[] = [];
  for (let i = 0; i < 40; i++) {
    const twin = demoMembers[i % demoMembers.length]!;
    const first = rnd.pick(FIRST_NAMES);
    const last = rnd.pick(LAST_NAMES);
    newMembers.push({
      siteId: other.id,
      email: i < 8 ? twin.email : `mitglied${i}@other.example.org`,
      ...(i % 13 === 5 ? {} : i < 8 && twin.firstName ? { firstName: twin.firstName, lastName: twin.lastName! } : { firstName: first, lastName: last }),
      status: (['approved', 'approved', 'approved', 'pending', 'blocked'] as const)[i % 5]!,
      createdAt: i % 3 === 0 ? twin.createdAt : FIXTURE_NOW - rnd.int(1, 500) * DAY - rnd.int(0, DAY - 1),
    });
  }
  const memberIds = await store.createMembers(newMembers);

  const memberships: NewMembership[] = [];
  memberIds.forEach((memberId, i) => {
    for (let k = 0; k < 1 + (i % 2); k++) {
      const plan = plans[(i + k * 3) % plans.length]!;
      const twin = demoMemberships[(i * 2 + k) % demoMemberships.length]!;
      const createdAt = i % 4 === 0 ? twin.createdAt : FIXTURE_NOW - rnd.int(1, 300) * DAY - rnd.int(0, DAY - 1);
      const m: NewMembership = {
        siteId: other.id,
        memberId,
        planId: plan.id,
        status: (['active', 'active', 'cancelled', 'expired'] as const)[(i + k) % 4]!,
        createdAt,
        paymentFailure: i % 7 === 0,
      };
      if (plan.type !== 'subscription') {
        if (plan.type !== 'multiPayment' || i % 2 === 0) m.expiresAt = twin.expiresAt ?? createdAt + 30 * DAY;
      }
      if (plan.type === 'subscription' || plan.type === 'multiPayment') {
        m.billingPeriodEnd = twin.billingPeriodEnd ?? FIXTURE_NOW + rnd.int(1, 30) * DAY;
      }
      if (plan.type === 'subscription' && i % 4 < 2) m.cancelsAt = m.billingPeriodEnd;
      memberships.push(m);
    }
  });
  await store.createMemberships(memberships);

  await store.createMemberEvents(
    memberIds.flatMap((memberId, i) => [
      { siteId: other.id, memberId, eventType: 'signup' as const, details: {}, createdAt: newMembers[i]!.createdAt },
      {
        siteId: other.id,
        memberId,
        eventType: i % 4 === 0 ? ('abandonedConversion' as const) : ('login' as const),
        details: i % 4 === 0 ? { amount: '99,00 €', chargeId: `ch_oth${i}`, invoiceId: `in_oth${i}` } : {},
        createdAt: demoEvents[(i * 5) % demoEvents.length]!.createdAt,
      },
    ]),
  );

  // The ledger (issue 32): the demo site's processor ids (unique per site only) and, for every
  // other invoice, its times.
  const paidPlans = plans.filter((p) => p.type !== 'free');
  await store.createInvoices(
    memberIds.slice(0, 16).map((memberId, i) => {
      const twin = demoInvoices[i % demoInvoices.length]!;
      const plan = paidPlans[i % paidPlans.length]!;
      return {
        siteId: other.id,
        memberId,
        planId: plan.id,
        processorInvoiceId: twin.processorInvoiceId,
        processorChargeId: twin.processorChargeId,
        subTotalCents: 8319,
        taxCents: 1581,
        totalCents: 9900,
        currency: 'eur',
        status: i % 4 === 3 ? ('failed' as const) : ('paid' as const),
        description: plan.name,
        // Not from `rnd`, whose later draws (the views') stay as they were.
        createdAt: i % 2 === 0 ? twin.createdAt : FIXTURE_NOW - (i * 17 + 3) * DAY - i * 3_600_000,
      };
    }),
  );

  const spaceId = await store.createContentSpace({ siteId: other.id, name: OTHER_SPACE });
  const nodeIds = [
    await store.createContentNode({ siteId: other.id, spaceId, name: 'Einführung', type: 'article' }),
    await store.createContentNode({ siteId: other.id, spaceId, name: 'Vortrag', type: 'video' }),
    await store.createContentNode({ siteId: other.id, spaceId, name: 'Gespräch', type: 'audio' }),
  ];
  await store.createContentViews(
    memberIds.flatMap((memberId, i) =>
      Array.from({ length: i % 3 }, (_, k) => ({
        siteId: other.id,
        memberId,
        nodeId: nodeIds[(i + k) % nodeIds.length]!,
        viewedAt: i % 2 === 0 ? demoEvents[(i * 3 + k) % demoEvents.length]!.createdAt : FIXTURE_NOW - rnd.int(0, 200) * DAY,
      })),
    ),
  );
}
