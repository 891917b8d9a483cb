/**
 * The Admin API test fixture: one store holding the seeded `demo` site plus an `other` site with
 * data of its own (interleaved with demo's, so ids of both sites alternate), an `empty` site and
 * a `closed` site whose Admin API is switched off; keys for every case the spec names; a clock
 * the test controls; and the app built over it all. Its parts live in `admin-fixture/`.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll } from 'vitest';
import { SCOPES, type Scope } from '../../src/contract/admin';
import type { RateLimit } from '../../src/service/http/rate-limit';
import { createServiceApp } from '../../src/service/app';
import { hashApiKey, issueApiKey } from '../../src/service/auth/api-keys';
import type { Clock } from '../../src/service/domain/clock';
import { definePlan } from '../../src/service/domain/plans';
import { ensureDemoSite, seedMembers } from '../../src/service/seed/demo';
import type { SiteRecord } from '../../src/service/store/records';
import type { Store } from '../../src/service/store/store';
import { DAY, FIXTURE_NOW, fixtureClock, HOUR, SECOND, type FixtureClock } from './admin-fixture/clock';
import { issueSiteKeys, type FixtureKeys } from './admin-fixture/keys';
import { addOtherActivity, createOtherSite } from './admin-fixture/other-site';
import type { StoreFactory } from './admin-fixture/stores';

export { DAY, FIXTURE_NOW, fixtureClock, HOUR, SECOND, type FixtureClock } from './admin-fixture/clock';
export { storeFingerprint } from './admin-fixture/fingerprint';
export { everyFixtureKey, type FixtureKeys, type SiteKeys } from './admin-fixture/keys';
export { OTHER_SPACE } from './admin-fixture/other-site';
export { readAll, readSiteData, type SiteData } from './admin-fixture/site-data';
export { forEachStore, STORES, type StoreFactory } from './admin-fixture/stores';

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
  const { site: other, plans: otherPlans } = await createOtherSite(store);
  // A disabled demo plan, created after the other site's plans so plan ids of the sites interleave.
  await definePlan(store, clock, demo.id, {
    name: 'Legacy monthly',
    type: 'subscription',
    status: 'disabled',
    billing: { price: 9, currency: 'usd', interval: { count: 1, unit: 'month' } },
  });

  // The other site's activity lands between two demo seeding rounds, so the sites' ids interleave.
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

  // The closed site's key is issued while its Admin API is still on.
  const closedKey = await issueKey(closed.id, [...SCOPES]);
  await store.updateSite(closed.id, { adminApiEnabled: false });
  const expired = (await issueApiKey(store, () => FIXTURE_NOW - 2 * HOUR, { siteId: demo.id, scopes: [...SCOPES], expiresInMs: HOUR })).key;
  const revoked = await issueKey(demo.id, [...SCOPES]);
  await store.revokeApiKey(hashApiKey(revoked), FIXTURE_NOW - SECOND);

  const keys: FixtureKeys = {
    demo: await issueSiteKeys(store, clock, demo.id),
    other: await issueSiteKeys(store, clock, other.id),
    empty: await issueSiteKeys(store, clock, empty.id),
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
    fixture = await buildAdminFixture(await newStore(), options);
  });
  afterAll(async () => {
    await fixture?.store.close();
  });
  return () => {
    if (!fixture) throw new Error('the admin fixture is built in beforeAll');
    return fixture;
  };
}
