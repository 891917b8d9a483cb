/**
 * Property-based checks of the Admin API: random and malformed paths, methods, headers, query
 * strings and keys never produce a 5xx, always answer JSON (the error body on errors), never
 * let an unissued key or cursor through, and never change the store. Valid random filters
 * answer exactly what an independent computation over the store's rows says.
 */
import fc from 'fast-check';
import type { Hono } from 'hono';
import { expect, test } from 'vitest';
import { MEMBER_STATUSES, MEMBERSHIP_STATUSES, PLAN_TYPES } from '../../src/contract/admin';
import type { AdminResponse } from '../support/admin-request';
import { adminRequest } from '../support/admin-request';
import {
  forEachStore,
  readSiteData,
  storeFingerprint,
  useAdminFixture,
  type AdminFixture,
  type SiteData,
} from '../support/admin-fixture';
import { BAD_DATE_TIMES, BASE, brief, ids, inRange, iso, LIST_ENDPOINTS, ROUTES, walkPages } from './helpers';

const RUNS = 300;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// ------------------------------------------------------------------------------------ Checks

/** What every response must be, whatever was asked. */
function expectWellFormed(res: AdminResponse, method: string): void {
  expect(res.status, brief(res.body)).toBeGreaterThanOrEqual(200);
  expect(res.status, brief(res.body)).toBeLessThan(500);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
  if (method.toUpperCase() !== 'HEAD') expect(res.body).not.toBeUndefined();
  if (res.status >= 400 && method.toUpperCase() !== 'HEAD') {
    expect(res.body).toStrictEqual({ errors: expect.any(Array) });
    const errors = (res.body as { errors: unknown[] }).errors;
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toStrictEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
  }
}

/**
 * Sends a request the WHATWG URL parser accepts; undefined for one no client could send.
 * Every request goes through `adminRequest`, so the OpenAPI validator checks it too.
 */
async function send(app: Hono, path: string, method: string, headers: Record<string, string | undefined>): Promise<AdminResponse | undefined> {
  const defined = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
  try {
    new URL(`http://localhost${path}`);
    new Headers(defined);
    new Request('http://localhost/', { method });
  } catch {
    return undefined;
  }
  return adminRequest(app, path, { method, headers: defined });
}

async function expectUnchanged(fx: AdminFixture, run: () => Promise<void>): Promise<void> {
  const before = await storeFingerprint(fx);
  await run();
  expect(await storeFingerprint(fx)).toBe(before);
}

// ------------------------------------------------------------------------------------ Arbitraries

const KNOWN_SEGMENTS = ['admin', 'v1', 'v2', 'sites', 'plans', 'members', 'memberships', 'memberEvents', 'contentLibrary', 'views', 'openapi.json', 'healthz', '1', '2', '17', '999999'];
const ODD_SEGMENTS = [
  '..', '.', '', '%2e%2e', '%2E', '%2F', '%2f..', '..%2f', '%00', '%E0%A4%A', '%', '%%', '%zz', '%C3%A9', '%FF', '%ED%A0%80',
  'é', '☃', '😀', ';', ';a=b', '@', ':', '~', '*', '$', '+', ' ', '%20', '\\', '..\\..', 'plans%2F1', '1%00', 'sites.json',
  'Sites', 'PLANS', '1e3', '0x1', '-0', '-1', '00001', '1.0', '9'.repeat(30), '%u0041', '?', '#', '&',
];
const BROKEN_ENCODINGS = ['%E0%A4%A', '%', '%%', '%zz', '%C3', '%FF%FE', '%00', '%2', '%u0041', '%ED%A0%80', '%C0%AF', '+', '%2B', '&', '=', '==', '%3D', '%26', '%0A', '%0D%0A'];
const KNOWN_PARAMS = [
  'type', 'status', 'planId', 'memberId', 'nodeId', 'firstName', 'lastName', 'email', 'createdAfter', 'createdBefore',
  'billingPeriodEndAfter', 'billingPeriodEndBefore', 'expiresAfter', 'expiresBefore', 'viewedAfter', 'viewedBefore',
];

/** Printable ASCII plus Latin-1: what a header value can carry. */
const headerText = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength }),
  );

const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...KNOWN_SEGMENTS) },
  { weight: 4, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }).map((n) => 'x'.repeat(n * 100)) },
);

/** encodeURIComponent, or the text as it is when it holds a lone surrogate. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
};

const paramName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...KNOWN_PARAMS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BROKEN_ENCODINGS) },
  { weight: 1, arbitrary: fc.constantFrom('Status', 'planid', 'status[]', 'created_after', 'limit', 'cursor', '') },
);
const paramValue = fc.oneof(
  fc.constantFrom(...PLAN_TYPES, 'enabled', 'disabled', 'deleted', 'archived', ...MEMBERSHIP_STATUSES, ...MEMBER_STATUSES),
  fc.integer({ min: -5, max: 250 }).map(String),
  fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(...BAD_DATE_TIMES, '2025-06-01', '2025-06-01T00:00:00+02:00', '2025-06-01T00:00:00.123456789Z'),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom(...BROKEN_ENCODINGS),
  fc.integer({ min: 1, max: 3000 }).map((n) => 'z'.repeat(n)),
);
/** A query string as clients, careless ones included, write them: encoded, raw, or a bare name. */
const rawQuery = fc
  .array(fc.tuple(paramName, paramValue, fc.constantFrom('encoded', 'encoded', 'raw', 'bare')), { maxLength: 6 })
  .map((pairs) =>
    pairs.map(([k, v, mode]) => (mode === 'encoded' ? `${encode(k)}=${encode(v)}` : mode === 'raw' ? `${k}=${v}` : k)).join('&'),
  );

const ROUTE_PATHS = ['/sites', '/plans', '/plans/1', '/plans/9', '/members', '/memberships', '/memberEvents', '/contentLibrary/views'];

/** Random segments under odd prefixes, or a real route (with a random query) to reach past routing. */
const path = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...ROUTE_PATHS), fc.option(rawQuery)).map(([r, q]) => `/admin/v1${r}${q === null ? '' : `?${q}`}`) },
  { weight: 3, arbitrary: fc
  .tuple(
    fc.constantFrom('/admin/v1', '/admin/v1', '/admin/v1', '/admin', '', '//admin/v1', '/admin//v1', '/Admin/V1', '/admin/v1/', '/admin/v1/..', '/admin/v1/.', '/admin/v2'),
    fc.array(segment, { maxLength: 5 }),
    fc.option(rawQuery),
  )
  .map(([prefix, segments, query]) => `${prefix}/${segments.join('/')}${query === null ? '' : `?${query}`}`) },
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constant('GET') },
  { weight: 4, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get', 'post', 'patch', 'PROPFIND', 'M-SEARCH', 'FOO') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z]{1,12}$/).filter((m) => !['CONNECT', 'TRACE', 'TRACK'].includes(m.toUpperCase())) },
);

/** One character changed, dropped or added, anywhere but in the spare bits of a cursor's last digit. */
function mutated(text: string, alphabet: string, avoidLast = false): fc.Arbitrary<string> {
  const last = avoidLast ? text.length - 1 : text.length;
  return fc
    .tuple(fc.nat({ max: Math.max(0, last - 1) }), fc.constantFrom(...alphabet), fc.constantFrom('replace', 'delete', 'insert', 'truncate'))
    .map(([i, c, how]) => {
      if (how === 'replace') return text.slice(0, i) + c + text.slice(i + 1);
      if (how === 'delete') return text.slice(0, i) + text.slice(i + 1);
      if (how === 'insert') return text.slice(0, i) + c + text.slice(i);
      return text.slice(0, i);
    })
    .filter((m) => m !== text);
}

const itemsAfter = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: -5, max: 205 }).map(String),
  fc.constantFrom(' 5', '5 ', '05', '1e1', '0x10', '+5', '5.0', '', '١', '1_0', '100', '1'),
  headerText(12),
);

// ------------------------------------------------------------------------------------ Harvested state

interface Issued {
  endpoint: string;
  siteId: number;
  cursor: string;
}

/** Real cursors of every list endpoint for demo and other (no filters), at a few page sizes. */
async function harvestCursors(fx: AdminFixture): Promise<Issued[]> {
  const issued: Issued[] = [];
  for (const endpoint of LIST_ENDPOINTS) {
    for (const [siteId, key] of [[fx.demo.id, fx.keys.demo.all], [fx.other.id, fx.keys.other.all]] as const) {
      for (const size of [1, 2, 5]) {
        const res = await adminRequest(fx.app, `${BASE}${endpoint.path}`, { key, headers: { 'x-items-after': String(size) } });
        const cursor = res.headers.get('x-next-cursor');
        if (cursor) issued.push({ endpoint: endpoint.path, siteId, cursor });
      }
    }
  }
  return issued;
}

/** Every fixture key with the site it belongs to (undefined site: a key that must answer 401). */
function fixtureKeys(fx: AdminFixture): Array<{ key: string; siteId: number | undefined; scopes: 'all' | 'some' }> {
  return [
    { key: fx.keys.demo.all, siteId: fx.demo.id, scopes: 'all' },
    { key: fx.keys.other.all, siteId: fx.other.id, scopes: 'all' },
    { key: fx.keys.empty.all, siteId: fx.empty.id, scopes: 'all' },
    { key: fx.keys.demo.none, siteId: fx.demo.id, scopes: 'some' },
    { key: fx.keys.demo.only['read.members'], siteId: fx.demo.id, scopes: 'some' },
    { key: fx.keys.demo.allBut['read.plans'], siteId: fx.demo.id, scopes: 'some' },
    { key: fx.keys.closed, siteId: fx.closed.id, scopes: 'all' },
    { key: fx.keys.expired, siteId: undefined, scopes: 'all' },
    { key: fx.keys.revoked, siteId: undefined, scopes: 'all' },
  ];
}

// ------------------------------------------------------------------------------------ Properties

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('random and malformed paths and methods, with and without a key: never a 5xx, always JSON, nothing changed', async () => {
    const fx = fixture();
    const keys = fixtureKeys(fx).map((k) => k.key);
    const statuses = new Set<number>();
    await expectUnchanged(fx, () =>
      fc.assert(
        fc.asyncProperty(path, method, fc.option(fc.constantFrom(...keys)), async (p, m, key) => {
          const res = await send(fx.app, p, m, { authorization: key === null ? undefined : `Bearer ${key}` });
          fc.pre(res !== undefined);
          expectWellFormed(res!, m);
          statuses.add(res!.status);
          // Without a key, everything under the base but the API description is a 401.
          const pathname = new URL(`http://localhost${p}`).pathname;
          if (key === null && pathname.startsWith(`${BASE}/`) && pathname !== `${BASE}/openapi.json`) {
            expect(res!.status).toBe(401);
          }
        }),
        { numRuns: RUNS },
      ),
    );
    // The runs reached past authentication, to routes, to other methods and to nowhere.
    for (const status of [200, 401, 404, 405]) expect(statuses).toContain(status);
  });

  test('random Authorization, X-Items-After and X-Cursor headers at every endpoint: well-formed answers, no unissued cursor accepted', async () => {
    const fx = fixture();
    const planIds = ids((await readSiteData(fx.store, fx.demo.id)).plans);
    const keys = fixtureKeys(fx);
    const issued = await harvestCursors(fx);
    const cursors = issued.map((i) => i.cursor);
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(...keys.map((k) => `Bearer ${k.key}`)),
      fc.constantFrom(...keys.map((k) => k.key)).chain((k) => mutated(k, B64)).map((k) => `Bearer ${k}`),
      fc.stringMatching(/^svc_admin_[A-Za-z0-9_-]{43}$/).map((k) => `Bearer ${k}`),
      headerText(60).map((s) => `Bearer ${s}`),
      headerText(60),
      fc.constantFrom(...keys.map((k) => `Basic ${k.key}`), ...keys.map((k) => `Bearer  ${k.key}  `)),
    );
    const cursor = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(...cursors),
      fc.constantFrom(...cursors).chain((c) => mutated(c, `${B64}.`, true)),
      fc.stringMatching(/^[0-9a-z]{1,11}\.[A-Za-z0-9_-]{22}$/),
      headerText(40),
    );
    const route = fc.constantFrom(...ROUTES);
    const planId = fc.oneof(fc.constantFrom(...planIds), fc.integer({ min: -2, max: 100 }));
    const keyOf = (siteId: number) => keys.find((k) => k.siteId === siteId && k.scopes === 'all')!.key;
    /** Everything random, or a real cursor at its own endpoint with its own site's key. */
    const scenario = fc.oneof(
      { weight: 3, arbitrary: fc.tuple(route, planId, authorization, itemsAfter, cursor) },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constantFrom(...issued),
          fc.constantFrom(...planIds),
          fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 100 }).map(String), itemsAfter),
        ).map(([i, id, size]) => [ROUTES.find((r) => r.name === i.endpoint)!, id, `Bearer ${keyOf(i.siteId)}`, size, i.cursor] as const),
      },
    );
    const statuses = new Set<number>();
    let acceptedCursors = 0;

    await expectUnchanged(fx, () =>
      fc.assert(
        fc.asyncProperty(scenario, async ([r, id, auth, size, c]) => {
          const url = `${BASE}${r.path(id)}`;
          const res = await send(fx.app, url, 'GET', { authorization: auth, 'x-items-after': size, 'x-cursor': c });
          fc.pre(res !== undefined);
          expectWellFormed(res!, 'GET');
          statuses.add(res!.status);
          const presented = auth === undefined ? undefined : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth)?.[1];
          const owner = keys.find((k) => k.key === presented);
          if (!owner || owner.siteId === undefined) expect(res!.status).toBe(401);
          const isList = LIST_ENDPOINTS.some((e) => e.path === r.name);
          if (res!.status === 200 && isList) {
            expect(Array.isArray(res!.body)).toBe(true);
            expect(['true', 'false']).toContain(res!.headers.get('x-has-more-items-after'));
            if (c !== undefined) {
              acceptedCursors++;
              expect(issued.some((i) => i.cursor === c && i.endpoint === r.name && i.siteId === owner!.siteId), `cursor ${c} accepted`).toBe(true);
            }
            if (size !== undefined) {
              expect(size.trim()).toMatch(/^\d+$/);
              expect(Number(size)).toBeGreaterThanOrEqual(1);
              expect(Number(size)).toBeLessThanOrEqual(100);
              expect((res!.body as unknown[]).length).toBeLessThanOrEqual(Number(size));
            }
          }
          if (res!.status === 400) {
            for (const e of (res!.body as { errors: Array<{ code: string }> }).errors) {
              expect(['invalidCursor', 'invalidParameter']).toContain(e.code);
            }
          }
        }),
        { numRuns: RUNS },
      ),
    );
    for (const status of [200, 400, 401, 403, 404]) expect(statuses).toContain(status);
    expect(acceptedCursors).toBeGreaterThan(0);
  });

  test('random query strings at every list endpoint: well-formed answers, 400s name only parameters that were sent, unknown ones ignored', async () => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    const plain = new Map<string, unknown>();
    for (const e of LIST_ENDPOINTS) plain.set(e.path, (await adminRequest(fx.app, `${BASE}${e.path}`, { key })).body);
    await expectUnchanged(fx, () =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom(...LIST_ENDPOINTS), rawQuery, async (endpoint, query) => {
          const res = await send(fx.app, `${BASE}${endpoint.path}?${query}`, 'GET', { authorization: `Bearer ${key}` });
          fc.pre(res !== undefined);
          expectWellFormed(res!, 'GET');
          expect([200, 400]).toContain(res!.status);
          const sent = new URL(`http://localhost/?${query}`).searchParams;
          if (res!.status === 400) {
            for (const e of (res!.body as { errors: Array<{ path: string; code: string }> }).errors) {
              expect(e.code).toBe('invalidParameter');
              expect(sent.has(e.path), `${e.path} was not sent`).toBe(true);
            }
          }
          if (![...sent.keys()].some((name) => KNOWN_PARAMS.includes(name))) {
            expect(res!.status).toBe(200);
            expect(res!.body).toStrictEqual(plain.get(endpoint.path));
          }
        }),
        { numRuns: RUNS },
      ),
    );
  });

  test('random keys, near misses of real keys included, are all refused with 401 accessDenied', async () => {
    const fx = fixture();
    const real = fixtureKeys(fx).map((k) => k.key);
    const key = fc.oneof(
      fc.constantFrom(...real).chain((k) => mutated(k, B64)),
      fc.stringMatching(/^svc_admin_[A-Za-z0-9_-]{43}$/),
      fc.stringMatching(/^svc_admin_[A-Za-z0-9_-]{0,60}$/),
      fc.constantFrom(...real).map((k) => k.toUpperCase()),
      fc.constantFrom(...real).map((k) => k.replace('svc_admin_', 'svc_admn_')),
      fc.string({ minLength: 1, maxLength: 80 }).filter((s) => !/\s/.test(s)),
    ).filter((k) => !real.includes(k));
    await expectUnchanged(fx, () =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom(...ROUTES), key, async (route, k) => {
          const res = await send(fx.app, `${BASE}${route.path(1)}`, 'GET', { authorization: `Bearer ${k}` });
          fc.pre(res !== undefined);
          expectWellFormed(res!, 'GET');
          expect(res!.status).toBe(401);
          expect((res!.body as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('accessDenied');
          expect(res!.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
        }),
        { numRuns: RUNS },
      ),
    );
  });

  test('random valid filter combinations answer exactly the rows an independent computation selects', async () => {
    const fx = fixture();
    const sites: Array<[string, SiteData]> = [
      [fx.keys.demo.all, await readSiteData(fx.store, fx.demo.id)],
      [fx.keys.other.all, await readSiteData(fx.store, fx.other.id)],
    ];
    const everything = sites.map(([, d]) => d);
    const pick = <T>(values: T[]) => fc.constantFrom(...values);
    const allIds = (get: (d: SiteData) => Array<{ id: number }>) => [...everything.flatMap((d) => ids(get(d))), 999_999];
    const instants = (get: (d: SiteData) => Array<number | undefined>) => {
      const values = everything.flatMap(get).filter((v): v is number => v !== undefined);
      return fc.oneof(pick(values), pick(values).map((v) => v + 1), pick(values).map((v) => v - 1), fc.integer({ min: Date.UTC(2023, 0, 1), max: Date.UTC(2028, 0, 1) }));
    };
    const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 2 });

    /** Per endpoint: random filters, and which rows of a site they select. */
    const cases = [
      {
        path: '/members',
        filters: fc.record({
          firstName: optional(pick(everything.flatMap((d) => d.members.map((m) => m.firstName ?? 'Nobody')))),
          lastName: optional(pick(everything.flatMap((d) => d.members.map((m) => m.lastName ?? 'Nobody')))),
          email: optional(pick(everything.flatMap((d) => d.members.map((m) => m.email)))),
          status: optional(pick([...MEMBER_STATUSES])),
          createdAfter: optional(instants((d) => d.members.map((m) => m.createdAt))),
          createdBefore: optional(instants((d) => d.members.map((m) => m.createdAt))),
        }),
        select: (d: SiteData, f: Record<string, any>) =>
          d.members.filter(
            (m) =>
              (f.firstName == null || m.firstName === f.firstName) && (f.lastName == null || m.lastName === f.lastName) &&
              (f.email == null || m.email === f.email) && (f.status == null || m.status === f.status) &&
              inRange(m.createdAt, f.createdAfter ?? undefined, f.createdBefore ?? undefined),
          ),
      },
      {
        path: '/memberships',
        filters: fc.record({
          planId: optional(pick(allIds((d) => d.plans))),
          memberId: optional(pick(allIds((d) => d.members))),
          status: optional(pick([...MEMBERSHIP_STATUSES])),
          createdAfter: optional(instants((d) => d.memberships.map((m) => m.createdAt))),
          createdBefore: optional(instants((d) => d.memberships.map((m) => m.createdAt))),
          billingPeriodEndAfter: optional(instants((d) => d.memberships.map((m) => m.billingPeriodEnd))),
          billingPeriodEndBefore: optional(instants((d) => d.memberships.map((m) => m.billingPeriodEnd))),
          expiresAfter: optional(instants((d) => d.memberships.map((m) => m.expiresAt))),
          expiresBefore: optional(instants((d) => d.memberships.map((m) => m.expiresAt))),
        }),
        select: (d: SiteData, f: Record<string, any>) =>
          d.memberships.filter(
            (m) =>
              (f.planId == null || m.planId === f.planId) && (f.memberId == null || m.memberId === f.memberId) &&
              (f.status == null || m.status === f.status) &&
              (f.createdAfter == null && f.createdBefore == null || inRange(m.createdAt, f.createdAfter ?? undefined, f.createdBefore ?? undefined)) &&
              (f.billingPeriodEndAfter == null && f.billingPeriodEndBefore == null ||
                inRange(m.billingPeriodEnd, f.billingPeriodEndAfter ?? undefined, f.billingPeriodEndBefore ?? undefined)) &&
              (f.expiresAfter == null && f.expiresBefore == null || inRange(m.expiresAt, f.expiresAfter ?? undefined, f.expiresBefore ?? undefined)),
          ),
      },
      {
        path: '/memberEvents',
        filters: fc.record({
          memberId: optional(pick(allIds((d) => d.members))),
          createdAfter: optional(instants((d) => d.events.map((e) => e.createdAt))),
          createdBefore: optional(instants((d) => d.events.map((e) => e.createdAt))),
        }),
        select: (d: SiteData, f: Record<string, any>) =>
          d.events.filter(
            (e) => (f.memberId == null || e.memberId === f.memberId) && inRange(e.createdAt, f.createdAfter ?? undefined, f.createdBefore ?? undefined),
          ),
      },
      {
        path: '/contentLibrary/views',
        filters: fc.record({
          memberId: optional(pick(allIds((d) => d.members))),
          nodeId: optional(pick(allIds((d) => d.nodes))),
          viewedAfter: optional(instants((d) => d.views.map((v) => v.viewedAt))),
          viewedBefore: optional(instants((d) => d.views.map((v) => v.viewedAt))),
        }),
        select: (d: SiteData, f: Record<string, any>) =>
          d.views.filter(
            (v) =>
              (f.memberId == null || v.memberId === f.memberId) && (f.nodeId == null || v.nodeId === f.nodeId) &&
              inRange(v.viewedAt, f.viewedAfter ?? undefined, f.viewedBefore ?? undefined),
          ),
      },
      {
        path: '/plans',
        filters: fc.record({ type: optional(pick([...PLAN_TYPES])), status: optional(pick(['enabled', 'disabled', 'deleted'])) }),
        select: (d: SiteData, f: Record<string, any>) =>
          d.plans.filter(
            (p) =>
              (f.type == null || p.type === f.type) &&
              (f.status == null ? p.status === 'enabled' || p.status === 'disabled' : p.status === f.status),
          ),
      },
    ];

    const dateParam = /(After|Before)$/;
    let nonEmpty = 0;
    await expectUnchanged(fx, () =>
      fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: cases.length - 1 }).chain((i) => fc.tuple(fc.constant(i), cases[i]!.filters as fc.Arbitrary<Record<string, unknown>>)),
          fc.constantFrom(0, 1),
          fc.integer({ min: 15, max: 100 }),
          async ([i, filters], site, pageSize) => {
            const c = cases[i]!;
            const [key, data] = sites[site]!;
            const query = Object.fromEntries(
              Object.entries(filters)
                .filter(([, v]) => v !== null)
                .map(([k, v]) => [k, dateParam.test(k) ? iso(v as number) : String(v)]),
            );
            const walk = await walkPages(fx.app, c.path, { key, query, pageSize });
            expect(ids(walk.items)).toEqual(ids(c.select(data, filters)));
            if (walk.items.length > 0) nonEmpty++;
          },
        ),
        { numRuns: RUNS },
      ),
    );
    // Not a property of empty answers only: a good share of the runs selected something.
    expect(nonEmpty).toBeGreaterThan(RUNS / 5);
  });
});
