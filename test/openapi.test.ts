/**
 * The OpenAPI description: served as it is written, structurally sound, and true: every
 * response the Admin API gives for every operation and every status it documents passes the
 * validator (test/support/openapi-validator.ts), and responses that break the contract fail it.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { Hono } from 'hono';
import addFormats from 'ajv-formats';
import { beforeAll, expect, test, vi } from 'vitest';
import {
  CONTENT_NODE_TYPES,
  MEMBER_EVENT_TYPES,
  MEMBER_STATUSES,
  MEMBERSHIP_STATUSES,
  PLAN_STATUSES,
  PLAN_TYPES,
  READ_SCOPES,
  SCOPES,
  type Scope,
} from '../src/contract/admin';
import { WEBHOOK_EVENT_TYPES } from '../src/contract/webhooks';
import { ERROR_CODES, openApiDocument, type OpenApiObject } from '../src/service/admin/openapi';
import { createServiceApp } from '../src/service/app';
import { hashApiKey, issueApiKey } from '../src/service/auth/api-keys';
import { definePlan } from '../src/service/domain/plans';
import { createSite } from '../src/service/domain/sites';
import { TestPaymentProcessor } from '../src/service/payments/test-processor';
import { createMemoryStore } from '../src/service/store/memory';
import type { InvoiceRecord } from '../src/service/store/records';
import { adminRequest, type AdminResponse } from './support/admin-request';
import { failingStore } from './support/failing-store';
import { documentedResponses, forgetSeenResponses, seenResponses, validateAgainstOpenApi } from './support/admin-openapi';

// --------------------------------------------------------------------------------------- data

const NOW = Date.parse('2026-03-01T12:00:00Z');
const DAY = 86_400_000;
const clock = () => NOW;

const store = createMemoryStore();
const site = await createSite(store, clock, { subdomain: 'openapi', name: 'OpenAPI Co', currency: 'EUR', locale: 'de' });
const offSite = await createSite(store, clock, { subdomain: 'downgraded' });
await store.updateSite(offSite.id, { adminApiEnabled: false });

const free = await definePlan(store, clock, site.id, { name: 'Free', type: 'free', expiration: { mode: 'none' } });
const oneTime = await definePlan(store, clock, site.id, {
  name: 'Lifetime',
  type: 'oneTimePayment',
  description: '<p>Pay once</p>',
  contentUrl: 'https://example.com/content',
  welcomeUrl: 'https://example.com/welcome',
  expiration: { mode: 'specificTime', expiresAt: '2027-01-01T00:00:00Z' },
  billing: { price: 99, currency: 'EUR', taxPercentage: 19, taxDescription: 'VAT' },
});
const multi = await definePlan(store, clock, site.id, {
  name: 'Instalments',
  type: 'multiPayment',
  expiration: { mode: 'interval', count: 1, unit: 'year' },
  billing: { price: 30, currency: 'eur', interval: { count: 1, unit: 'month' }, paymentCountRequired: 3, trialPeriodDays: 7 },
});
const subscription = await definePlan(store, clock, site.id, {
  name: 'Gold',
  type: 'subscription',
  isPublic: false,
  billing: { price: 10, currency: 'eur', interval: { count: 1, unit: 'year' }, billingDate: { day: 3, month: 4 }, signupFee: 5 },
});
const archived = await definePlan(store, clock, site.id, { name: 'Old', type: 'free', status: 'archived', expiration: { mode: 'none' } });
await definePlan(store, clock, site.id, { name: 'Gone', type: 'free', status: 'deleted', expiration: { mode: 'none' } });

/** member1's customer at the test processor, which knows the charges of member1's invoices. */
const CUSTOMER = 'cus_test_openapi';
const memberIds = await store.createMembers(
  Array.from({ length: 30 }, (_, i) => ({
    siteId: site.id,
    email: `member${i}@example.com`,
    ...(i % 2 === 0 && { firstName: `First${i}`, lastName: `Last${i}` }),
    status: MEMBER_STATUSES[i % MEMBER_STATUSES.length]!,
    createdAt: NOW - (30 - i) * DAY,
    ...(i === 1 && { processorCustomerId: CUSTOMER }),
  })),
);
const [m0, m1, m2, m3, m4, m5] = memberIds as [number, number, number, number, number, number];
/** Members the owner's actions change (issue 32): one is blocked and unblocked, one erased. Both approved. */
const [toBlock, toErase] = [memberIds[8]!, memberIds[12]!];
const [freeOfM0, , , , expiredOfM3, running] = await store.createMemberships([
  { siteId: site.id, memberId: m0, planId: free.id, status: 'active', createdAt: NOW - 10 * DAY, paymentFailure: false },
  { siteId: site.id, memberId: m1, planId: oneTime.id, status: 'active', createdAt: NOW - 9 * DAY, expiresAt: NOW + 300 * DAY, paymentFailure: false },
  { siteId: site.id, memberId: m2, planId: multi.id, status: 'active', createdAt: NOW - 8 * DAY, billingPeriodEnd: NOW + 20 * DAY, paymentFailure: false },
  {
    siteId: site.id,
    memberId: m3,
    planId: subscription.id,
    status: 'active',
    createdAt: NOW - 7 * DAY,
    cancelsAt: NOW + 5 * DAY,
    billingPeriodEnd: NOW + 5 * DAY,
    paymentFailure: false,
  },
  { siteId: site.id, memberId: m3, planId: free.id, status: 'expired', createdAt: NOW - 70 * DAY, expiresAt: NOW - DAY, paymentFailure: false },
  // A subscription running to its period's end, nothing cancelled yet: the owner cancels it.
  { siteId: site.id, memberId: m5, planId: subscription.id, status: 'active', createdAt: NOW - 3 * DAY, billingPeriodEnd: NOW + 20 * DAY, paymentFailure: false },
]) as [number, number, number, number, number, number];
await store.createMemberEvents([
  { siteId: site.id, memberId: m0, eventType: 'signup', details: {}, createdAt: NOW - 10 * DAY },
  { siteId: site.id, memberId: m1, eventType: 'login', details: {}, createdAt: NOW - 2 * DAY },
  {
    siteId: site.id,
    memberId: m2,
    eventType: 'abandonedConversion',
    details: { amount: '€30.00', chargeId: 'ch_1', invoiceId: 'in_1' },
    createdAt: NOW - DAY,
  },
  // One of each other kind, with the details the service writes for it.
  { siteId: site.id, memberId: m3, eventType: 'conversion', details: { planId: free.id, membershipId: 1, orderId: 'ord_abc' }, createdAt: NOW - 9 * DAY },
  { siteId: site.id, memberId: m3, eventType: 'paymentFailed', details: { planId: subscription.id, membershipId: 1, amount: '€9.00', reason: 'card_declined', attempt: 1, chargeId: 'ch_2', invoiceId: 'in_2' }, createdAt: NOW - 8 * DAY },
  { siteId: site.id, memberId: m3, eventType: 'paymentFailed', details: { planId: subscription.id, membershipId: 1, amount: '€9.00', reason: 'noPaymentMethod', attempt: 2 }, createdAt: NOW - 7 * DAY },
  { siteId: site.id, memberId: m3, eventType: 'cancellation', details: { planId: subscription.id, reason: 'paymentFailed' }, createdAt: NOW - 6 * DAY },
  { siteId: site.id, memberId: m3, eventType: 'cancellation', details: { planId: free.id }, createdAt: NOW - 5 * DAY },
  { siteId: site.id, memberId: m3, eventType: 'passwordReset', details: {}, createdAt: NOW - 4 * DAY },
]);
const space = await store.createContentSpace({ siteId: site.id, name: 'Courses' });
const nodeIds: number[] = [];
for (const type of CONTENT_NODE_TYPES) {
  nodeIds.push(await store.createContentNode({ siteId: site.id, spaceId: space, name: `A ${type}`, type }));
}
await store.createContentViews(nodeIds.map((nodeId, i) => ({ siteId: site.id, memberId: m0, nodeId, viewedAt: NOW - i * DAY })));

// member1's ledger: two paid invoices (one the owner refunds, one while the processor is down)
// and a failed attempt, each with its charge at the test processor, which refunds only a charge
// it knows (of the member's customer).
await store.createTestProcessorCustomers([{ id: CUSTOMER, email: 'member1@example.com', createdAt: NOW - 20 * DAY }]);
const ledger = [
  { n: 1, status: 'paid', createdAt: NOW - 9 * DAY },
  { n: 2, status: 'paid', createdAt: NOW - 8 * DAY },
  { n: 3, status: 'failed', createdAt: NOW - 7 * DAY },
] as const;
await store.addTestProcessorCharges(
  ledger.map(({ n, status, createdAt }) => ({
    invoiceId: `in_test_openapi${n}`,
    chargeId: `ch_test_openapi${n}`,
    customerId: CUSTOMER,
    cardId: 'pm_test_openapi',
    amountCents: 9900,
    currency: 'eur',
    description: 'Lifetime',
    status,
    ...(status === 'failed' && { declineCode: 'card_declined' as const }),
    createdAt,
  })),
);
const invoices: InvoiceRecord[] = [];
for (const { n, status, createdAt } of ledger) {
  invoices.push(await store.createInvoice({
    siteId: site.id,
    memberId: m1,
    planId: oneTime.id,
    processorInvoiceId: `in_test_openapi${n}`,
    processorChargeId: `ch_test_openapi${n}`,
    subTotalCents: 8319,
    taxCents: 1581,
    totalCents: 9900,
    currency: 'eur',
    status,
    description: 'Lifetime',
    createdAt,
  }));
}
const [paid, paidToo, failed] = invoices as [InvoiceRecord, InvoiceRecord, InvoiceRecord];

const allScopes = (await issueApiKey(store, clock, { siteId: site.id, scopes: [...SCOPES] })).key;
const plansOnly = (await issueApiKey(store, clock, { siteId: site.id, scopes: ['read.plans'] })).key;
const membersOnly = (await issueApiKey(store, clock, { siteId: site.id, scopes: ['read.members'] })).key;
/** Every read scope, no write scope: the owner's actions are not found for it. */
const readsOnly = (await issueApiKey(store, clock, { siteId: site.id, scopes: [...READ_SCOPES] })).key;
const downgraded = (await issueApiKey(store, clock, { siteId: offSite.id, scopes: [...SCOPES] })).key;
const expired = (await issueApiKey(store, clock, { siteId: site.id, scopes: [...SCOPES], expiresInMs: -1 })).key;
const revoked = (await issueApiKey(store, clock, { siteId: site.id, scopes: [...SCOPES] })).key;
await store.revokeApiKey(hashApiKey(revoked), NOW - 1);

const app = await createServiceApp({ store, clock });

const A = '/admin/v1';
interface Operation {
  path: string;
  scope?: Scope;
  /** GET when absent. */
  method?: string;
  /** An owner action's body: one it takes, so only the check under test can refuse the request. */
  body?: unknown;
}
/** One request per documented operation that needs a key, with the scope it needs. */
const OPERATIONS: Operation[] = [
  { path: `${A}/sites` },
  { path: `${A}/key` },
  { path: `${A}/plans`, scope: 'read.plans' },
  { path: `${A}/plans/${free.id}`, scope: 'read.plans' },
  { path: `${A}/members`, scope: 'read.members' },
  { path: `${A}/memberships`, scope: 'read.memberships' },
  { path: `${A}/memberEvents`, scope: 'read.memberEvents' },
  { path: `${A}/contentLibrary/views`, scope: 'read.contentViews' },
  { path: `${A}/invoices`, scope: 'read.invoices' },
  { path: `${A}/invoices/${paid.id}`, scope: 'read.invoices' },
  // The owner's actions (issue 32).
  { path: `${A}/memberships`, scope: 'memberships:write', method: 'POST', body: { memberId: m4, planId: subscription.id } },
  { path: `${A}/memberships/${running}/cancel`, scope: 'memberships:write', method: 'POST', body: { when: 'periodEnd' } },
  { path: `${A}/invoices/${paid.id}/refund`, scope: 'invoices:write', method: 'POST', body: { amountCents: 100 } },
  { path: `${A}/members/${toBlock}/block`, scope: 'members:write', method: 'POST', body: {} },
  { path: `${A}/members/${toBlock}/unblock`, scope: 'members:write', method: 'POST', body: {} },
  { path: `${A}/members/${toErase}/erase`, scope: 'members:write', method: 'POST', body: {} },
  { path: `${A}/members/${m0}/export`, scope: 'members:write' },
];
/** Requests the document has no operation for: an unknown path, another method on a known one. */
const UNLISTED: { path: string; scope?: Scope; method: string }[] = [
  { path: `${A}/nope`, method: 'GET' },
  { path: `${A}/sites`, method: 'POST' },
];

const get = (path: string, key = allScopes, headers: Record<string, string> = {}) => adminRequest(app, path, { key, headers });
/** The operation's request, its body included, with `key` (none: no Authorization header). */
const send = (to: Hono, { path, method = 'GET', body }: Operation, key?: string) =>
  adminRequest(to, path, { method, ...(key !== undefined && { key }), ...(body !== undefined && { body }) });
/** An owner action with a key of every scope. */
const act = (path: string, body?: unknown, method = 'POST') => adminRequest(app, path, { key: allScopes, method, ...(body !== undefined && { body }) });

/** What the owner's actions change, as the store holds it: a refused request must leave it as it was. */
async function siteState(): Promise<string> {
  const page = { limit: 1000 };
  return JSON.stringify([
    await store.listMembers(site.id, {}, page),
    await store.listMemberships(site.id, {}, page),
    await store.listInvoices(site.id, {}, page),
    await store.listMemberEvents(site.id, {}, page),
    await store.getTestProcessorCustomer(CUSTOMER),
  ]);
}

// The coverage test at the end counts this file's requests only: other files of the worker share
// the validator (their modules are shared), and what they saw must not cover for this file.
beforeAll(() => forgetSeenResponses());

// ------------------------------------------------------------------------- the served document

/**
 * Every path of the document with the methods it takes: GET for the reads, POST for the owner's
 * actions (issue 32), but export, which changes nothing but the record that it was made, a GET.
 */
const METHODS: Record<string, string[]> = {
  '/sites': ['get'],
  '/key': ['get'],
  '/plans': ['get'],
  '/plans/{id}': ['get'],
  '/members': ['get'],
  '/memberships': ['get', 'post'],
  '/memberEvents': ['get'],
  '/contentLibrary/views': ['get'],
  '/invoices': ['get'],
  '/invoices/{id}': ['get'],
  '/openapi.json': ['get'],
  '/memberships/{id}/cancel': ['post'],
  '/invoices/{id}/refund': ['post'],
  '/members/{id}/block': ['post'],
  '/members/{id}/unblock': ['post'],
  '/members/{id}/export': ['get'],
  '/members/{id}/erase': ['post'],
};
/** The owner's actions, as `method template`. */
const ACTIONS = [
  'post /memberships',
  'post /memberships/{id}/cancel',
  'post /invoices/{id}/refund',
  'post /members/{id}/block',
  'post /members/{id}/unblock',
  'get /members/{id}/export',
  'post /members/{id}/erase',
];
/** The actions a resource's state can refuse (409), and those that ask the payment processor (502). */
const CONFLICTING = ['post /memberships', 'post /memberships/{id}/cancel', 'post /invoices/{id}/refund', 'post /members/{id}/block', 'post /members/{id}/unblock'];
const ASKING_THE_PROCESSOR = ['post /invoices/{id}/refund', 'post /members/{id}/erase'];
/** What any valid key reads, whatever its scopes: its site, and itself. */
const NO_SCOPE = ['/sites', '/key'];

test('GET /admin/v1/openapi.json serves openApiDocument as application/json, without a key', async () => {
  const res = await adminRequest(app, `${A}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.body).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
  expect(res.body).toEqual(openApiDocument);
});

test('the document is OpenAPI 3.1.0, version 1.0.0, served under /admin/v1 with bearer keys', () => {
  expect(openApiDocument.openapi).toBe('3.1.0');
  expect(openApiDocument.info).toMatchObject({ title: 'svc Admin API', version: '1.0.0' });
  expect(openApiDocument.servers.map((s) => s.url)).toEqual(['/admin/v1']);
  expect(openApiDocument.security).toEqual([{ adminKey: [] }]);
  expect(openApiDocument.components.securitySchemes.adminKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(Object.keys(openApiDocument.paths).sort()).toEqual(Object.keys(METHODS).sort());
});

/** Every node of the document with its JSON pointer. */
function* walk(node: unknown, pointer = '#'): Generator<[string, Record<string, unknown>]> {
  if (node === null || typeof node !== 'object') return;
  if (!Array.isArray(node)) yield [pointer, node as Record<string, unknown>];
  for (const [key, value] of Object.entries(node)) yield* walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

function deref(ref: string): unknown {
  let target: unknown = openApiDocument;
  for (const part of ref.slice(2).split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return target;
}

test('every $ref resolves, and every component is used', () => {
  const refs = new Set<string>();
  for (const [pointer, node] of walk(openApiDocument)) {
    if (!('$ref' in node)) continue;
    const ref = node.$ref;
    expect(typeof ref, pointer).toBe('string');
    expect(ref as string, pointer).toMatch(/^#\/components\//);
    expect(deref(ref as string), `${pointer} → ${String(ref)}`).toBeDefined();
    refs.add(ref as string);
  }
  for (const [kind, entries] of Object.entries(openApiDocument.components)) {
    if (kind === 'securitySchemes') continue;
    for (const name of Object.keys(entries)) {
      // MethodNotAllowed answers methods the document has no operation for; it is named in info.description.
      if (kind === 'responses' && name === 'MethodNotAllowed') continue;
      expect(refs, `#/components/${kind}/${name} is never referenced`).toContain(`#/components/${kind}/${name}`);
    }
  }
});

const operations = Object.entries(openApiDocument.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, op]) => ({ template, method, op })),
);

test('operations: unique ids, GET for reads and POST for actions, the statuses each can answer', () => {
  const ids = operations.map(({ op }) => op.operationId);
  expect(new Set(ids).size).toBe(ids.length);
  for (const [template, item] of Object.entries(openApiDocument.paths)) expect(Object.keys(item), template).toEqual(METHODS[template]);
  for (const { template, method, op } of operations) {
    const where = `${method} ${template}`;
    const statuses = Object.keys(op.responses as object).sort();
    const secured = !(Array.isArray(op.security) && op.security.length === 0);
    if (!secured) {
      expect(template).toBe('/openapi.json');
      expect(statuses, where).toEqual(['200', '405']);
      continue;
    }
    const action = ACTIONS.includes(where);
    expect((op.tags as string[]).includes('Owner actions'), where).toBe(action);
    const isList = ((op.parameters ?? []) as OpenApiObject[]).some((p) => p.$ref === '#/components/parameters/XCursor');
    expect(isList, where).toBe(!action && !['/sites', '/key', '/plans/{id}', '/invoices/{id}'].includes(template));
    // A body only for the actions a POST makes; none is required (an action that takes no input takes an empty one).
    const takesBody = method === 'post';
    expect(op.requestBody !== undefined, where).toBe(takesBody);
    // Giving a plan creates a membership (201); everything else answers what it read or changed (200).
    const ok = where === 'post /memberships' ? '201' : '200';
    // Every key-checked request can be refused before the route runs (401, 403, 429), by a
    // method the path does not take (405) and by a fault of the service (500). /sites and /key
    // need no scope and have no id, so nothing there is ever not found. Only a list reads parameters
    // (400); only an action's body can be malformed, too large or not JSON (400, 413, 415).
    const expected = [
      ok,
      ...(isList || takesBody ? ['400'] : []),
      '401',
      '403',
      ...(NO_SCOPE.includes(template) ? [] : ['404']),
      '405',
      ...(CONFLICTING.includes(where) ? ['409'] : []),
      ...(takesBody ? ['413', '415'] : []),
      '429',
      '500',
      ...(ASKING_THE_PROCESSOR.includes(where) ? ['502'] : []),
    ];
    expect(statuses, where).toEqual(expected.sort());
    if (NO_SCOPE.includes(template)) {
      expect(String(op.description), where).toMatch(/Needs no scope/);
      expect(op['x-required-scope'], where).toBeUndefined();
      continue;
    }
    // The scope the description names is the one the operation requires, a read scope for a read
    // and a write scope for an action.
    const named = /Needs the scope `([^`]+)`; a key without it is answered 404/.exec(String(op.description))?.[1];
    expect(named, where).toMatch(action ? /^(members|memberships|invoices):write$/ : /^read\.\w+$/);
    expect(op['x-required-scope'], where).toBe(named);
    expect(SCOPES, where).toContain(named);
  }
});

test('request bodies: optional JSON objects of known fields, on the actions a POST makes only', () => {
  const bodies: Record<string, string[]> = {};
  for (const { template, method, op } of operations) {
    if (op.requestBody === undefined) continue;
    const where = `${method} ${template}`;
    const body = op.requestBody as OpenApiObject;
    expect(body.required, where).toBe(false);
    expect(Object.keys(body.content as object), where).toEqual(['application/json']);
    const schema = (body.content as Record<string, OpenApiObject>)['application/json']!.schema as OpenApiObject;
    expect(schema, where).toMatchObject({ type: 'object', additionalProperties: false });
    bodies[where] = Object.keys(schema.properties as object);
  }
  expect(bodies).toEqual({
    'post /memberships': ['memberId', 'planId', 'expiresAt'],
    'post /memberships/{id}/cancel': ['when'],
    'post /invoices/{id}/refund': ['amountCents', 'expectedRefundedCents'],
    'post /members/{id}/block': [],
    'post /members/{id}/unblock': [],
    'post /members/{id}/erase': [],
  });
});

test('parameters: path templates declared, query names as the code reads them', () => {
  const names = (template: string, method = 'get') =>
    ((openApiDocument.paths[template]![method]!.parameters ?? []) as OpenApiObject[]).map((p) => {
      const param = (typeof p.$ref === 'string' ? deref(p.$ref) : p) as OpenApiObject;
      expect(param.schema, `${template} ${String(param.name)}`).toBeDefined();
      if (param.in === 'path') expect(param.required).toBe(true);
      return `${String(param.in)}:${String(param.name)}`;
    });
  const paging = ['header:X-Cursor', 'header:X-Items-After'];
  expect(names('/sites')).toEqual([]);
  expect(names('/plans/{id}')).toEqual(['path:id']);
  expect(names('/plans')).toEqual([...paging, 'query:type', 'query:status']);
  expect(names('/members')).toEqual([
    ...paging,
    ...['email', 'firstName', 'lastName', 'status', 'createdAfter', 'createdBefore'].map((n) => `query:${n}`),
  ]);
  expect(names('/memberships')).toEqual([
    ...paging,
    ...['planId', 'memberId', 'status', 'createdAfter', 'createdBefore', 'billingPeriodEndAfter', 'billingPeriodEndBefore', 'expiresAfter', 'expiresBefore'].map(
      (n) => `query:${n}`,
    ),
  ]);
  expect(names('/memberEvents')).toEqual([...paging, 'query:memberId', 'query:createdAfter', 'query:createdBefore']);
  expect(names('/contentLibrary/views')).toEqual([...paging, ...['memberId', 'nodeId', 'viewedAfter', 'viewedBefore'].map((n) => `query:${n}`)]);
  expect(names('/invoices')).toEqual([...paging, ...['memberId', 'status', 'createdAfter', 'createdBefore'].map((n) => `query:${n}`)]);
  expect(names('/invoices/{id}')).toEqual(['path:id']);
  // An action reads its path's id and its body, nothing else: /memberships gives a plan by its body alone.
  expect(names('/memberships', 'post')).toEqual([]);
  for (const where of ACTIONS.filter((a) => a.includes('{id}'))) {
    const [method, template] = where.split(' ') as [string, string];
    expect(names(template, method), where).toEqual(['path:id']);
  }
  // Every operation declares exactly the path parameters its template has.
  for (const { template, method } of operations) {
    const inTemplate = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => `path:${m[1]}`);
    expect(names(template, method).filter((n) => n.startsWith('path:')), `${method} ${template}`).toEqual(inTemplate);
  }
  expect(openApiDocument.components.parameters.XItemsAfter!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
});

test('every branch of an anyOf or oneOf names its type (or is a $ref): generators that read a branch alone see a string, not unknown', () => {
  let branches = 0;
  for (const [pointer, node] of walk(openApiDocument)) {
    for (const key of ['anyOf', 'oneOf'] as const) {
      const list = (node as OpenApiObject)[key];
      if (!Array.isArray(list)) continue;
      for (const [i, branch] of (list as OpenApiObject[]).entries()) {
        branches++;
        expect(typeof branch.type === 'string' || typeof branch.$ref === 'string' || typeof branch.const !== 'undefined', `${pointer}/${key}/${i}`).toBe(true);
      }
    }
  }
  expect(branches).toBeGreaterThan(8);
});

test('the document has a licence, and every tag a description', () => {
  expect(openApiDocument.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  for (const tag of openApiDocument.tags) expect(tag.description, tag.name).toMatch(/\w{3}/);
});

test('responses: application/json with a schema, the documented headers', () => {
  for (const [pointer, node] of walk(openApiDocument)) {
    // The webhooks' responses are the receivers' (any 2xx, no body asked for), not the service's.
    if (!/\/responses\/[^/]+$/.test(pointer) || pointer.startsWith('#/components/schemas') || pointer.startsWith('#/webhooks')) continue;
    const response = (typeof node.$ref === 'string' ? deref(node.$ref) : node) as OpenApiObject;
    expect(Object.keys(response.content as object), pointer).toEqual(['application/json']);
    expect((response.content as Record<string, OpenApiObject>)['application/json']!.schema, pointer).toBeDefined();
    expect(typeof response.description, pointer).toBe('string');
  }
  const headerNames = (template: string, status: string, method = 'get') => {
    const r = openApiDocument.paths[template]![method]!.responses as Record<string, OpenApiObject>;
    const response = (typeof r[status]!.$ref === 'string' ? deref(r[status]!.$ref as string) : r[status]) as OpenApiObject;
    return Object.keys((response.headers ?? {}) as object).sort();
  };
  expect(headerNames('/sites', '200')).toEqual(['Cache-Control', 'X-Has-More-Items-After', 'X-Total-Count']);
  expect(headerNames('/plans', '200')).toEqual(['Cache-Control', 'X-Has-More-Items-After', 'X-Next-Cursor', 'X-Total-Count']);
  for (const t of ['/members', '/memberships', '/memberEvents', '/contentLibrary/views', '/invoices']) {
    expect(headerNames(t, '200'), t).toEqual(['Cache-Control', 'X-Has-More-Items-After', 'X-Next-Cursor']);
  }
  expect(headerNames('/plans/{id}', '200')).toEqual(['Cache-Control']);
  expect(headerNames('/invoices/{id}', '200')).toEqual(['Cache-Control']);
  expect(headerNames('/key', '200')).toEqual(['Cache-Control']);
  for (const where of ACTIONS) {
    const [method, template] = where.split(' ') as [string, string];
    const downloads = where === 'get /members/{id}/export';
    expect(headerNames(template, where === 'post /memberships' ? '201' : '200', method), where).toEqual(downloads ? ['Cache-Control', 'Content-Disposition'] : ['Cache-Control']);
  }
  expect(headerNames('/openapi.json', '200')).toEqual(['Cache-Control']);
  expect(headerNames('/plans', '401')).toEqual(['Cache-Control', 'WWW-Authenticate']);
  expect(headerNames('/plans', '429')).toEqual(['Cache-Control', 'Retry-After']);
  expect(Object.keys(openApiDocument.components.responses.MethodNotAllowed!.headers as object)).toEqual(['Cache-Control', 'Allow']);
  // Every response of every operation, errors included, says the answer is not to be stored.
  for (const { template, method, op } of operations) {
    for (const status of Object.keys(op.responses as object)) {
      expect(headerNames(template, status, method), `${method} ${template} ${status}`).toContain('Cache-Control');
    }
  }
  const h = openApiDocument.components.headers;
  expect([h.XHasMoreItemsAfter!.required, h.XNextCursor!.required, h.XTotalCount!.required, h.RetryAfter!.required]).toEqual([true, false, true, true]);
  expect(h.CacheControl).toMatchObject({ required: true, schema: { const: 'no-store' } });
});

test('schemas: valid JSON Schema 2020-12, closed objects, no null, enums of the contract', () => {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv);
  ajv.addKeyword('discriminator');
  const components = openApiDocument.components.schemas;
  ajv.addSchema({ $id: 'urn:svc:t', $defs: JSON.parse(JSON.stringify(components).replaceAll('#/components/schemas/', 'urn:svc:t#/$defs/')) });
  for (const name of Object.keys(components)) expect(ajv.getSchema(`urn:svc:t#/$defs/${name}`), name).toBeTypeOf('function');

  for (const [pointer, node] of walk(openApiDocument)) {
    expect(node.nullable, pointer).toBeUndefined();
    expect(node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null')), pointer).toBe(false);
    if (node.type === 'object' && node.properties && pointer.startsWith('#/components/schemas')) {
      expect(node.additionalProperties, pointer).toBe(false);
    }
  }
  const enumOf = (schema: unknown) => (schema as { enum: string[] }).enum;
  const props = (name: string) => components[name]!.properties as Record<string, OpenApiObject>;
  expect(enumOf(props('FreePlan').status)).toEqual([...PLAN_STATUSES]);
  expect(enumOf(props('Membership').status)).toEqual([...MEMBERSHIP_STATUSES]);
  expect(enumOf(props('Membership').type)).toEqual([...PLAN_TYPES]);
  expect(enumOf(props('Member').status)).toEqual([...MEMBER_STATUSES]);
  expect(enumOf(props('MemberEvent').eventType)).toEqual([...MEMBER_EVENT_TYPES]);
  expect(enumOf((props('ContentView').node!.properties as Record<string, unknown>).type)).toEqual([...CONTENT_NODE_TYPES]);
  expect(enumOf(components.ErrorCode)).toEqual([...ERROR_CODES]);
  expect((components.Plan!.discriminator as OpenApiObject).propertyName).toBe('type');
  expect(Object.keys((components.Plan!.discriminator as { mapping: object }).mapping)).toEqual([...PLAN_TYPES]);
  expect((components.PlanExpiration!.discriminator as OpenApiObject).propertyName).toBe('mode');
  // Each mapping entry names the branch whose tag is that value (the validator relies on the consts).
  for (const union of ['Plan', 'PlanExpiration']) {
    const { propertyName, mapping } = components[union]!.discriminator as { propertyName: string; mapping: Record<string, string> };
    expect(components[union]!.oneOf).toEqual(Object.values(mapping).map(($ref) => ({ $ref })));
    for (const [tag, ref] of Object.entries(mapping)) {
      expect(((deref(ref) as OpenApiObject).properties as Record<string, unknown>)[propertyName], ref).toEqual({ const: tag });
    }
  }
});

// --------------------------------------------------------------------- real responses, 200

test('200: every operation with real data validates', async () => {
  const sites = await get(`${A}/sites`);
  expect(sites.status).toBe(200);
  expect(sites.body).toEqual([expect.objectContaining({ id: site.id, defaultCurrency: 'eur', locale: 'de' })]);
  expect(sites.headers.get('x-total-count')).toBe('1');

  // The key of the request, whatever its scopes.
  const key = await get(`${A}/key`);
  expect(key.status).toBe(200);
  expect(key.body).toEqual({ id: expect.any(Number), scopes: [...SCOPES], createdAt: new Date(NOW).toISOString() });
  expect((await get(`${A}/key`, plansOnly)).body).toMatchObject({ scopes: ['read.plans'] });

  const plans = await get(`${A}/plans`);
  expect(plans.body.map((p: { id: number }) => p.id)).toEqual([free.id, oneTime.id, multi.id, subscription.id]);
  expect(plans.headers.get('x-total-count')).toBe('4');
  expect(plans.headers.get('x-has-more-items-after')).toBe('false');
  expect(plans.headers.has('x-next-cursor')).toBe(false);
  expect((await get(`${A}/plans?status=deleted`)).body).toHaveLength(1);
  expect((await get(`${A}/plans?type=subscription`)).body).toHaveLength(1);
  for (const plan of [free, oneTime, multi, subscription, archived]) {
    const one = await get(`${A}/plans/${plan.id}`);
    expect(one.status).toBe(200);
    expect(one.body.type).toBe(plan.type);
  }

  const members = await get(`${A}/members?status=approved&createdAfter=2026-01-01&createdBefore=2026-03-01T12:00:00%2B00:00`);
  expect(members.status).toBe(200);
  expect((await get(`${A}/members?email=MEMBER0@example.com`)).body).toHaveLength(1);

  const memberships = await get(`${A}/memberships`);
  expect(memberships.body).toHaveLength(6);
  expect(memberships.body[3]).toMatchObject({ cancelsOn: expect.any(String), billing: { billingPeriodEnd: expect.any(String) } });
  await get(`${A}/memberships?planId=${free.id}&memberId=${m3}&status=expired&expiresBefore=2026-03-01`);
  await get(`${A}/memberships?billingPeriodEndAfter=2026-03-01T00:00:00Z`);

  const events = await get(`${A}/memberEvents`);
  expect(events.body.map((e: { eventType: string }) => e.eventType)).toEqual([
    'signup', 'login', 'abandonedConversion', 'conversion', 'paymentFailed', 'paymentFailed', 'cancellation', 'cancellation', 'passwordReset',
  ]);
  await get(`${A}/memberEvents?memberId=${m2}&createdAfter=2026-02-01`);

  const views = await get(`${A}/contentLibrary/views`);
  expect(views.body).toHaveLength(CONTENT_NODE_TYPES.length);
  await get(`${A}/contentLibrary/views?memberId=${m0}&nodeId=${nodeIds[0]}&viewedAfter=2026-02-01&viewedBefore=2026-04-01`);

  const ledger = await get(`${A}/invoices`);
  expect(ledger.status).toBe(200);
  expect(ledger.body.map((i: { id: number; status: string }) => [i.id, i.status])).toEqual([[paid.id, 'paid'], [paidToo.id, 'paid'], [failed.id, 'failed']]);
  expect(ledger.body[0]).toMatchObject({ memberId: m1, planId: oneTime.id, totalCents: 9900, currency: 'eur', processorChargeId: 'ch_test_openapi1' });
  expect((await get(`${A}/invoices?memberId=${m1}&status=failed&createdAfter=2026-02-01&createdBefore=2026-03-01`)).body).toHaveLength(1);
  expect((await get(`${A}/invoices?memberId=${m0}`)).body).toEqual([]);
  const one = await get(`${A}/invoices/${paid.id}`);
  expect(one.status).toBe(200);
  expect(one.body).toEqual(ledger.body[0]);
});

test('200: paging through a list with X-Items-After and X-Cursor validates on every page', async () => {
  const seenIds: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const res: AdminResponse<{ id: number }[]> = await get(`${A}/members`, allScopes, {
      'x-items-after': '12',
      ...(cursor !== undefined && { 'x-cursor': cursor }),
    });
    expect(res.status).toBe(200);
    seenIds.push(...res.body.map((m) => m.id));
    cursor = res.headers.get('x-next-cursor') ?? undefined;
    expect(res.headers.get('x-has-more-items-after')).toBe(String(cursor !== undefined));
    pages++;
  } while (cursor !== undefined);
  expect(pages).toBe(3);
  expect(seenIds).toEqual(memberIds);

  const firstPlan = await get(`${A}/plans`, allScopes, { 'x-items-after': '1' });
  expect(firstPlan.headers.get('x-has-more-items-after')).toBe('true');
  expect(firstPlan.headers.get('x-total-count')).toBe('4');
});

test('HEAD is answered like GET without a body, and validates against the GET operation', async () => {
  const res = await adminRequest(app, `${A}/plans`, { key: allScopes, method: 'HEAD' });
  expect(res.status).toBe(200);
  expect(res.body).toBeUndefined();
  expect(res.headers.get('x-total-count')).toBe('4');
});

// ------------------------------------------------------------------------- real responses, errors

test('400: malformed parameters and cursors on every list endpoint', async () => {
  const cases: [string, Record<string, string>, string][] = [
    [`${A}/plans?type=gold`, {}, 'type'],
    [`${A}/plans?status=archived`, {}, 'status'],
    [`${A}/members?createdAfter=2026-02-30`, {}, 'createdAfter'],
    [`${A}/members?email=`, {}, 'email'],
    [`${A}/memberships?planId=0&memberId=x`, {}, 'planId'],
    [`${A}/memberships?status=active&status=expired`, {}, 'status'],
    [`${A}/memberEvents?createdBefore=yesterday`, {}, 'createdBefore'],
    [`${A}/contentLibrary/views`, { 'x-items-after': '101' }, 'X-Items-After'],
    [`${A}/contentLibrary/views?nodeId=-1`, {}, 'nodeId'],
    [`${A}/invoices?status=void`, {}, 'status'],
    [`${A}/invoices?memberId=x`, {}, 'memberId'],
    [`${A}/invoices?createdAfter=2026-13-01`, {}, 'createdAfter'],
  ];
  for (const [path, headers, param] of cases) {
    const res = await get(path, allScopes, headers);
    expect(res.status, path).toBe(400);
    expect(res.body.errors[0], path).toMatchObject({ path: param, code: 'invalidParameter' });
  }
  const page = await get(`${A}/members`, allScopes, { 'x-items-after': '1' });
  const cursor = page.headers.get('x-next-cursor')!;
  for (const [path, c] of [
    [`${A}/members`, 'not-a-cursor'],
    [`${A}/members?status=approved`, cursor],
    [`${A}/memberships`, cursor],
    [`${A}/plans`, cursor],
    [`${A}/memberEvents`, cursor],
    [`${A}/contentLibrary/views`, `${cursor}x`],
    [`${A}/invoices`, cursor],
  ] as const) {
    const res = await get(path, allScopes, { 'x-cursor': c });
    expect(res.status, path).toBe(400);
    expect(res.body.errors[0], path).toMatchObject({ path: 'X-Cursor', code: 'invalidCursor' });
  }
});

test('401: missing, malformed, unknown, revoked and expired keys, everywhere, and no action is taken', async () => {
  const unknown = `svc_admin_${'A'.repeat(43)}`;
  const before = await siteState();
  for (const operation of [...OPERATIONS, ...UNLISTED]) {
    const { path, method = 'GET' } = operation;
    for (const key of [undefined, 'nope', unknown, revoked, expired]) {
      const res = await send(app, operation, key);
      expect(res.status, `${method} ${path} ${key}`).toBe(401);
      expect(res.body.errors[0].code).toBe('accessDenied');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  }
  const basic = await adminRequest(app, `${A}/sites`, { headers: { authorization: 'Basic abc' } });
  expect(basic.status).toBe(401);
  expect(await siteState()).toBe(before);
});

test("403: a site whose plan lost the Admin API, on every endpoint", async () => {
  const before = await siteState();
  for (const operation of [...OPERATIONS, ...UNLISTED]) {
    const res = await send(app, operation, downgraded);
    expect(res.status, `${operation.method ?? 'GET'} ${operation.path}`).toBe(403);
    expect(res.body.errors[0].code).toBe('forbidden');
  }
  expect(await siteState()).toBe(before);
});

test('404: a missing scope, a missing plan, an unknown endpoint', async () => {
  const before = await siteState();
  for (const operation of OPERATIONS) {
    const { path, method = 'GET', scope } = operation;
    if (!scope) continue;
    // A write scope is missing from a key with every read scope too.
    const keys = scope === 'read.plans' ? [membersOnly] : scope.startsWith('read.') ? [plansOnly] : [plansOnly, readsOnly];
    for (const key of keys) {
      const res = await send(app, operation, key);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.errors[0].code).toBe('notFound');
    }
  }
  expect(await siteState()).toBe(before);
  expect((await get(`${A}/sites`, plansOnly)).status).toBe(200);
  expect((await get(`${A}/key`, plansOnly)).status).toBe(200);
  for (const id of ['999999', 'abc', '0']) expect((await get(`${A}/plans/${id}`)).status).toBe(404);
  const otherSitePlan = await definePlan(store, clock, offSite.id, { name: 'Theirs', type: 'free', expiration: { mode: 'none' } });
  expect((await get(`${A}/plans/${otherSitePlan.id}`)).status).toBe(404);
  for (const path of [`${A}/nope`, `${A}/sites/`, `${A}/plans/1/members`, `${A}/members/${m0}`, `${A}/invoices/${paid.id}/refunds`]) {
    const res = await get(path);
    expect(res.status, path).toBe(404);
  }
});

test('404: an owner action on a member, membership, invoice or plan the site does not have; nothing changes', async () => {
  // Another site's rows are not found either.
  const [theirMember] = await store.createMembers([{ siteId: offSite.id, email: 'member0@example.com', status: 'approved', createdAt: NOW - DAY }]);
  const theirPlan = await definePlan(store, clock, offSite.id, { name: 'Their plan', type: 'free', expiration: { mode: 'none' } });
  const [theirMembership] = await store.createMemberships([
    { siteId: offSite.id, memberId: theirMember!, planId: theirPlan.id, status: 'active', createdAt: NOW - DAY, paymentFailure: false },
  ]);
  const theirInvoice = await store.createInvoice({
    siteId: offSite.id, memberId: theirMember!, planId: theirPlan.id, processorInvoiceId: 'in_test_theirs', processorChargeId: 'ch_test_theirs',
    subTotalCents: 500, taxCents: 0, totalCents: 500, currency: 'usd', status: 'paid', description: 'Theirs', createdAt: NOW - DAY,
  });
  const before = await siteState();
  const cases: Array<[string, string, unknown, string]> = [];
  for (const id of ['999999', 'abc', '0', String(theirInvoice.id)]) {
    cases.push(['GET', `${A}/invoices/${id}`, undefined, 'base'], ['POST', `${A}/invoices/${id}/refund`, {}, 'base']);
  }
  for (const id of ['999999', 'abc', String(theirMembership)]) cases.push(['POST', `${A}/memberships/${id}/cancel`, { when: 'now' }, 'base']);
  for (const id of ['999999', '1.0', String(theirMember)]) {
    for (const action of ['block', 'unblock', 'erase']) cases.push(['POST', `${A}/members/${id}/${action}`, {}, 'base']);
    cases.push(['GET', `${A}/members/${id}/export`, undefined, 'base']);
  }
  cases.push(
    ['POST', `${A}/memberships`, { memberId: 999999, planId: subscription.id }, 'memberId'],
    ['POST', `${A}/memberships`, { memberId: theirMember, planId: subscription.id }, 'memberId'],
    ['POST', `${A}/memberships`, { memberId: m4, planId: 999999 }, 'planId'],
    ['POST', `${A}/memberships`, { memberId: m4, planId: theirPlan.id }, 'planId'],
  );
  for (const [method, path, body, param] of cases) {
    const res = await adminRequest(app, path, { key: allScopes, method, ...(body !== undefined && { body }) });
    expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(404);
    expect(res.body.errors[0], `${method} ${path}`).toMatchObject({ code: 'notFound', path: param });
  }
  expect(await siteState()).toBe(before);
});

/** A URL of the template, its id a row of the kind it names. */
function urlOf(template: string): string {
  const id = template.startsWith('/plans/') ? free.id
    : template.startsWith('/invoices/') ? paid.id
    : template.startsWith('/memberships/') ? running
    : template.startsWith('/members/') ? m0
    : undefined;
  return `${A}${template.replace('{id}', String(id))}`;
}

test('405: a method a path does not take, with Allow naming those it takes (HEAD with GET); nothing changes', async () => {
  const before = await siteState();
  for (const [template, item] of Object.entries(openApiDocument.paths)) {
    const taken = Object.keys(item).map((m) => m.toUpperCase());
    const allow = [...taken, ...(taken.includes('GET') ? ['HEAD'] : [])].join(', ');
    const others = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !taken.includes(m));
    expect(others.length, template).toBeGreaterThanOrEqual(3);
    for (const method of others) {
      // This description too, with a key.
      const res = await adminRequest(app, urlOf(template), { method, key: allScopes });
      expect(res.status, `${method} ${template}`).toBe(405);
      expect(res.body.errors[0].code).toBe('methodNotAllowed');
      expect(res.headers.get('allow'), `${method} ${template}`).toBe(allow);
    }
  }
  // The reads stay read-only; an action takes POST alone; /memberships lists and gives.
  expect((await adminRequest(app, `${A}/members`, { method: 'POST', key: allScopes, body: {} })).headers.get('allow')).toBe('GET, HEAD');
  expect((await adminRequest(app, `${A}/members/${m0}/block`, { method: 'GET', key: allScopes })).headers.get('allow')).toBe('POST');
  expect((await adminRequest(app, `${A}/members/${m0}/export`, { method: 'POST', key: allScopes, body: {} })).headers.get('allow')).toBe('GET, HEAD');
  expect((await adminRequest(app, `${A}/memberships`, { method: 'PUT', key: allScopes, body: {} })).headers.get('allow')).toBe('GET, POST, HEAD');
  expect(await siteState()).toBe(before);
});

test('500: a fault of the service itself answers internalError, on every endpoint', async () => {
  // The reads each route makes after the key's checks, failing as a lost database would.
  const ROUTE_READS = [
    'siteMetrics', 'getPlan', 'listPlans', 'countPlans', 'planActiveMemberCounts', 'listMemberSummaries', 'listMemberships', 'listMemberEvents', 'listContentViews',
    // The ledger's, and what every owner action reads first.
    'listInvoices', 'getInvoice', 'getMember', 'getMembership',
  ];
  const failing = failingStore(store, ROUTE_READS, 'the database is gone');
  const broken = await createServiceApp({ store: failing, clock });
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const before = await siteState();
  // GET /key reads nothing after the key's checks: it answers what they read.
  const reading = OPERATIONS.filter(({ path }) => path !== `${A}/key`);
  // The key's checks read the store too (the key's site): lost there, every endpoint fails, /key included.
  const siteless = await createServiceApp({ store: failingStore(store, ['getSite'], 'the sites are gone'), clock });
  try {
    for (const [to, operations] of [[broken, reading], [siteless, OPERATIONS]] as const) {
      for (const operation of operations) {
        const res = await send(to, operation, allScopes);
        expect(res.status, `${operation.method ?? 'GET'} ${operation.path}`).toBe(500);
        expect(res.body.errors[0].code).toBe('internalError');
      }
    }
    expect(await siteState()).toBe(before);
    // Each logged, for the operator.
    expect(logged.mock.calls.filter(([line]) => String(line).includes('the database is gone'))).toHaveLength(reading.length);
    expect(logged.mock.calls.filter(([line]) => String(line).includes('the sites are gone'))).toHaveLength(OPERATIONS.length);
  } finally {
    logged.mockRestore();
  }
});

test('429: over the rate limit, on every endpoint, with Retry-After', async () => {
  const limited = await createServiceApp({ store, clock, adminRateLimit: { limit: 1, windowMs: 60_000 } });
  expect((await adminRequest(limited, `${A}/sites`, { key: allScopes })).status).toBe(200);
  const before = await siteState();
  for (const operation of [...OPERATIONS, ...UNLISTED]) {
    const res = await send(limited, operation, allScopes);
    expect(res.status, `${operation.method ?? 'GET'} ${operation.path}`).toBe(429);
    expect(res.body.errors[0].code).toBe('rateLimited');
    expect(res.headers.get('retry-after')).toBe('60');
  }
  expect(await siteState()).toBe(before);
});

// ----------------------------------------------------------- real responses, the owner's actions

test('200 and 201: every owner action with real data validates, and the API then reports what it did', async () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const countOf = async (planId: number) => (await get(`${A}/plans/${planId}`)).body.activeMemberCount as number;
  const goldBefore = await countOf(subscription.id);

  const expiresAt = '2026-06-01T00:00:00.000Z';
  const comped = await act(`${A}/memberships`, { memberId: m4, planId: subscription.id, expiresAt });
  expect(comped.status).toBe(201);
  expect(comped.body).toMatchObject({ memberId: m4, planId: subscription.id, status: 'active', type: 'subscription', comp: true, expiresOn: expiresAt });
  expect(comped.body.billing).toBeUndefined();
  expect(await countOf(subscription.id)).toBe(goldBefore + 1);

  const atEnd = await act(`${A}/memberships/${running}/cancel`, { when: 'periodEnd' });
  expect(atEnd.status).toBe(200);
  expect(atEnd.body).toMatchObject({ id: running, status: 'active', cancelsOn: iso(NOW + 20 * DAY), billing: { billingPeriodEnd: iso(NOW + 20 * DAY) } });
  const now = await act(`${A}/memberships/${running}/cancel`, { when: 'now' });
  expect(now.status).toBe(200);
  expect(now.body).toMatchObject({ id: running, status: 'cancelled', cancelsOn: iso(NOW) });
  expect(now.body.billing).toBeUndefined();

  const part = await act(`${A}/invoices/${paid.id}/refund`, { amountCents: 900 });
  expect(part.status).toBe(200);
  expect(part.body).toMatchObject({ id: paid.id, status: 'paid', refundedCents: 900, totalCents: 9900 });
  const rest = await act(`${A}/invoices/${paid.id}/refund`, {});
  expect(rest.status).toBe(200);
  expect(rest.body).toMatchObject({ id: paid.id, status: 'refunded', refundedCents: 9900 });

  const blocked = await act(`${A}/members/${toBlock}/block`);
  expect(blocked.status).toBe(200);
  expect(blocked.body).toMatchObject({ id: toBlock, status: 'blocked' });
  const unblocked = await act(`${A}/members/${toBlock}/unblock`, {});
  expect(unblocked.status).toBe(200);
  expect(unblocked.body).toMatchObject({ id: toBlock, status: 'approved' });

  const exported = await act(`${A}/members/${m0}/export`, undefined, 'GET');
  expect(exported.status).toBe(200);
  expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="member-${m0}.json"`);
  expect(exported.body).toMatchObject({ exportedAt: iso(NOW), site: { id: site.id, subdomain: 'openapi' }, member: { id: m0, email: 'member0@example.com', firstName: 'First0' } });
  expect(exported.body.memberships.map((m: { id: number }) => m.id)).toEqual([freeOfM0]);
  expect(exported.body.contentViews).toHaveLength(CONTENT_NODE_TYPES.length);
  expect(exported.body.events.map((e: { eventType: string }) => e.eventType)).toEqual(['signup']);

  const erased = await act(`${A}/members/${toErase}/erase`);
  expect(erased.status).toBe(200);
  expect(erased.body).toEqual({ id: toErase, email: `erased-${toErase}@erased.invalid`, status: 'erased', createdAt: iso(NOW - 18 * DAY) });

  // What the reads say now: the ledger, the members, and one event an action naming the key.
  expect((await get(`${A}/invoices/${paid.id}`)).body).toEqual(rest.body);
  expect((await get(`${A}/invoices?status=refunded`)).body.map((i: { id: number }) => i.id)).toEqual([paid.id]);
  expect((await get(`${A}/members?status=erased&createdAfter=2026-02-11&createdBefore=2026-02-12`)).body.map((m: { id: number }) => m.id)).toEqual([toErase]);
  const events = await get(`${A}/memberEvents?createdAfter=2026-03-01T12:00:00Z`);
  expect(events.body.map((e: { memberId: number; eventType: string }) => [e.memberId, e.eventType])).toEqual([
    [m4, 'membershipComped'],
    [m5, 'cancellation'],
    [m5, 'cancellation'],
    [m1, 'paymentRefunded'],
    [m1, 'paymentRefunded'],
    [toBlock, 'memberBlocked'],
    [toBlock, 'memberUnblocked'],
    [m0, 'memberExported'],
    [toErase, 'memberErased'],
  ]);
  for (const e of events.body) expect(e.details.by, e.eventType).toEqual({ apiKeyId: expect.any(Number) });
});

test('400, 413 and 415: a body an action does not take is refused with invalidBody, and nothing changes', async () => {
  const json = { 'content-type': 'application/json' };
  /** For each action a POST makes: a body of the wrong shape, and the field the error names. */
  const wrong: Array<[string, unknown, string]> = [
    [`${A}/memberships`, { memberId: String(m4), planId: subscription.id }, 'memberId'],
    [`${A}/memberships`, { memberId: m4, planId: subscription.id, expiresAt: '2026-01-01T00:00:00Z' }, 'expiresAt'],
    [`${A}/memberships/${running}/cancel`, { when: 'later' }, 'when'],
    [`${A}/invoices/${paidToo.id}/refund`, { amountCents: 0 }, 'amountCents'],
    [`${A}/invoices/${paidToo.id}/refund`, { amountCents: 9901 }, 'amountCents'],
    [`${A}/members/${m0}/block`, { reason: 'spam' }, 'base'],
    [`${A}/members/${m0}/unblock`, { reason: 'spam' }, 'base'],
    [`${A}/members/${m0}/erase`, { reason: 'asked' }, 'base'],
  ];
  const before = await siteState();
  for (const [path, body, field] of wrong) {
    const res = await act(path, body);
    expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path), path).toContain(field);
    expect(res.body.errors.every((e: { code: string }) => e.code === 'invalidBody'), path).toBe(true);
  }
  for (const path of new Set(wrong.map(([p]) => p))) {
    const cases: Array<[Record<string, string>, string, number]> = [
      [json, '{"when":', 400],
      [json, '[]', 400],
      [json, JSON.stringify({ pad: 'x'.repeat(5000) }), 413],
      [{ 'content-type': 'text/plain' }, '{}', 415],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 'when=now', 415],
    ];
    for (const [headers, body, status] of cases) {
      const res = await adminRequest(app, path, { key: allScopes, method: 'POST', headers, body });
      expect(res.status, `${path} ${headers['content-type']} ${body.slice(0, 20)}`).toBe(status);
      expect(res.body.errors[0].code).toBe('invalidBody');
    }
  }
  expect(await siteState()).toBe(before);
});

test('409: an action the resource\'s state does not allow is refused with conflict, and nothing changes', async () => {
  const before = await siteState();
  const cases: Array<[string, unknown, string]> = [
    // Not active: expired (or cancelled) already.
    [`${A}/memberships/${expiredOfM3}/cancel`, { when: 'now' }, 'base'],
    // At the period's end: only a running subscription has one.
    [`${A}/memberships/${freeOfM0}/cancel`, { when: 'periodEnd' }, 'when'],
    // A plan the member holds already, an archived plan, an erased member.
    [`${A}/memberships`, { memberId: m0, planId: free.id }, 'planId'],
    [`${A}/memberships`, { memberId: m4, planId: archived.id }, 'planId'],
    [`${A}/memberships`, { memberId: m3, planId: multi.id }, 'memberId'],
    // A failed attempt: nothing was paid.
    [`${A}/invoices/${failed.id}/refund`, {}, 'base'],
    // An erased member is neither blocked nor unblocked.
    [`${A}/members/${m3}/block`, undefined, 'base'],
    [`${A}/members/${m3}/unblock`, undefined, 'base'],
  ];
  for (const [path, body, field] of cases) {
    const res = await act(path, body);
    expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(409);
    expect(res.body.errors[0], path).toMatchObject({ code: 'conflict', path: field });
  }
  expect(await siteState()).toBe(before);
});

test('502: the payment processor cannot be asked (a plain failure, as a lost connection): nothing is refunded or erased', async () => {
  const unreachable = Object.assign(new TestPaymentProcessor({ clock, store }), {
    refund: () => Promise.reject(new Error('connect ECONNREFUSED')),
    deleteCustomer: () => Promise.reject(new Error('connect ECONNREFUSED')),
  });
  const down = await createServiceApp({ store, clock, processor: unreachable });
  const before = await siteState();
  for (const [path, body] of [[`${A}/invoices/${paidToo.id}/refund`, { amountCents: 100 }], [`${A}/members/${m1}/erase`, undefined]] as const) {
    const res = await adminRequest(down, path, { key: allScopes, method: 'POST', ...(body !== undefined && { body }) });
    expect(res.status, path).toBe(502);
    expect(res.body.errors[0].code).toBe('processorError');
  }
  expect(await siteState()).toBe(before);
  // The processor's answer, not a fault of the invoice: the same refund through the processor that answers goes through.
  expect((await act(`${A}/invoices/${paidToo.id}/refund`, { amountCents: 100 })).body).toMatchObject({ status: 'paid', refundedCents: 100 });
});

// -------------------------------------------------------------------- the validator says no

type Mutable = Record<string, any>;
const clone = <T>(value: T): T => structuredClone(value);
const headersOf = (res: AdminResponse, change: Record<string, string | null> = {}) => {
  const headers = new Headers(res.headers);
  for (const [name, value] of Object.entries(change)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
};
const check = (method: string, path: string, status: number, headers: Headers, body: unknown) => () =>
  validateAgainstOpenApi(method, path, { status, headers, body });

test('the validator rejects bodies that break the schemas', async () => {
  const members = await get(`${A}/members?firstName=First0`);
  const withNull = clone(members.body) as Mutable[];
  withNull[0]!.lastName = null;
  expect(check('GET', `${A}/members`, 200, members.headers, withNull)).toThrow(/GET \/members → 200[^]*\/0\/lastName must be string/);

  const plan = await get(`${A}/plans/${subscription.id}`);
  expect(check('GET', `${A}/plans/${subscription.id}`, 200, plan.headers, plan.body)).not.toThrow();
  const extra = { ...clone(plan.body), siteId: site.id };
  expect(check('GET', `${A}/plans/${subscription.id}`, 200, plan.headers, extra)).toThrow(/must NOT have additional properties/);
  const withExpiration = { ...clone(plan.body), expiration: { mode: 'none' } };
  expect(check('GET', `${A}/plans/1`, 200, plan.headers, withExpiration)).toThrow(/additional properties/);
  const both = clone(plan.body) as Mutable;
  both.billing.trialPeriodDays = 7;
  expect(check('GET', `${A}/plans/1`, 200, plan.headers, both)).toThrow(/GET \/plans\/\{id\} → 200[^]*\/billing must NOT be valid/);
  expect(check('GET', `${A}/plans/1`, 200, plan.headers, { ...clone(plan.body), type: 'gold' })).toThrow(/value of tag "type" must be in oneOf/);
  const free0 = clone((await get(`${A}/plans/${free.id}`)).body) as Mutable;
  free0.expiration = { mode: 'interval', count: 2 };
  expect(check('GET', `${A}/plans/1`, 200, plan.headers, free0)).toThrow(/\/expiration must have required property 'unit'/);
  const taxText = clone((await get(`${A}/plans/${oneTime.id}`)).body) as Mutable;
  delete taxText.billing.taxPercentage;
  expect(check('GET', `${A}/plans/1`, 200, plan.headers, taxText)).toThrow(/taxPercentage/);

  const sites = await get(`${A}/sites`);
  const noCreatedAt = clone(sites.body) as Mutable[];
  delete noCreatedAt[0]!.createdAt;
  expect(check('GET', `${A}/sites`, 200, sites.headers, noCreatedAt)).toThrow(/must have required property 'createdAt'/);
  const badDate = clone(sites.body) as Mutable[];
  badDate[0]!.createdAt = 'yesterday';
  expect(check('GET', `${A}/sites`, 200, sites.headers, badDate)).toThrow(/must match format "date-time"/);

  const events = await get(`${A}/memberEvents?memberId=${m2}`);
  const thinDetails = clone(events.body) as Mutable[];
  delete thinDetails[0]!.details.invoiceId;
  expect(check('GET', `${A}/memberEvents`, 200, events.headers, thinDetails)).toThrow(/invoiceId/);
  // Each kind's details are described: a conversion without its order, a signup with details, a failed payment without its attempt.
  const all = await get(`${A}/memberEvents`);
  const broken = (type: string, change: (details: Mutable) => void) => {
    const body = clone(all.body) as Mutable[];
    change(body.find((e) => e.eventType === type)!.details);
    return check('GET', `${A}/memberEvents`, 200, all.headers, body);
  };
  expect(broken('conversion', (d) => delete d.orderId)).toThrow(/orderId/);
  expect(broken('signup', (d) => (d.planId = 1))).toThrow(/additional properties/);
  expect(broken('paymentFailed', (d) => delete d.attempt)).toThrow(/attempt/);
  expect(broken('cancellation', (d) => (d.reason = 'bored'))).toThrow(/allowed values/);

  const notFound = await get(`${A}/plans/999999`);
  expect(check('GET', `${A}/plans/999999`, 404, notFound.headers, { errors: [] })).toThrow(/must NOT have fewer than 1 items/);
  expect(check('GET', `${A}/plans/999999`, 404, notFound.headers, { errors: [{ path: 'base', code: 'accessDenied', message: 'x' }] })).toThrow(
    /must be equal to one of the allowed values/,
  );
});

test('the validator rejects wrong media types, headers and statuses', async () => {
  const page = await get(`${A}/members`, allScopes, { 'x-items-after': '1' });
  const last = await get(`${A}/plans`);
  const path = `${A}/members`;
  expect(check('GET', path, 200, headersOf(page, { 'content-type': 'text/plain' }), page.body)).toThrow(/content-type is "text\/plain"/);
  expect(check('GET', path, 200, headersOf(page, { 'content-type': null }), page.body)).toThrow(/content-type is null/);
  expect(check('GET', `${A}/plans`, 200, headersOf(last, { 'x-next-cursor': 'abc' }), last.body)).toThrow(
    /X-Next-Cursor is present but X-Has-More-Items-After is "false"/,
  );
  expect(check('GET', path, 200, headersOf(page, { 'x-next-cursor': null }), page.body)).toThrow(/X-Next-Cursor is missing/);
  expect(check('GET', path, 200, headersOf(page, { 'x-has-more-items-after': null, 'x-next-cursor': null }), page.body)).toThrow(
    /required header X-Has-More-Items-After is missing/,
  );
  expect(check('GET', path, 200, headersOf(page, { 'x-has-more-items-after': 'yes' }), page.body)).toThrow(/header X-Has-More-Items-After/);
  expect(check('GET', `${A}/plans`, 200, headersOf(last, { 'x-total-count': null }), last.body)).toThrow(/X-Total-Count is missing/);

  const error = { errors: [{ path: 'base', code: 'rateLimited', message: 'slow down' }] };
  const json = new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
  expect(check('GET', `${A}/sites`, 429, json, error)).toThrow(/required header Retry-After is missing/);
  expect(check('GET', `${A}/sites`, 429, new Headers({ ...Object.fromEntries(json), 'retry-after': 'soon' }), error)).toThrow(/Retry-After/);
  expect(check('GET', `${A}/sites`, 429, new Headers({ ...Object.fromEntries(json), 'retry-after': '3' }), error)).not.toThrow();
  expect(check('GET', path, 200, headersOf(page, { 'cache-control': null }), page.body)).toThrow(/required header Cache-Control is missing/);
  expect(check('GET', path, 200, headersOf(page, { 'cache-control': 'max-age=60' }), page.body)).toThrow(/header Cache-Control/);
  expect(check('GET', `${A}/sites`, 429, new Headers({ 'content-type': 'application/json', 'retry-after': '3' }), error)).toThrow(
    /required header Cache-Control is missing/,
  );
  expect(check('GET', `${A}/sites`, 400, json, error)).toThrow(/GET \/sites \(listSites\) answered 400, which is not documented/);
  expect(check('GET', `${A}/plans/1`, 400, json, error)).toThrow(/not documented/);
  expect(check('GET', `${A}/members`, 502, json, error)).toThrow(/not documented/);
  expect(check('GET', `${A}/members`, 500, json, error)).toThrow(/allowed values.*internalError/s);
  expect(check('GET', `${A}/nope`, 200, json, [])).toThrow(/no operation in the document/);
  expect(check('DELETE', `${A}/sites`, 405, json, { errors: [{ path: 'base', code: 'methodNotAllowed', message: 'no' }] })).toThrow(
    /required header Allow is missing/,
  );
  expect(check('HEAD', `${A}/sites`, 200, json, [])).toThrow(/HEAD response has a body/);
});

test('the validator holds the owner\'s actions to their own statuses, bodies and methods', async () => {
  const json = new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
  const membership = (await get(`${A}/memberships?memberId=${m0}`)).body[0];
  const error = (code: string) => ({ errors: [{ path: 'base', code, message: 'no' }] });
  expect(check('POST', `${A}/memberships/${freeOfM0}/cancel`, 200, json, membership)).not.toThrow();
  // Giving a plan answers 201, never 200; its membership is a Membership.
  expect(check('POST', `${A}/memberships`, 200, json, membership)).toThrow(/POST \/memberships \(compMembership\) answered 200, which is not documented/);
  expect(check('POST', `${A}/memberships`, 201, json, { ...membership, comp: false })).toThrow(/\/comp/);
  expect(check('POST', `${A}/memberships/1/cancel`, 200, json, { ...membership, status: 'paused' })).toThrow(/allowed values/);
  // Each action answers the statuses it documents, with the codes they name.
  expect(check('POST', `${A}/members/1/erase`, 409, json, error('conflict'))).toThrow(/not documented/);
  expect(check('GET', `${A}/members/1/export`, 400, json, error('invalidBody'))).toThrow(/not documented/);
  expect(check('POST', `${A}/members/1/block`, 502, json, error('processorError'))).toThrow(/not documented/);
  expect(check('POST', `${A}/invoices/1/refund`, 502, json, error('conflict'))).toThrow(/allowed values/);
  expect(check('POST', `${A}/invoices/1/refund`, 409, json, error('conflict'))).not.toThrow();
  expect(check('GET', `${A}/members/1/export`, 200, json, { member: {} })).toThrow(/required property 'exportedAt'/);
  // An action is no read: a GET of it is another method, whose only success is none.
  expect(check('GET', `${A}/members/1/block`, 200, json, {})).toThrow(/has no operation in the document/);
  // A 405 on /memberships is each of its operations' to describe: the Allow header is required.
  expect(check('DELETE', `${A}/memberships`, 405, json, error('methodNotAllowed'))).toThrow(/GET \/memberships → 405[^]*required header Allow is missing/);
});

// --------------------------------------------------------------------------------- coverage

test('every documented (operation, status) pair was seen and validated above', () => {
  const seen = seenResponses().map((r) => `${r.operation} ${r.status}`);
  const documented = documentedResponses().map((r) => `${r.operation} ${r.status}`);
  expect(documented.filter((pair) => !seen.includes(pair))).toEqual([]);
});

test('webhooks: one POST for each event type a site\'s endpoints receive, its body typed by this document\'s resources', () => {
  expect(Object.keys(openApiDocument.webhooks ?? {})).toEqual([...WEBHOOK_EVENT_TYPES]);
  for (const [type, item] of Object.entries(openApiDocument.webhooks!)) {
    const post = item.post as OpenApiObject;
    expect(Object.keys(item), type).toEqual(['post']);
    expect(post.tags, type).toEqual(['Webhooks']);
    const schema = ((post.requestBody as OpenApiObject).content as Record<string, OpenApiObject>)['application/json']!.schema as OpenApiObject;
    expect((schema.properties as Record<string, OpenApiObject>).type, type).toEqual({ type: 'string', const: type });
    expect((post.parameters as OpenApiObject[]).map((p) => (deref(p.$ref as string) as OpenApiObject).name), type).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
  }
});
