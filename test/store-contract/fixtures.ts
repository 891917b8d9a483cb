/** Shared state, builders and assertions of the store contract suite (../store-contract.ts). */
import { expect } from 'vitest';
import type { Page, PageRequest, Range } from '../../src/service/store/queries';
import type { NewMember, NewPlan, NewSite, PlanTerms, SiteRecord } from '../../src/service/store/records';
import type { Store } from '../../src/service/store/store';
import type { NewWebhookEndpoint } from '../../src/service/store/webhook-records';

/** A fresh store per test, holding two sites: most tests work in `a` and plant noise in `b`. */
export interface Ctx {
  store: Store;
  a: SiteRecord;
  b: SiteRecord;
}

/** 2024-01-01T00:00:00Z: every time in the suite is an offset from it. */
export const T0 = Date.UTC(2024, 0, 1);

export function newSite(key: string, overrides: Partial<NewSite> = {}): NewSite {
  return {
    name: `Site ${key}`,
    subdomain: key,
    domain: `${key}.example.com`,
    defaultCurrency: 'usd',
    locale: 'en',
    adminApiEnabled: true,
    createdAt: T0,
    ...overrides,
  };
}

/** One plan of every type and variant, each with every optional field its type allows. */
export const PLAN_TERMS: Record<string, PlanTerms> = {
  'free plan that never expires': { type: 'free', expiration: { mode: 'none' } },
  'free plan expiring after an interval': { type: 'free', expiration: { mode: 'interval', count: 3, unit: 'month' } },
  'free plan expiring at a specific time': {
    type: 'free',
    expiration: { mode: 'specificTime', expiresAt: '2025-06-30T12:00:00.000Z' },
  },
  'one-time payment plan with tax': {
    type: 'oneTimePayment',
    expiration: { mode: 'interval', count: 1, unit: 'year' },
    billing: { price: 49.99, currency: 'eur', taxPercentage: 19, taxDescription: '<p>incl. <b>VAT</b></p>' },
  },
  'multi-payment plan with a trial': {
    type: 'multiPayment',
    expiration: { mode: 'none' },
    billing: {
      price: 10,
      currency: 'usd',
      interval: { count: 2, unit: 'week' },
      paymentCountRequired: 6,
      trialPeriodDays: 14,
    },
  },
  'subscription plan with a billing date and a signup fee': {
    type: 'subscription',
    billing: {
      price: 120,
      currency: 'gbp',
      interval: { count: 1, unit: 'year' },
      billingDate: { day: 15, month: 3 },
      signupFee: 25.5,
      taxPercentage: 20,
    },
  },
};

let planSerial = 0;

export function newPlan(siteId: number, overrides: Partial<NewPlan> = {}, terms?: PlanTerms): NewPlan {
  return {
    siteId,
    publicId: `plan-${++planSerial}-${siteId}`,
    name: 'Gold',
    status: 'enabled',
    isPublic: true,
    colorCode: '#aa0033',
    createdAt: T0,
    ...(terms ?? { type: 'free', expiration: { mode: 'none' } }),
    ...overrides,
  } as NewPlan;
}

export function newMember(siteId: number, email: string, overrides: Partial<NewMember> = {}): NewMember {
  return { siteId, email, status: 'approved', createdAt: T0, ...overrides };
}

/** Creates members in `site` named m0@…, m1@…; returns their ids. */
export async function addMembers(store: Store, siteId: number, count: number, tag = 'm'): Promise<number[]> {
  const rows = Array.from({ length: count }, (_, i) => newMember(siteId, `${tag}${i}@s${siteId}.example.com`));
  return store.createMembers(rows);
}

/** Expects `promise` to reject with an instance of `type` naming `field`. */
export async function expectRejects(
  promise: Promise<unknown>,
  type: new (field: string, message: string) => Error,
  field: string,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  expect((error as { field: string }).field).toBe(field);
}

type Lister = (page: PageRequest) => Promise<Page<{ id: number }>>;

const ids = (page: Page<{ id: number }>): number[] => page.items.map((item) => item.id);

/**
 * Checks keyset paging of `list` against the ids it must yield, in order: walks in pages of 2,
 * and tests the `limit` / `hasMore` / `afterId` boundaries. Needs at least 3 expected ids.
 * `gapId`, when given, is an id `list` must not yield, used as an `afterId`.
 */
export async function expectKeysetPaging(list: Lister, expected: readonly number[], gapId?: number): Promise<void> {
  expect(expected.length).toBeGreaterThanOrEqual(3);
  expect([...expected]).toEqual([...expected].sort((x, y) => x - y));

  const walked: number[] = [];
  let afterId: number | undefined;
  for (;;) {
    const page = await list({ afterId, limit: 2 });
    walked.push(...ids(page));
    const remaining = expected.length - walked.length;
    expect(page.items.length).toBe(Math.min(2, page.items.length + remaining));
    expect(page.hasMore).toBe(remaining > 0);
    if (!page.hasMore) break;
    afterId = page.items.at(-1)!.id;
  }
  expect(walked).toEqual(expected);

  const n = expected.length;
  const all = await list({ limit: n });
  expect({ ids: ids(all), hasMore: all.hasMore }).toEqual({ ids: expected, hasMore: false });
  const allButOne = await list({ limit: n - 1 });
  expect({ ids: ids(allButOne), hasMore: allButOne.hasMore }).toEqual({ ids: expected.slice(0, -1), hasMore: true });
  const one = await list({ limit: 1 });
  expect({ ids: ids(one), hasMore: one.hasMore }).toEqual({ ids: expected.slice(0, 1), hasMore: true });
  const fromSecond = await list({ afterId: expected[0]!, limit: n });
  expect({ ids: ids(fromSecond), hasMore: fromSecond.hasMore }).toEqual({ ids: expected.slice(1), hasMore: false });
  const lastOnly = await list({ afterId: expected[n - 2]!, limit: 1 });
  expect({ ids: ids(lastOnly), hasMore: lastOnly.hasMore }).toEqual({ ids: expected.slice(-1), hasMore: false });
  const beyond = await list({ afterId: expected[n - 1]!, limit: 5 });
  expect({ ids: ids(beyond), hasMore: beyond.hasMore }).toEqual({ ids: [], hasMore: false });
  if (gapId !== undefined) {
    // afterId need not be the id of a listed item (here: a row of another site or filtered out).
    expect(expected).not.toContain(gapId);
    const after = await list({ afterId: gapId, limit: n });
    expect(ids(after)).toEqual(expected.filter((id) => id > gapId));
  }
}

/**
 * Checks a Range filter. `byTime` lists ids whose field is T0+0, T0+1000, T0+2000 (one id
 * each, ascending); `absent` ids have no value for the field (optional fields only).
 */
export async function expectRangeFilter(
  list: (range: Range) => Promise<Page<{ id: number }>>,
  byTime: readonly [number, number, number],
  absent: readonly number[] = [],
): Promise<void> {
  const [early, middle, late] = byTime;
  const run = async (range: Range) => ids(await list(range));
  expect(await run({ from: T0 + 1000 })).toEqual([middle, late]);
  expect(await run({ from: T0 + 1001 })).toEqual([late]);
  expect(await run({ to: T0 + 1000 })).toEqual([early]);
  expect(await run({ to: T0 + 1001 })).toEqual([early, middle]);
  expect(await run({ from: T0 + 1000, to: T0 + 2000 })).toEqual([middle]);
  expect(await run({ from: T0 + 1000, to: T0 + 1000 })).toEqual([]);
  expect(await run({ from: T0, to: T0 + 2001 })).toEqual([early, middle, late]);
  if (absent.length > 0) {
    const everything = await run({ from: -8.64e15, to: 8.64e15 });
    for (const id of absent) expect(everything).not.toContain(id);
  }
}

/** A webhook endpoint of the site (issue 31): every type, a public https URL, a secret of its own. */
export function newEndpoint(siteId: number, overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint {
  return {
    siteId,
    url: 'https://hooks.example.com/svc',
    allowPrivate: false,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    source: 'cli',
    createdAt: T0,
    ...overrides,
  };
}
