/**
 * The Admin API test fixture: one store holding the seeded `demo` site plus an `other` site with
 * data of its own (interleaved with demo's, so ids of both sites alternate), an `empty` site and
 * a `closed` site whose Admin API is switched off; keys for every case the spec names; a clock
 * the test controls; and the app built over it all.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe } from 'vitest';
import { PLAN_STATUSES, SCOPES, type Scope } from '../../src/contract/admin';
import type { RateLimit } from '../../src/service/admin/rate-limit';
import { createServiceApp } from '../../src/service/app';
import { hashApiKey, issueApiKey } from '../../src/service/auth/api-keys';
import type { Clock } from '../../src/service/domain/clock';
import { definePlan } from '../../src/service/domain/plans';
import { FIRST_NAMES, LAST_NAMES } from '../../src/service/seed/catalogue';
import { ensureDemoSite, seedMembers } from '../../src/service/seed/demo';
import { SeededRandom } from '../../src/service/seed/random';
import { createMemoryStore } from '../../src/service/store/memory';
import type { PageRequest, Page } from '../../src/service/store/queries';
import type {
  ContentNodeRecord,
  ContentViewRecord,
  MemberEventRecord,
  MemberRecord,
  MembershipRecord,
  NewMember,
  NewMembership,
  NewPlan,
  PlanRecord,
  SiteRecord,
} from '../../src/service/store/records';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';

/** 2026-02-01T12:00:00Z: the fixture's "now" until a test moves its clock. */
export const FIXTURE_NOW = Date.UTC(2026, 1, 1, 12, 0, 0);
export const SECOND = 1000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

// ------------------------------------------------------------------------------------ Clock

/** A clock that stands still until told to move. */
export interface FixtureClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function fixtureClock(start = FIXTURE_NOW): FixtureClock {
  let now = start;
  return Object.assign(() => now, {
    set: (ms: number) => void (now = ms),
    advance: (ms: number) => void (now += ms),
  });
}

// ------------------------------------------------------------------------------------ Stores

export type StoreFactory = () => Store;

export const STORES: ReadonlyArray<[name: string, newStore: StoreFactory]> = [
  ['memory', createMemoryStore],
  ['sqlite', () => openSqliteStore(':memory:')],
];

/** Registers the suite `run` declares once per store implementation. */
export function forEachStore(run: (name: string, newStore: StoreFactory) => void): void {
  for (const [name, newStore] of STORES) describe(`${name} store`, () => run(name, newStore));
}

// ------------------------------------------------------------------------------------ Keys

export interface SiteKeys {
  /** Every scope. */
  all: string;
  /** No scope at all. */
  none: string;
  /** Exactly one scope each. */
  only: Record<Scope, string>;
  /** Every scope but one, keyed by the missing scope. */
  allBut: Record<Scope, string>;
}

export interface FixtureKeys {
  demo: SiteKeys;
  other: SiteKeys;
  empty: SiteKeys;
  /** A key with every scope of the `closed` site, whose Admin API is off. */
  closed: string;
  /** Demo keys with every scope, past their expiry / revoked. */
  expired: string;
  revoked: string;
}

async function siteKeys(store: Store, clock: Clock, siteId: number): Promise<SiteKeys> {
  const issue = async (scopes: Scope[]) => (await issueApiKey(store, clock, { siteId, scopes })).key;
  const only = {} as Record<Scope, string>;
  const allBut = {} as Record<Scope, string>;
  for (const scope of SCOPES) {
    only[scope] = await issue([scope]);
    allBut[scope] = await issue(SCOPES.filter((s) => s !== scope));
  }
  return { all: await issue([...SCOPES]), none: await issue([]), only, allBut };
}

// ------------------------------------------------------------------------------------ Fixture

export interface AppOptions {
  rateLimit?: RateLimit;
  clock?: Clock;
}

export interface AdminFixtureOptions {
  /** Applies to `app`; `makeApp` builds others. */
  rateLimit?: RateLimit;
  /** Demo members, split over two seeding rounds. */
  members?: number;
  seed?: number;
}

export interface AdminFixture {
  store: Store;
  clock: FixtureClock;
  app: Hono;
  demo: SiteRecord;
  other: SiteRecord;
  empty: SiteRecord;
  closed: SiteRecord;
  keys: FixtureKeys;
  /** Another app over the same store (same cursor secret), e.g. with a rate limit or its own clock. */
  makeApp(options?: AppOptions): Promise<Hono>;
  /** Issues a key at the fixture clock's time. */
  issueKey(siteId: number, scopes: Scope[], expiresInMs?: number): Promise<string>;
}

export async function buildAdminFixture(store: Store, options: AdminFixtureOptions = {}): Promise<AdminFixture> {
  const clock = fixtureClock();
  const members = options.members ?? 120;
  const seed = options.seed ?? 7;

  const { site: demo } = await ensureDemoSite(store, clock);
  const other = await store.createSite({
    name: 'Other Guild',
    subdomain: 'other',
    domain: 'other.example.org',
    defaultCurrency: 'eur',
    locale: 'de',
    adminApiEnabled: true,
    createdAt: FIXTURE_NOW - 500 * DAY,
  });
  const otherPlans = await createOtherPlans(store, other.id);
  // A disabled demo plan, created after the other site's plans so plan ids of the sites interleave.
  await definePlan(store, clock, demo.id, {
    name: 'Legacy monthly',
    type: 'subscription',
    status: 'disabled',
    billing: { price: 9, currency: 'usd', interval: { count: 1, unit: 'month' } },
  });

  await seedMembers(store, clock, demo, { members: Math.ceil(members / 2), seed });
  await addOtherActivity(store, demo, other, otherPlans);
  await seedMembers(store, clock, demo, { members: Math.floor(members / 2), seed: seed + 1 });

  const empty = await store.createSite({
    name: 'Empty',
    subdomain: 'empty',
    domain: 'empty.example.net',
    defaultCurrency: 'gbp',
    locale: 'en',
    adminApiEnabled: true,
    createdAt: FIXTURE_NOW - DAY,
  });
  const closed = await store.createSite({
    name: 'Closed',
    subdomain: 'closed',
    domain: 'closed.example.net',
    defaultCurrency: 'usd',
    locale: 'fr',
    adminApiEnabled: true,
    createdAt: FIXTURE_NOW - 10 * DAY,
  });

  const issueKey = async (siteId: number, scopes: Scope[], expiresInMs?: number) =>
    (await issueApiKey(store, clock, { siteId, scopes, ...(expiresInMs !== undefined && { expiresInMs }) })).key;

  const closedKey = await issueKey(closed.id, [...SCOPES]);
  await store.updateSite(closed.id, { adminApiEnabled: false });
  const expired = (await issueApiKey(store, () => FIXTURE_NOW - 2 * HOUR, { siteId: demo.id, scopes: [...SCOPES], expiresInMs: HOUR })).key;
  const revoked = await issueKey(demo.id, [...SCOPES]);
  await store.revokeApiKey(hashApiKey(revoked), FIXTURE_NOW - SECOND);

  const keys: FixtureKeys = {
    demo: await siteKeys(store, clock, demo.id),
    other: await siteKeys(store, clock, other.id),
    empty: await siteKeys(store, clock, empty.id),
    closed: closedKey,
    expired,
    revoked,
  };

  const makeApp = ({ rateLimit, clock: appClock }: AppOptions = {}) =>
    createServiceApp({ store, clock: appClock ?? clock, ...(rateLimit && { adminRateLimit: rateLimit }) });
  const app = await makeApp(options.rateLimit ? { rateLimit: options.rateLimit } : {});

  return {
    store,
    clock,
    app,
    demo,
    other,
    empty,
    closed: (await store.getSite(closed.id))!,
    keys,
    makeApp,
    issueKey,
  };
}

/** Builds the fixture once for the enclosing suite and closes its store afterwards. */
export function useAdminFixture(newStore: StoreFactory, options?: AdminFixtureOptions): () => AdminFixture {
  let fixture: AdminFixture | undefined;
  beforeAll(async () => {
    fixture = await buildAdminFixture(newStore(), options);
  });
  afterAll(async () => {
    await fixture?.store.close();
  });
  return () => {
    if (!fixture) throw new Error('the admin fixture is built in beforeAll');
    return fixture;
  };
}

// ------------------------------------------------------------------------------------ The other site

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

async function createOtherPlans(store: Store, siteId: number): Promise<PlanRecord[]> {
  const plans: PlanRecord[] = [];
  for (const [i, plan] of OTHER_PLANS.entries()) {
    plans.push(await store.createPlan({ ...plan, siteId, createdAt: FIXTURE_NOW - (400 - i) * DAY } as NewPlan));
  }
  return plans;
}

/**
 * Members, memberships, events and views of the other site. Values deliberately collide with the
 * demo site's (the same e-mails, names and timestamps), so a filter that forgets the site shows.
 */
async function addOtherActivity(store: Store, demo: SiteRecord, other: SiteRecord, plans: PlanRecord[]): Promise<void> {
  const rnd = new SeededRandom(4242);
  const demoMembers = await readAll((page) => store.listMembers(demo.id, {}, page));
  const demoMemberships = await readAll((page) => store.listMemberships(demo.id, {}, page));
  const demoEvents = await readAll((page) => store.listMemberEvents(demo.id, {}, page));

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

// ------------------------------------------------------------------------------------ Reading the store

/** Every row a keyset-paged store query returns, page by page. */
export async function readAll<T extends { id: number }>(list: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let afterId: number | undefined;
  for (;;) {
    const page = await list({ limit: 250, ...(afterId !== undefined && { afterId }) });
    rows.push(...page.items);
    if (!page.hasMore) return rows;
    afterId = page.items[page.items.length - 1]!.id;
  }
}

/** Everything the store holds for one site, read through the store's own list methods. */
export interface SiteData {
  site: SiteRecord;
  plans: PlanRecord[];
  members: MemberRecord[];
  memberships: MembershipRecord[];
  events: MemberEventRecord[];
  views: ContentViewRecord[];
  nodes: ContentNodeRecord[];
}

export async function readSiteData(store: Store, siteId: number): Promise<SiteData> {
  return {
    site: (await store.getSite(siteId))!,
    plans: await readAll((page) => store.listPlans(siteId, { statuses: PLAN_STATUSES }, page)),
    members: await readAll((page) => store.listMembers(siteId, {}, page)),
    memberships: await readAll((page) => store.listMemberships(siteId, {}, page)),
    events: await readAll((page) => store.listMemberEvents(siteId, {}, page)),
    views: await readAll((page) => store.listContentViews(siteId, {}, page)),
    nodes: await store.listContentNodes(siteId),
  };
}

/** The store's whole content as one string: every site, every row, every fixture key's record. */
export async function storeFingerprint(fixture: AdminFixture): Promise<string> {
  const { store, keys } = fixture;
  const sites = await store.listSites();
  const data = [];
  for (const site of sites) data.push(await readSiteData(store, site.id));
  const keyStrings = [
    ...[keys.demo, keys.other, keys.empty].flatMap((k) => [k.all, k.none, ...Object.values(k.only), ...Object.values(k.allBut)]),
    keys.closed,
    keys.expired,
    keys.revoked,
  ];
  const keyRecords = [];
  for (const key of keyStrings) keyRecords.push(await store.findApiKeyByHash(hashApiKey(key)));
  const metrics = [];
  for (const site of sites) metrics.push(await store.siteMetrics(site.id));
  const secret = await store.secret('admin-cursor', () => 'created by the fingerprint');
  return JSON.stringify({ sites, data, keyRecords, metrics, secret });
}
