/**
 * Shared pieces of the member API suites (docs/member-api.md): the stores every suite runs on,
 * an app over the mock-server fixtures with a clock the test moves, and small request helpers.
 */
import type { Hono } from 'hono';
import { afterEach, describe, expect } from 'vitest';
import { createMockApp } from '../../mock-server/app';
import { sharpPictureEncoder } from '../../src/service/member/pictures/sharp-encoder';
import { FIXTURE_NOW } from '../../mock-server/fixtures';
import type { LoadedSite } from '../../mock-server/load-fixtures';
import type { MemberApiErrorBody, MemberInfo, SessionResponse, TestPaymentMethod } from '../../src/contract/member';
import type { CardDetails } from '../../src/service/payments/processor';
import { createMemoryStore } from '../../src/service/store/memory';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';
import { memberOpenApi, validated } from '../support/member-openapi';
import type { OpenApiValidator } from '../support/openapi-validator';
import { POSTGRES_URL, describePostgres, isPostgresStore, newPostgresStore, seedPostgresStore } from '../support/postgres';

export type StoreFactory = () => Store | Promise<Store>;

const POSTGRES: [name: string, newStore: StoreFactory] = ['postgres', () => newPostgresStore()];

/** The stores a suite can open here: PostgreSQL only with a server (../support/postgres). */
export const STORES: ReadonlyArray<[name: string, newStore: StoreFactory]> = [
  ['memory', createMemoryStore],
  ['sqlite in memory', () => openSqliteStore(':memory:')],
  ...(POSTGRES_URL ? [POSTGRES] : []),
];

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const ORIGIN = 'http://demo.localhost';
export const BASE = '/member/v1/sites/demo';
export const OTHER_BASE = '/member/v1/sites/other';

export const ADA = { email: 'ada@demo.localhost', password: 'demo-password' } as const;
export const GRACE = { email: 'grace@demo.localhost', password: 'grace-password' } as const;
export const MALLORY = { email: 'mallory@demo.localhost', password: 'mallory-password' } as const;
export const OTTO = { email: 'otto@other.example', password: 'otto-password' } as const;

export interface MemberCtx {
  app: Hono;
  store: Store;
  demo: LoadedSite;
  other: LoadedSite;
  /** Milliseconds since the epoch, as the app's clock reads it. */
  now(): number;
  /** Moves the clock forward. */
  advance(ms: number): void;
  /**
   * Any request; `Origin: http://demo.localhost` unless `origin` is given (null: none). Every
   * response is held against the member API's OpenAPI document before the test sees it.
   */
  request(path: string, init?: RequestOptions): Promise<Response>;
  /** POST /members with a JSON body (`ORIGIN`). */
  signUp(body: unknown, base?: string): Promise<Response>;
  /** POST /sessions with a JSON body (`ORIGIN`). */
  signIn(body: unknown, base?: string): Promise<Response>;
  /** Signs in and returns the session; fails the test unless it is a 201. */
  session(credentials: { email: string; password: string }, base?: string): Promise<SessionResponse>;
  /** An authenticated request with the token as bearer. */
  authed(token: string, path: string, init?: RequestOptions): Promise<Response>;
}

export interface RequestOptions {
  method?: string;
  /** A JSON value, serialized; a string is sent as it is when `raw` is set. */
  json?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
  /** The Origin header; `null` to send none. Default ORIGIN. */
  origin?: string | null;
  token?: string;
  /** The client's address, as the server hands it to the app; without one the limits per client address do not apply. */
  remoteAddress?: string;
}

/**
 * `request` of a member context for `app`: every response is held against the member API's
 * OpenAPI document (`validator`) before the caller sees it. buildMemberCtx's; a test that builds
 * another app over the same store (a failing store, another password hasher) uses it too.
 */
export function requestFor(app: Hono, validator: OpenApiValidator = memberOpenApi): MemberCtx['request'] {
  return async (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const origin = init.origin === undefined ? ORIGIN : init.origin;
    if (origin !== null) headers.origin = origin;
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    let body: BodyInit | undefined;
    if (init.raw !== undefined) body = init.raw;
    else if (init.json !== undefined) body = JSON.stringify(init.json);
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    const url = path.startsWith('http') ? path : `http://svc.test${path}`;
    const method = init.method ?? 'GET';
    const env = init.remoteAddress === undefined ? undefined : { remoteAddress: init.remoteAddress };
    return validated(validator, method, url, await app.request(url, { method, headers, ...(body !== undefined && { body }) }, env));
  };
}

export interface MemberCtxOptions {
  /** The OpenAPI validator responses are held against; the member suites' shared one by default. */
  validator?: OpenApiValidator;
}

export async function buildMemberCtx(newStore: StoreFactory, { validator = memberOpenApi }: MemberCtxOptions = {}): Promise<MemberCtx> {
  let now = FIXTURE_NOW;
  // sharp's encoder, as svc serve has (the mock's own, for a browser, takes no picture).
  const store = await newStore();
  // A PostgreSQL store gets the fixtures copied from the first store's rows: the same fixtures, at the same time.
  const seed = isPostgresStore(store) ? (load: () => Promise<LoadedSite[]>) => seedPostgresStore(store, `member fixtures at ${now}`, load) : undefined;
  const { app, sites } = await createMockApp({ clock: () => now, store, pictures: sharpPictureEncoder(), seed });
  const request = requestFor(app, validator);
  const ctx: MemberCtx = {
    app,
    store,
    demo: sites[0]!,
    other: sites[1]!,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    request,
    signUp: (body, base = BASE) => request(`${base}/members`, { method: 'POST', json: body }),
    signIn: (body, base = BASE) => request(`${base}/sessions`, { method: 'POST', json: body }),
    async session(credentials, base = BASE) {
      const res = await request(`${base}/sessions`, {
        method: 'POST',
        json: credentials,
        origin: base === BASE ? ORIGIN : null,
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(201);
      return body as SessionResponse;
    },
    authed: (token, path, init = {}) => request(path, { ...init, token }),
  };
  return ctx;
}

/**
 * Registers `run` once per store, inside a describe named after it. `fresh()` gives a new app
 * and store for the test calling it; they are closed after the test.
 */
export function forEachStore(run: (fresh: () => Promise<MemberCtx>, storeName: string) => void): void {
  const suite = (name: string, newStore: StoreFactory) => () => {
    const open: Store[] = [];
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });
    run(async () => {
      const ctx = await buildMemberCtx(newStore);
      open.push(ctx.store);
      return ctx;
    }, name);
  };
  for (const [name, newStore] of STORES) describe(`${name} store`, suite(name, newStore));
  // Without a server: shown as skipped, or failing under CI=true.
  if (!POSTGRES_URL) describePostgres(`${POSTGRES[0]} store`, suite(...POSTGRES));
}

/** Reads the body and checks it is JSON with the given status. */
export async function jsonOf<T = unknown>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
  return JSON.parse(text) as T;
}

/** Checks the spec's error body (section 7) and the codes and paths it carries. */
export async function expectError(res: Response, status: number, code: string, path?: string): Promise<MemberApiErrorBody> {
  const body = await jsonOf<MemberApiErrorBody>(res, status);
  expect(Object.keys(body)).toEqual(['errors']);
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const e of body.errors) {
    expect(typeof e.path).toBe('string');
    expect(typeof e.code).toBe('string');
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
  }
  expect(body.errors.map((e) => e.code)).toContain(code);
  if (path !== undefined) expect(body.errors.find((e) => e.code === code && e.path === path), JSON.stringify(body)).toBeDefined();
  return body;
}

/** The `invalidField` paths of a 400. */
export async function invalidFieldPaths(res: Response): Promise<string[]> {
  const body = await expectError(res, 400, 'invalidField');
  for (const e of body.errors) expect(e.code).toBe('invalidField');
  return body.errors.map((e) => e.path).sort();
}

export type { MemberInfo, SessionResponse };

/**
 * POST /test-payment-methods: the card to the built-in test processor's card field, as the widget
 * sends it. The only route of the member API that takes card fields; the others take the
 * `paymentMethodId` it answers.
 */
export const postTestCard = (ctx: MemberCtx, token: string, card: unknown): Promise<Response> =>
  ctx.authed(token, `${BASE}/test-payment-methods`, { method: 'POST', json: card });

/** The card made a payment method by the test processor's card field: its `pm_test_…` id (the test fails unless 201). */
export async function testCard(ctx: MemberCtx, token: string, card: CardDetails): Promise<string> {
  return (await jsonOf<TestPaymentMethod>(await postTestCard(ctx, token, card), 201)).id;
}

/** What a sign-up body says of the card, as the widget sends it: the payment method made of it; nothing without a card. */
export async function paymentWith(ctx: MemberCtx, token: string, card?: CardDetails): Promise<{ paymentMethodId?: string }> {
  return card ? { paymentMethodId: await testCard(ctx, token, card) } : {};
}

/** PUT /payment-method with the card, made a payment method by the test processor's card field first. */
export async function putCard(ctx: MemberCtx, token: string, card: CardDetails): Promise<Response> {
  return ctx.authed(token, `${BASE}/payment-method`, { method: 'PUT', json: { paymentMethodId: await testCard(ctx, token, card) } });
}

/** A valid sign-up body for the demo site, given its field ids. */
export function validSignUp(demo: LoadedSite, overrides: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) {
  const f = demo.fieldIds;
  return {
    email: 'new.member@example.com',
    password: 'a good password',
    firstName: 'New',
    lastName: 'Member',
    customFields: { [f.role!]: 'designer', [f.terms!]: true, ...fields },
    ...overrides,
  };
}
