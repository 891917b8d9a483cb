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
  // The ledger the owner refunds from (issue 32).
  { path: '/invoices', scope: 'read.invoices', rows: (d) => d.invoices },
];

export interface Route {
  name: string;
  /** The path with `{id}` filled in: a plan's for /plans/{id}, an invoice's for /invoices/{id}. */
  path: (id: number) => string;
  /** None for /sites and /key: any valid key reads them. */
  scope: Scope | undefined;
  /** What `{id}` names; none when the path has no id. */
  id?: 'plan' | 'invoice';
}

/** Every GET route of the reads with the scope it needs; `{id}` filled by the caller. */
export const ROUTES: Route[] = [
  { name: '/sites', path: () => '/sites', scope: undefined },
  // The request's own key: its id and scopes (what a client such as the console may offer).
  { name: '/key', path: () => '/key', scope: undefined },
  { name: '/plans/{id}', path: (id) => `/plans/${id}`, scope: 'read.plans', id: 'plan' },
  { name: '/invoices/{id}', path: (id) => `/invoices/${id}`, scope: 'read.invoices', id: 'invoice' },
  ...LIST_ENDPOINTS.map((e) => ({ name: e.path, path: () => e.path, scope: e.scope })),
];

/** A plan id of the demo site, for /plans/{id}. */
export async function demoPlanId(fx: AdminFixture): Promise<number> {
  return (await readSiteData(fx.store, fx.demo.id)).plans[0]!.id;
}

/** Every route with its path filled in with a demo plan or invoice, so each one answers 200 to a good key. */
export async function routeUrls(fx: AdminFixture): Promise<Array<Route & { url: string }>> {
  const data = await readSiteData(fx.store, fx.demo.id);
  const ids = { plan: data.plans[0]!.id, invoice: data.invoices[0]!.id };
  return ROUTES.map((r) => ({ ...r, url: r.path(r.id ? ids[r.id] : 0) }));
}

/** The owner's actions (issue 32): each changes the store, under a write scope of its own. */
export interface ActionInfo {
  /** `METHOD /template`. */
  name: string;
  method: 'GET' | 'POST';
  template: string;
  scope: Scope;
}

export const ACTIONS: ActionInfo[] = [
  { name: 'POST /memberships', method: 'POST', template: '/memberships', scope: 'memberships:write' },
  { name: 'POST /memberships/{id}/cancel', method: 'POST', template: '/memberships/{id}/cancel', scope: 'memberships:write' },
  { name: 'POST /invoices/{id}/refund', method: 'POST', template: '/invoices/{id}/refund', scope: 'invoices:write' },
  { name: 'POST /members/{id}/block', method: 'POST', template: '/members/{id}/block', scope: 'members:write' },
  { name: 'POST /members/{id}/unblock', method: 'POST', template: '/members/{id}/unblock', scope: 'members:write' },
  { name: 'POST /members/{id}/erase', method: 'POST', template: '/members/{id}/erase', scope: 'members:write' },
  // Changes nothing of the member's, but records that it was made: an action, though a GET.
  { name: 'GET /members/{id}/export', method: 'GET', template: '/members/{id}/export', scope: 'members:write' },
];

export interface ActionRequest extends ActionInfo {
  url: string;
  /** A body the action takes, for the demo site's rows: only the check under test refuses the request. */
  body: unknown;
}

/**
 * Every action on rows of the demo site (an active membership, a paid invoice, their member), with
 * a body it takes: sent with a good key, each would act.
 */
export async function actionRequests(fx: AdminFixture): Promise<ActionRequest[]> {
  const data = await readSiteData(fx.store, fx.demo.id);
  const membership = data.memberships.find((m) => m.status === 'active')!;
  const invoice = data.invoices.find((i) => i.status === 'paid')!;
  const held = new Set(data.memberships.filter((m) => m.memberId === membership.memberId && m.status === 'active').map((m) => m.planId));
  const plan = data.plans.find((p) => p.status === 'enabled' && !held.has(p.id))!;
  const fill = (template: string) =>
    template
      .replace('/memberships/{id}', `/memberships/${membership.id}`)
      .replace('/invoices/{id}', `/invoices/${invoice.id}`)
      .replace('/members/{id}', `/members/${membership.memberId}`);
  const bodies: Record<string, unknown> = {
    'POST /memberships': { memberId: membership.memberId, planId: plan.id },
    'POST /memberships/{id}/cancel': { when: 'now' },
    'POST /invoices/{id}/refund': {},
  };
  return ACTIONS.map((a) => ({ ...a, url: fill(a.template), body: a.method === 'POST' ? (bodies[a.name] ?? {}) : undefined }));
}

/**
 * The methods each path takes, in the order its 405 names them in `Allow`: a read's GET, an
 * action's method, both for /memberships (GET lists, POST gives a plan); HEAD with every GET.
 */
export function allowedMethods(template: string): string {
  const taken = [
    ...(ROUTES.some((r) => r.name === template) ? ['GET'] : []),
    ...ACTIONS.filter((a) => a.template === template).map((a) => a.method),
  ];
  const unique = [...new Set(taken)].sort((a, b) => (a === 'GET' ? -1 : b === 'GET' ? 1 : 0));
  return [...unique, ...(unique.includes('GET') ? ['HEAD'] : [])].join(', ');
}
