/** The Admin API's list endpoints (spec 4.2), each a filter set over one store query. */
import {
  MEMBER_STATUSES,
  MEMBERSHIP_STATUSES,
  PLAN_STATUSES,
  PLAN_TYPES,
  type ContentView,
  type Member,
  type MemberEvent,
  type Membership,
  type Plan,
  type PlanStatus,
} from '../../contract/admin';
import type { Invoice } from '../../contract/webhooks';
import type { ContentViewFilter, InvoiceFilter, MemberEventFilter, MemberFilter, MembershipFilter, PlanFilter } from '../store/queries';
import type { ListEndpoint } from './list-endpoint';
import { toContentView, toInvoice, toMember, toMemberEvent, toMembership, toPlan } from './serialize';
import type { ContentViewRecord, InvoiceRecord, MemberEventRecord, MemberSummary, MembershipRecord, PlanRecord } from '../store/records';
import type { Store } from '../store/store';

/** `/plans` lists live plans: archived ones are excluded (spec 3); deleted ones only when asked for. */
const INVOICE_STATUSES = ['paid', 'failed', 'refunded'] as const satisfies readonly InvoiceRecord['status'][];

export const LISTED_PLAN_STATUSES: readonly PlanStatus[] = ['enabled', 'disabled'];

export async function plansWithCounts(store: Store, siteId: number, plans: PlanRecord[]) {
  const counts = await store.planActiveMemberCounts(siteId, plans.map((p) => p.id));
  return plans.map((p) => toPlan(p, counts.get(p.id) ?? 0));
}

export const plansEndpoint: ListEndpoint<PlanFilter, PlanRecord, Plan> = {
  path: '/plans',
  scope: 'read.plans',
  filters(q) {
    const type = q.oneOf('type', PLAN_TYPES);
    const status = q.oneOf('status', PLAN_STATUSES);
    if (status === 'archived') q.fail('status', 'archived plans are not listed; read one by id with GET /plans/{id}');
    return { type, statuses: status && status !== 'archived' ? [status] : LISTED_PLAN_STATUSES };
  },
  list: (store, siteId, filter, page) => store.listPlans(siteId, filter, page),
  toWire: (store, site, plans) => plansWithCounts(store, site.id, plans),
  total: (store, siteId, filter) => store.countPlans(siteId, filter),
};

export const membersEndpoint: ListEndpoint<MemberFilter, MemberSummary, Member> = {
  path: '/members',
  scope: 'read.members',
  filters: (q) => ({
    // E-mails are stored lower-cased, so the exact match ignores the case the client typed.
    email: q.string('email', 320)?.toLowerCase(),
    firstName: q.string('firstName'),
    lastName: q.string('lastName'),
    status: q.oneOf('status', MEMBER_STATUSES),
    created: q.range('createdAfter', 'createdBefore'),
  }),
  list: (store, siteId, filter, page) => store.listMemberSummaries(siteId, filter, page),
  toWire: (_store, _site, rows) => rows.map(toMember),
};

export const membershipsEndpoint: ListEndpoint<MembershipFilter, MembershipRecord, Membership> = {
  path: '/memberships',
  scope: 'read.memberships',
  filters: (q) => ({
    planId: q.id('planId'),
    memberId: q.id('memberId'),
    status: q.oneOf('status', MEMBERSHIP_STATUSES),
    created: q.range('createdAfter', 'createdBefore'),
    billingPeriodEnd: q.range('billingPeriodEndAfter', 'billingPeriodEndBefore'),
    expires: q.range('expiresAfter', 'expiresBefore'),
  }),
  list: (store, siteId, filter, page) => store.listMemberships(siteId, filter, page),
  toWire: (_store, _site, rows) => rows.map(toMembership),
};

export const memberEventsEndpoint: ListEndpoint<MemberEventFilter, MemberEventRecord, MemberEvent> = {
  path: '/memberEvents',
  scope: 'read.memberEvents',
  filters: (q) => ({ memberId: q.id('memberId'), created: q.range('createdAfter', 'createdBefore') }),
  list: (store, siteId, filter, page) => store.listMemberEvents(siteId, filter, page),
  toWire: (_store, _site, rows) => rows.map(toMemberEvent),
};

export const contentViewsEndpoint: ListEndpoint<ContentViewFilter, ContentViewRecord, ContentView> = {
  path: '/contentLibrary/views',
  scope: 'read.contentViews',
  filters: (q) => ({
    memberId: q.id('memberId'),
    nodeId: q.id('nodeId'),
    viewed: q.range('viewedAfter', 'viewedBefore'),
  }),
  list: (store, siteId, filter, page) => store.listContentViews(siteId, filter, page),
  toWire: (_store, _site, rows) => rows.map(toContentView),
};


/** The ledger (issue 32): every charge attempt, failed ones included, with what was refunded of it. */
export const invoicesEndpoint: ListEndpoint<InvoiceFilter, InvoiceRecord, Invoice> = {
  path: '/invoices',
  scope: 'read.invoices',
  filters: (q) => ({
    memberId: q.id('memberId'),
    status: q.oneOf('status', INVOICE_STATUSES),
    created: q.range('createdAfter', 'createdBefore'),
  }),
  list: (store, siteId, filter, page) => store.listInvoices(siteId, filter, page),
  toWire: (_store, _site, rows) => rows.map(toInvoice),
};
