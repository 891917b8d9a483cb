/**
 * The OpenAPI description: served as it is written, structurally sound, and true: every
 * response the Admin API gives for every operation and every status it documents passes the
 * validator (test/support/openapi-validator.ts), and responses that break the contract fail it.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { beforeAll, expect, test, vi } from 'vitest';
import {
  CONTENT_NODE_TYPES,
  MEMBER_EVENT_TYPES,
  MEMBER_STATUSES,
  MEMBERSHIP_STATUSES,
  PLAN_STATUSES,
  PLAN_TYPES,
  SCOPES,
  type Scope,
} from '../src/contract/admin';
import { WEBHOOK_EVENT_TYPES } from '../src/contract/webhooks';
import { ERROR_CODES, openApiDocument, type OpenApiObject } from '../src/service/admin/openapi';
import { createServiceApp } from '../src/service/app';
import { hashApiKey, issueApiKey } from '../src/service/auth/api-keys';
import { definePlan } from '../src/service/domain/plans';
import { createSite } from '../src/service/domain/sites';
import { createMemoryStore } from '../src/service/store/memory';
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

const memberIds = await store.createMembers(
  Array.from({ length: 30 }, (_, i) => ({
    siteId: site.id,
    email: `member${i}@example.com`,
    ...(i % 2 === 0 && { firstName: `First${i}`, lastName: `Last${i}` }),
    status: MEMBER_STATUSES[i % MEMBER_STATUSES.length]!,
    createdAt: NOW - (30 - i) * DAY,
  })),
);
const [m0, m1, m2, m3] = memberIds as [number, number, number, number];
await store.createMemberships([
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
]);
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

const allScopes = (await issueApiKey(store, clock, { siteId: site.id, scopes: [...SCOPES] })).key;
const plansOnly = (await issueApiKey(store, clock, { siteId: site.id, scopes: ['read.plans'] })).key;
const membersOnly = (await issueApiKey(store, clock, { siteId: site.id, scopes: ['read.members'] })).key;
const downgraded = (await issueApiKey(store, clock, { siteId: offSite.id, scopes: [...SCOPES] })).key;
const expired = (await issueApiKey(store, clock, { siteId: site.id, scopes: [...SCOPES], expiresInMs: -1 })).key;
const revoked = (await issueApiKey(store, clock, { siteId: site.id, scopes: [...SCOPES] })).key;
await store.revokeApiKey(hashApiKey(revoked), NOW - 1);

const app = await createServiceApp({ store, clock });

const A = '/admin/v1';
/** One request per documented operation that needs a key, with the scope it needs. */
const OPERATIONS: { path: string; scope?: Scope; method?: string }[] = [
  { path: `${A}/sites` },
  { path: `${A}/plans`, scope: 'read.plans' },
  { path: `${A}/plans/${free.id}`, scope: 'read.plans' },
  { path: `${A}/members`, scope: 'read.members' },
  { path: `${A}/memberships`, scope: 'read.memberships' },
  { path: `${A}/memberEvents`, scope: 'read.memberEvents' },
  { path: `${A}/contentLibrary/views`, scope: 'read.contentViews' },
];
/** Requests the document has no operation for: an unknown path, another method on a known one. */
const UNLISTED: { path: string; scope?: Scope; method: string }[] = [
  { path: `${A}/nope`, method: 'GET' },
  { path: `${A}/sites`, method: 'POST' },
];

const get = (path: string, key = allScopes, headers: Record<string, string> = {}) => adminRequest(app, path, { key, headers });

// The coverage test at the end counts this file's requests only: other files of the worker share
// the validator (their modules are shared), and what they saw must not cover for this file.
beforeAll(() => forgetSeenResponses());

// ------------------------------------------------------------------------- the served document

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
  expect(Object.keys(openApiDocument.paths).sort()).toEqual(
    ['/contentLibrary/views', '/memberEvents', '/members', '/memberships', '/openapi.json', '/plans', '/plans/{id}', '/sites'],
  );
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

test('operations: unique ids, GET only, the statuses each can answer', () => {
  const ids = operations.map(({ op }) => op.operationId);
  expect(new Set(ids).size).toBe(ids.length);
  for (const { template, method, op } of operations) {
    const where = `${method} ${template}`;
    expect(method, where).toBe('get');
    const statuses = Object.keys(op.responses as object).sort();
    const secured = !(Array.isArray(op.security) && op.security.length === 0);
    if (!secured) {
      expect(template).toBe('/openapi.json');
      expect(statuses, where).toEqual(['200', '405']);
      continue;
    }
    // Every key-checked request can be refused before the route runs.
    expect(statuses, where).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
    // /sites needs no scope and has no id, so nothing there is ever not found.
    if (template === '/sites') expect(statuses, where).not.toContain('404');
    else expect(statuses, where).toContain('404');
    const isList = ((op.parameters ?? []) as OpenApiObject[]).some((p) => p.$ref === '#/components/parameters/XCursor');
    expect(statuses.includes('400'), where).toBe(isList);
    expect(isList, where).toBe(!['/sites', '/plans/{id}'].includes(template));
    expect(String(op.description), where).toMatch(template === '/sites' ? /Needs no scope/ : /Needs the scope `read\.\w+`.*404/);
  }
});

test('parameters: path templates declared, query names as the code reads them', () => {
  const names = (template: string) =>
    ((openApiDocument.paths[template]!.get!.parameters ?? []) as OpenApiObject[]).map((p) => {
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
  const headerNames = (template: string, status: string) => {
    const r = openApiDocument.paths[template]!.get!.responses as Record<string, OpenApiObject>;
    const response = (typeof r[status]!.$ref === 'string' ? deref(r[status]!.$ref as string) : r[status]) as OpenApiObject;
    return Object.keys((response.headers ?? {}) as object).sort();
  };
  expect(headerNames('/sites', '200')).toEqual(['Cache-Control', 'X-Has-More-Items-After', 'X-Total-Count']);
  expect(headerNames('/plans', '200')).toEqual(['Cache-Control', 'X-Has-More-Items-After', 'X-Next-Cursor', 'X-Total-Count']);
  for (const t of ['/members', '/memberships', '/memberEvents', '/contentLibrary/views']) {
    expect(headerNames(t, '200'), t).toEqual(['Cache-Control', 'X-Has-More-Items-After', 'X-Next-Cursor']);
  }
  expect(headerNames('/plans/{id}', '200')).toEqual(['Cache-Control']);
  expect(headerNames('/openapi.json', '200')).toEqual(['Cache-Control']);
  expect(headerNames('/plans', '401')).toEqual(['Cache-Control', 'WWW-Authenticate']);
  expect(headerNames('/plans', '429')).toEqual(['Cache-Control', 'Retry-After']);
  expect(Object.keys(openApiDocument.components.responses.MethodNotAllowed!.headers as object)).toEqual(['Cache-Control', 'Allow']);
  // Every response of every operation, errors included, says the answer is not to be stored.
  for (const { template, method, op } of operations) {
    for (const status of Object.keys(op.responses as object)) {
      expect(headerNames(template, status), `${method} ${template} ${status}`).toContain('Cache-Control');
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
  expect(memberships.body).toHaveLength(5);
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
  ] as const) {
    const res = await get(path, allScopes, { 'x-cursor': c });
    expect(res.status, path).toBe(400);
    expect(res.body.errors[0], path).toMatchObject({ path: 'X-Cursor', code: 'invalidCursor' });
  }
});

test('401: missing, malformed, unknown, revoked and expired keys, everywhere', async () => {
  const unknown = `svc_admin_${'A'.repeat(43)}`;
  for (const { path, method = 'GET' } of [...OPERATIONS, ...UNLISTED]) {
    for (const key of [undefined, 'nope', unknown, revoked, expired]) {
      const res = await adminRequest(app, path, { method, ...(key !== undefined && { key }) });
      expect(res.status, `${method} ${path} ${key}`).toBe(401);
      expect(res.body.errors[0].code).toBe('accessDenied');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  }
  const basic = await adminRequest(app, `${A}/sites`, { headers: { authorization: 'Basic abc' } });
  expect(basic.status).toBe(401);
});

test("403: a site whose plan lost the Admin API, on every endpoint", async () => {
  for (const { path, method = 'GET' } of [...OPERATIONS, ...UNLISTED]) {
    const res = await adminRequest(app, path, { method, key: downgraded });
    expect(res.status, `${method} ${path}`).toBe(403);
    expect(res.body.errors[0].code).toBe('forbidden');
  }
});

test('404: a missing scope, a missing plan, an unknown endpoint', async () => {
  for (const { path, scope } of OPERATIONS) {
    if (!scope) continue;
    const key = scope === 'read.plans' ? membersOnly : plansOnly;
    const res = await get(path, key);
    expect(res.status, path).toBe(404);
    expect(res.body.errors[0].code).toBe('notFound');
  }
  expect((await get(`${A}/sites`, plansOnly)).status).toBe(200);
  for (const id of ['999999', 'abc', '0']) expect((await get(`${A}/plans/${id}`)).status).toBe(404);
  const otherSitePlan = await definePlan(store, clock, offSite.id, { name: 'Theirs', type: 'free', expiration: { mode: 'none' } });
  expect((await get(`${A}/plans/${otherSitePlan.id}`)).status).toBe(404);
  for (const path of [`${A}/nope`, `${A}/sites/`, `${A}/plans/1/members`]) {
    const res = await get(path);
    expect(res.status, path).toBe(404);
  }
});

test('405: the Admin API is read-only', async () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const { path } of OPERATIONS) {
      const res = await adminRequest(app, path, { method, key: allScopes });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
    // This description too, with a key.
    expect((await adminRequest(app, `${A}/openapi.json`, { method, key: allScopes })).status).toBe(405);
  }
});

test('500: a fault of the service itself answers internalError, on every endpoint', async () => {
  // The reads each route makes after the key's checks, failing as a lost database would.
  const ROUTE_READS = ['siteMetrics', 'getPlan', 'listPlans', 'countPlans', 'planActiveMemberCounts', 'listMemberSummaries', 'listMemberships', 'listMemberEvents', 'listContentViews'];
  const failing = failingStore(store, ROUTE_READS, 'the database is gone');
  const broken = await createServiceApp({ store: failing, clock });
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    for (const { path } of OPERATIONS) {
      const res = await adminRequest(broken, path, { key: allScopes });
      expect(res.status, path).toBe(500);
      expect(res.body.errors[0].code).toBe('internalError');
    }
    // Each logged, for the operator.
    expect(logged.mock.calls.filter(([line]) => String(line).includes('the database is gone'))).toHaveLength(OPERATIONS.length);
  } finally {
    logged.mockRestore();
  }
});

test('429: over the rate limit, on every endpoint, with Retry-After', async () => {
  const limited = await createServiceApp({ store, clock, adminRateLimit: { limit: 1, windowMs: 60_000 } });
  expect((await adminRequest(limited, `${A}/sites`, { key: allScopes })).status).toBe(200);
  for (const { path, method = 'GET' } of [...OPERATIONS, ...UNLISTED]) {
    const res = await adminRequest(limited, path, { method, key: allScopes });
    expect(res.status, `${method} ${path}`).toBe(429);
    expect(res.body.errors[0].code).toBe('rateLimited');
    expect(res.headers.get('retry-after')).toBe('60');
  }
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
