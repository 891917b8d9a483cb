/**
 * Requests and assertions the Admin API suites share. Expected bodies are built here from store
 * records, independently of src/service/admin/serialize.ts, from the tables of spec section 2.
 */
import type { Hono } from 'hono';
import { expect } from 'vitest';
import type { Scope } from '../../src/contract/admin';
import type {
  ContentViewRecord,
  MemberEventRecord,
  MemberRecord,
  MembershipRecord,
  PlanRecord,
  SiteRecord,
} from '../../src/service/store/records';
import { adminRequest, type AdminResponse } from '../support/admin-request';
import { DEMO_LIBRARY } from '../../src/service/seed/catalogue';
import { OTHER_SPACE, type SiteData } from '../support/admin-fixture';

export const BASE = '/admin/v1';

// ------------------------------------------------------------------------------------ Endpoints

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

/** Every GET route with the scope it needs (none for /sites); `{id}` filled by the caller. */
export const ROUTES: Array<{ path: (planId: number) => string; scope: Scope | undefined; name: string }> = [
  { name: '/sites', path: () => '/sites', scope: undefined },
  { name: '/plans/{id}', path: (id) => `/plans/${id}`, scope: 'read.plans' },
  ...LIST_ENDPOINTS.map((e) => ({ name: e.path, path: () => e.path, scope: e.scope })),
];

// ------------------------------------------------------------------------------------ Requests

export interface RequestOptions {
  key?: string;
  headers?: Record<string, string>;
  method?: string;
  query?: Record<string, string | number | Array<string | number>>;
}

/** Query string from name → value(s), percent-encoded the way a careful client encodes it. */
export function queryString(query: RequestOptions['query'] = {}): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(v))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A request to `{base_url}` + path through the OpenAPI-checking client. */
export function call<T = any>(app: Hono, path: string, options: RequestOptions = {}): Promise<AdminResponse<T>> {
  const { query, ...rest } = options;
  return adminRequest<T>(app, `${BASE}${path}${queryString(query)}`, rest);
}

export interface Walk<T> {
  items: T[];
  pages: Array<AdminResponse<T[]>>;
}

/**
 * Follows X-Next-Cursor until X-Has-More-Items-After is false, checking on every page the
 * paging headers' rules: a full page whenever more follow, a cursor exactly when more follow.
 */
/** Bodies default to `any`: callers check them field by field. */
export async function walkPages<T extends { id: number } = any>(
  app: Hono,
  path: string,
  options: RequestOptions & { pageSize?: number } = {},
): Promise<Walk<T>> {
  const { pageSize, headers, ...rest } = options;
  const items: T[] = [];
  const pages: Array<AdminResponse<T[]>> = [];
  let cursor: string | undefined;
  for (let n = 0; n < 10_000; n++) {
    const res = await call<T[]>(app, path, {
      ...rest,
      headers: {
        ...headers,
        ...(pageSize !== undefined && { 'x-items-after': String(pageSize) }),
        ...(cursor !== undefined && { 'x-cursor': cursor }),
      },
    });
    expect(res.status, `${path} page ${n + 1}: ${brief(res.body)}`).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res);
    items.push(...res.body);
    const more = res.headers.get('x-has-more-items-after');
    expect(more === 'true' || more === 'false', `X-Has-More-Items-After is ${more}`).toBe(true);
    const next = res.headers.get('x-next-cursor');
    if (more === 'false') {
      expect(next, 'X-Next-Cursor on the last page').toBeNull();
      expect(res.body.length).toBeLessThanOrEqual(pageSize ?? 25);
      return { items, pages };
    }
    expect(next, 'X-Next-Cursor while more items follow').toEqual(expect.any(String));
    expect(res.body).toHaveLength(pageSize ?? 25);
    cursor = next!;
  }
  throw new Error(`${path}: no last page after 10000 pages`);
}

/** A body short enough for a failure message. */
export function brief(body: unknown): string {
  const text = JSON.stringify(body) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
}

export const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id);

// ------------------------------------------------------------------------------------ Assertions

export function expectJson(res: AdminResponse): void {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
}

/** The error body of spec section 7: `{errors: [{path, code, message}, …]}` and nothing else. */
export function expectErrorBody(res: AdminResponse): void {
  expectJson(res);
  expect(res.body).toStrictEqual({ errors: expect.any(Array) });
  const errors = (res.body as { errors: unknown[] }).errors;
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    expect(error).toStrictEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
    const e = error as { path: string; code: string; message: string };
    expect(e.path.length).toBeGreaterThan(0);
    expect(e.code).toMatch(/^[a-z][A-Za-z]*$/);
    expect(e.message.length).toBeGreaterThan(0);
  }
}

/** Status, error body, and one error carrying `code` (and `path` when given). */
export function expectError(res: AdminResponse, status: number, code?: string, path?: string): void {
  expect(res.status, brief(res.body)).toBe(status);
  expectErrorBody(res);
  if (code !== undefined) {
    expect((res.body as { errors: Array<{ code: string; path: string }> }).errors).toContainEqual(
      expect.objectContaining({ code, ...(path !== undefined && { path }) }),
    );
  }
}

/** Every error of a 400 is `invalidParameter` and together they name exactly `paths`. */
export function expectInvalidParameters(res: AdminResponse, ...paths: string[]): void {
  expectError(res, 400);
  const errors = (res.body as { errors: Array<{ code: string; path: string }> }).errors;
  expect(errors.map((e) => e.code)).toEqual(errors.map(() => 'invalidParameter'));
  expect([...new Set(errors.map((e) => e.path))].sort()).toEqual([...paths].sort());
}

/** `null` never appears on the wire: optional fields are omitted instead (spec 1). */
export function expectNoNulls(body: unknown): void {
  const walk = (value: unknown, at: string): void => {
    expect(value, `null at ${at}`).not.toBeNull();
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${at}.${k}`);
  };
  walk(body, '$');
  expect(JSON.stringify(body)).not.toMatch(/:null[,}\]]/);
}

/** RFC 3339 date-time, as OpenAPI's `format: date-time`. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// ------------------------------------------------------------------------------------ Shapes

/** A field type of the spec's tables; `?` marks an optional field. */
type FieldType = 'integer' | 'number' | 'string' | 'boolean' | 'date-time' | 'object' | { [field: string]: FieldType } | `${string}?`;

/**
 * The value has exactly the fields `shape` lists (optional ones may be missing, never null) with
 * the listed types; nested objects are checked the same way.
 */
export function expectShape(value: unknown, shape: Record<string, FieldType>, at = '$'): void {
  expect(value, at).toEqual(expect.any(Object));
  const record = value as Record<string, unknown>;
  const allowed = Object.keys(shape);
  for (const field of Object.keys(record)) expect(allowed, `${at} has unexpected field ${field}`).toContain(field);
  for (const [field, type] of Object.entries(shape)) {
    const optional = typeof type === 'string' && type.endsWith('?');
    const t = optional ? (type as string).slice(0, -1) : type;
    const v = record[field];
    if (v === undefined) {
      expect(optional, `${at}.${field} is required`).toBe(true);
      continue;
    }
    const where = `${at}.${field}`;
    if (typeof t === 'object') expectShape(v, t, where);
    else if (t === 'integer') expect(Number.isInteger(v), `${where} = ${JSON.stringify(v)} is an integer`).toBe(true);
    else if (t === 'number') expect(typeof v === 'number' && Number.isFinite(v), `${where} is a number`).toBe(true);
    else if (t === 'date-time') {
      expect(typeof v === 'string' && DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)), `${where} = ${JSON.stringify(v)} is a date-time`).toBe(true);
    } else if (t === 'object') expect(v, where).toEqual(expect.any(Object));
    else expect(typeof v, where).toBe(t);
  }
}

export const SITE_SHAPE = {
  id: 'integer',
  name: 'string',
  subdomain: 'string',
  domain: 'string',
  defaultCurrency: 'string',
  locale: 'string',
  metrics: { activeMemberCount: 'integer', freeMemberCount: 'integer', paidMemberCount: 'integer' },
  createdAt: 'date-time',
} as const;

const PLAN_COMMON = {
  id: 'integer',
  publicId: 'string',
  name: 'string',
  description: 'string?',
  status: 'string',
  isPublic: 'boolean',
  activeMemberCount: 'integer',
  colorCode: 'string',
  contentUrl: 'string?',
  welcomeUrl: 'string?',
  createdAt: 'date-time',
  type: 'string',
} as const;

const INTERVAL = { count: 'integer', unit: 'string' } as const;
const TAX = { taxPercentage: 'number?', taxDescription: 'string?' } as const;

/** Plan fields by type, as the "Extra fields by type" and billing tables of 2.2 arrange them. */
export const PLAN_SHAPES: Record<string, Record<string, FieldType>> = {
  free: { ...PLAN_COMMON, expiration: 'object' },
  oneTimePayment: { ...PLAN_COMMON, expiration: 'object', billing: { price: 'number', currency: 'string', ...TAX } },
  multiPayment: {
    ...PLAN_COMMON,
    expiration: 'object',
    billing: {
      price: 'number',
      currency: 'string',
      interval: INTERVAL,
      paymentCountRequired: 'integer',
      trialPeriodDays: 'integer?',
      signupFee: 'number?',
      ...TAX,
    },
  },
  subscription: {
    ...PLAN_COMMON,
    billing: {
      price: 'number',
      currency: 'string',
      interval: INTERVAL,
      billingDate: 'object?',
      trialPeriodDays: 'integer?',
      signupFee: 'number?',
      ...TAX,
    },
  },
};

export const EXPIRATION_SHAPES: Record<string, Record<string, FieldType>> = {
  none: { mode: 'string' },
  interval: { mode: 'string', count: 'integer', unit: 'string' },
  specificTime: { mode: 'string', expiresAt: 'date-time' },
};

export const MEMBERSHIP_SHAPE = {
  id: 'integer',
  memberId: 'integer',
  planId: 'integer',
  planPublicId: 'string',
  status: 'string',
  createdAt: 'date-time',
  type: 'string',
  expiresOn: 'date-time?',
  cancelsOn: 'date-time?',
  billing: 'object?',
} as const;

export const MEMBER_SHAPE = {
  id: 'integer',
  email: 'string',
  firstName: 'string?',
  lastName: 'string?',
  status: 'string',
  createdAt: 'date-time',
} as const;

export const MEMBER_EVENT_SHAPE = {
  id: 'integer',
  memberId: 'integer',
  eventType: 'string',
  details: 'object',
  createdAt: 'date-time',
} as const;

export const CONTENT_VIEW_SHAPE = {
  id: 'integer',
  memberId: 'integer',
  node: { id: 'integer', name: 'string', type: 'string' },
  spaceNode: { id: 'integer', name: 'string' },
  viewedAt: 'date-time',
} as const;

// ------------------------------------------------------------------------------------ Expected bodies

/** Date-times compared as instants: any RFC 3339 spelling of the same moment is equal. */
export function sameInstants<T>(value: T): T {
  if (typeof value === 'string' && DATE_TIME.test(value)) return new Date(Date.parse(value)).toISOString() as T;
  if (Array.isArray(value)) return value.map(sameInstants) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sameInstants(v)])) as T;
  }
  return value;
}

const iso = (ms: number) => new Date(ms).toISOString();
const present = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** Distinct members with an active membership among `memberships` that pass `include`. */
export function activeMembers(memberships: MembershipRecord[], include: (m: MembershipRecord) => boolean = () => true): number {
  return new Set(memberships.filter((m) => m.status === 'active' && include(m)).map((m) => m.memberId)).size;
}

export function expectedSite(site: SiteRecord, data: SiteData) {
  return {
    id: site.id,
    name: site.name,
    subdomain: site.subdomain,
    domain: site.domain,
    defaultCurrency: site.defaultCurrency,
    locale: site.locale,
    metrics: {
      activeMemberCount: activeMembers(data.memberships),
      freeMemberCount: activeMembers(data.memberships, (m) => m.type === 'free'),
      paidMemberCount: activeMembers(data.memberships, (m) => m.type !== 'free'),
    },
    createdAt: iso(site.createdAt),
  };
}

export function expectedPlan(plan: PlanRecord, data: SiteData) {
  return {
    id: plan.id,
    publicId: plan.publicId,
    name: plan.name,
    ...present('description', plan.description),
    status: plan.status,
    isPublic: plan.isPublic,
    activeMemberCount: activeMembers(data.memberships, (m) => m.planId === plan.id),
    colorCode: plan.colorCode,
    ...present('contentUrl', plan.contentUrl),
    ...present('welcomeUrl', plan.welcomeUrl),
    createdAt: iso(plan.createdAt),
    type: plan.type,
    ...('expiration' in plan && { expiration: plan.expiration }),
    ...('billing' in plan && { billing: plan.billing }),
  };
}

export function expectedMember(m: MemberRecord) {
  return {
    id: m.id,
    email: m.email,
    ...present('firstName', m.firstName),
    ...present('lastName', m.lastName),
    status: m.status,
    createdAt: iso(m.createdAt),
  };
}

export function expectedMembership(m: MembershipRecord, data: SiteData) {
  const plan = data.plans.find((p) => p.id === m.planId)!;
  return {
    id: m.id,
    memberId: m.memberId,
    planId: m.planId,
    planPublicId: plan.publicId,
    status: m.status,
    createdAt: iso(m.createdAt),
    type: plan.type,
    ...present('expiresOn', m.expiresAt === undefined ? undefined : iso(m.expiresAt)),
    ...present('cancelsOn', m.cancelsAt === undefined ? undefined : iso(m.cancelsAt)),
    ...present('billing', m.billingPeriodEnd === undefined ? undefined : { billingPeriodEnd: iso(m.billingPeriodEnd) }),
  };
}

export function expectedMemberEvent(e: MemberEventRecord) {
  return { id: e.id, memberId: e.memberId, eventType: e.eventType, details: e.details, createdAt: iso(e.createdAt) };
}

/** Content spaces are not listed by the store: their names come from what the fixture planted. */
function spaceNameOf(nodeName: string): string {
  return DEMO_LIBRARY.find((s) => s.nodes.some(([name]) => name === nodeName))?.space ?? OTHER_SPACE;
}

export function expectedContentView(v: ContentViewRecord, data: SiteData) {
  const node = data.nodes.find((n) => n.id === v.nodeId)!;
  return {
    id: v.id,
    memberId: v.memberId,
    node: { id: node.id, name: node.name, type: node.type },
    spaceNode: { id: node.spaceId, name: spaceNameOf(node.name) },
    viewedAt: iso(v.viewedAt),
  };
}

// ------------------------------------------------------------------------------------ Filters

/** `…After` inclusive, `…Before` exclusive; a row without the value never matches a range. */
export function inRange(value: number | undefined, after?: number, before?: number): boolean {
  if (after === undefined && before === undefined) return true;
  if (value === undefined) return false;
  return (after === undefined || value >= after) && (before === undefined || value < before);
}

export { iso };

/** A few distinct values of `pick` over `rows`: the smallest, the largest, and some between. */
export function sampleValues<T, V>(rows: T[], pick: (row: T) => V | undefined, count = 5): V[] {
  const values = [...new Set(rows.map(pick).filter((v): v is V => v !== undefined))];
  if (values.length <= count) return values;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Array.from({ length: count }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (count - 1))]!);
}

/** Walks every page of `path` with `query` and expects exactly `expected` (by id, in id order). */
export async function expectListed(
  app: Hono,
  path: string,
  key: string,
  query: RequestOptions['query'],
  expected: ReadonlyArray<{ id: number }>,
): Promise<void> {
  const walk = await walkPages<{ id: number }>(app, path, { key, query, pageSize: 100 });
  expect(ids(walk.items), `${path}${queryString(query)}`).toEqual(ids(expected));
}

/**
 * The boundary cases of one `…After`/`…Before` pair at an instant some row has exactly: After
 * includes it, Before excludes it, [t, t+1ms) holds exactly the rows at t, [t, t) is empty.
 */
export async function expectRangeBoundaries<T extends { id: number }>(
  app: Hono,
  path: string,
  key: string,
  names: [after: string, before: string],
  rows: T[],
  valueOf: (row: T) => number | undefined,
  instants: number[],
): Promise<void> {
  const [after, before] = names;
  expect(instants.length).toBeGreaterThan(0);
  for (const t of instants) {
    const at = rows.filter((r) => valueOf(r) === t);
    expect(at.length, `some row has ${after} ${iso(t)}`).toBeGreaterThan(0);
    const cases: Array<[Record<string, string>, number | undefined, number | undefined]> = [
      [{ [after]: iso(t) }, t, undefined],
      [{ [after]: iso(t + 1) }, t + 1, undefined],
      [{ [before]: iso(t) }, undefined, t],
      [{ [before]: iso(t + 1) }, undefined, t + 1],
      [{ [after]: iso(t), [before]: iso(t + 1) }, t, t + 1],
      [{ [after]: iso(t), [before]: iso(t) }, t, t],
    ];
    for (const [query, from, to] of cases) {
      await expectListed(app, path, key, query, rows.filter((r) => inRange(valueOf(r), from, to)));
    }
    await expectListed(app, path, key, { [after]: iso(t), [before]: iso(t + 1) }, at);
    await expectListed(app, path, key, { [before]: iso(t) }, rows.filter((r) => inRange(valueOf(r), undefined, t)));
  }
}

/** Malformed date-time values a range parameter must refuse. */
export const BAD_DATE_TIMES = [
  'yesterday',
  'now',
  '1700000000000',
  '2024-13-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29',
  '2024-01-01T24:00:00Z',
  '2024-01-01T12:60:00Z',
  '2024-01-01T12:00:00',
  '2024-01-01T12:00:00+2:00',
  '2024-1-1',
  '01/02/2024',
  '',
  ' ',
  '2024-01-01T00:00:00Zjunk',
];
