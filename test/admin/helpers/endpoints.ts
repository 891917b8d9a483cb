/** The Admin API's routes: where they live, the scope each needs, and which site rows each lists. */
import type { Scope } from '../../../src/contract/admin';
import { readSiteData, type AdminFixture, type SiteData } from '../../support/admin-fixture';

export const BASE = '/admin/v1';

export interface ListEndpointInfo {
  path: string;
  scope: Scope;
  /** The site's rows this endpoint lists, unfiltered, as the store holds them. */
  rows(data: SiteData): Array<{ id: number }>;
}

/** /plans lists enabled and disabled plans only; the rest list everything. */
export const LIST_ENDPOINTS: ListEndpointInfo[] = [
  { path: '/plans', scope: 'read.plans', rows: (d) => d.plans.filter((p) => p.status === 'enabled' || p.status === 'disabled') },
  { path: '/members', scope: 'read.members', rows: (d) => d.members },
  { path: '/memberships', scope: 'read.memberships', rows: (d) => d.memberships },
  { path: '/memberEvents', scope: 'read.memberEvents', rows: (d) => d.events },
  { path: '/contentLibrary/views', scope: 'read.contentViews', rows: (d) => d.views },
];

export interface Route {
  name: string;
  path: (planId: number) => string;
  /** None for /sites. */
  scope: Scope | undefined;
}

/** Every GET route with the scope it needs; `{id}` filled by the caller. */
export const ROUTES: Route[] = [
  { name: '/sites', path: () => '/sites', scope: undefined },
  { name: '/plans/{id}', path: (id) => `/plans/${id}`, scope: 'read.plans' },
  ...LIST_ENDPOINTS.map((e) => ({ name: e.path, path: () => e.path, scope: e.scope })),
];

/** A plan id of the demo site, for /plans/{id}. */
export async function demoPlanId(fx: AdminFixture): Promise<number> {
  return (await readSiteData(fx.store, fx.demo.id)).plans[0]!.id;
}

/** Every route with its path filled in with a demo plan, so each one answers 200 to a good key. */
export async function routeUrls(fx: AdminFixture): Promise<Array<Route & { url: string }>> {
  const id = await demoPlanId(fx);
  return ROUTES.map((r) => ({ ...r, url: r.path(id) }));
}
