/**
 * Random valid filters for each list endpoint, drawn from the values the sites' rows really
 * hold, and the rows they select, computed here over the store's records and nowhere else.
 */
import fc from 'fast-check';
import { MEMBER_STATUSES, MEMBERSHIP_STATUSES, PLAN_TYPES } from '../../../src/contract/admin';
import type { SiteData } from '../../support/admin-fixture';
import { ids, inRange } from '../helpers';

/** Drawn filters by parameter name; null for a parameter the run leaves out. */
export type Filters = Record<string, any>;

export interface FilterCase {
  path: string;
  filters: fc.Arbitrary<Filters>;
  /** The site's rows the filters select, in id order. */
  select(data: SiteData, filters: Filters): Array<{ id: number }>;
}

/** An equality filter left out matches every row. */
const equal = (f: Filters, name: string, value: unknown) => f[name] == null || value === f[name];

/** A range with either bound left out is open on that side; a row without the value matches only when both are. */
const within = (f: Filters, [after, before]: [string, string], value: number | undefined) =>
  inRange(value, f[after] ?? undefined, f[before] ?? undefined);

/** The filter cases of every list endpoint, their values drawn from the rows of `sites`. */
export function filterCases(sites: SiteData[]): FilterCase[] {
  const pick = <T>(values: T[]) => fc.constantFrom(...values);
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 2 });
  /** Ids of every site, and one no site has. */
  const allIds = (get: (d: SiteData) => Array<{ id: number }>) => [...sites.flatMap((d) => ids(get(d))), 999_999];
  /** Instants rows have, a millisecond either side of them, or any instant of a few years. */
  const instants = (get: (d: SiteData) => Array<number | undefined>) => {
    const values = sites.flatMap(get).filter((v): v is number => v !== undefined);
    return fc.oneof(pick(values), pick(values).map((v) => v + 1), pick(values).map((v) => v - 1), fc.integer({ min: Date.UTC(2023, 0, 1), max: Date.UTC(2028, 0, 1) }));
  };
  /** Both bounds of a range, each drawn or left out on its own. */
  const range = ([after, before]: [string, string], get: (d: SiteData) => Array<number | undefined>) => ({
    [after]: optional(instants(get)),
    [before]: optional(instants(get)),
  });

  return [
    {
      path: '/members',
      filters: fc.record({
        firstName: optional(pick(sites.flatMap((d) => d.members.map((m) => m.firstName ?? 'Nobody')))),
        lastName: optional(pick(sites.flatMap((d) => d.members.map((m) => m.lastName ?? 'Nobody')))),
        email: optional(pick(sites.flatMap((d) => d.members.map((m) => m.email)))),
        status: optional(pick([...MEMBER_STATUSES])),
        ...range(['createdAfter', 'createdBefore'], (d) => d.members.map((m) => m.createdAt)),
      }),
      select: (d, f) =>
        d.members.filter(
          (m) =>
            equal(f, 'firstName', m.firstName) && equal(f, 'lastName', m.lastName) && equal(f, 'email', m.email) &&
            equal(f, 'status', m.status) && within(f, ['createdAfter', 'createdBefore'], m.createdAt),
        ),
    },
    {
      path: '/memberships',
      filters: fc.record({
        planId: optional(pick(allIds((d) => d.plans))),
        memberId: optional(pick(allIds((d) => d.members))),
        status: optional(pick([...MEMBERSHIP_STATUSES])),
        ...range(['createdAfter', 'createdBefore'], (d) => d.memberships.map((m) => m.createdAt)),
        ...range(['billingPeriodEndAfter', 'billingPeriodEndBefore'], (d) => d.memberships.map((m) => m.billingPeriodEnd)),
        ...range(['expiresAfter', 'expiresBefore'], (d) => d.memberships.map((m) => m.expiresAt)),
      }),
      select: (d, f) =>
        d.memberships.filter(
          (m) =>
            equal(f, 'planId', m.planId) && equal(f, 'memberId', m.memberId) && equal(f, 'status', m.status) &&
            within(f, ['createdAfter', 'createdBefore'], m.createdAt) &&
            within(f, ['billingPeriodEndAfter', 'billingPeriodEndBefore'], m.billingPeriodEnd) &&
            within(f, ['expiresAfter', 'expiresBefore'], m.expiresAt),
        ),
    },
    {
      path: '/memberEvents',
      filters: fc.record({
        memberId: optional(pick(allIds((d) => d.members))),
        ...range(['createdAfter', 'createdBefore'], (d) => d.events.map((e) => e.createdAt)),
      }),
      select: (d, f) => d.events.filter((e) => equal(f, 'memberId', e.memberId) && within(f, ['createdAfter', 'createdBefore'], e.createdAt)),
    },
    {
      path: '/contentLibrary/views',
      filters: fc.record({
        memberId: optional(pick(allIds((d) => d.members))),
        nodeId: optional(pick(allIds((d) => d.nodes))),
        ...range(['viewedAfter', 'viewedBefore'], (d) => d.views.map((v) => v.viewedAt)),
      }),
      select: (d, f) =>
        d.views.filter((v) => equal(f, 'memberId', v.memberId) && equal(f, 'nodeId', v.nodeId) && within(f, ['viewedAfter', 'viewedBefore'], v.viewedAt)),
    },
    {
      path: '/plans',
      filters: fc.record({ type: optional(pick([...PLAN_TYPES])), status: optional(pick(['enabled', 'disabled', 'deleted'])) }),
      // Without a status, /plans lists the enabled and disabled plans only.
      select: (d, f) =>
        d.plans.filter(
          (p) => equal(f, 'type', p.type) && (f.status == null ? p.status === 'enabled' || p.status === 'disabled' : p.status === f.status),
        ),
    },
  ];
}
