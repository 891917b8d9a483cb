/**
 * The member API's OpenAPI description (src/service/member/openapi.ts): served as it is written,
 * structurally sound, and true: every (operation, status) pair it documents is answered below by
 * a real request through the member suites' request helper, each response held against it by a
 * validator of this file's own (test/support/member-openapi.ts), and responses that break it
 * fail the validator.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { expect, test, vi } from 'vitest';
import { createMockApp } from '../mock-server/app';
import { CONTENT_NODE_TYPES } from '../src/contract/admin';
import {
  SIGNUP_FIELD_TYPES,
  WIDGET_LOCALES,
  type ContentAccessPlans,
  type ContentItem,
  type ConversionDetail,
  type MemberInfo,
  type Membership,
  type PaymentActionRequired,
  type PlanChangeQuote,
  type PlanOffer,
  type SavedCard,
  type SiteConfig,
} from '../src/contract/member';
import { createServiceApp } from '../src/service/app';
import { BusyError } from '../src/service/auth/bounded-queue';
import { runRenewals } from '../src/service/billing/renewals';
import { definePlan } from '../src/service/domain/plans';
import { MEMBER_BASE_PATH } from '../src/service/member/app';
import { MAX_BODY_BYTES } from '../src/service/member/body';
import { MAX_PICTURE_BYTES, PICTURES_PER_MEMBER } from '../src/service/member/pictures/limits';
import { DEFAULT_MAILS_PER_ADDRESS } from '../src/service/member/client-limits';
import { WIDGET_TYPES } from '../src/service/member/member-info';
import { openApiDocument as doc } from '../src/service/member/openapi';
import { MEMBER_ERROR_CODES } from '../src/service/member/openapi/errors';
import { MAX_FAILURES } from '../src/service/member/sign-in-throttle';
import { SIGNUPS_PER_EMAIL } from '../src/service/member/signup-limits';
import type { OpenApiObject } from '../src/service/openapi/document';
import { CardDeclinedError } from '../src/service/payments/processor';
import { TestPaymentProcessor } from '../src/service/payments/test-processor';
import { createMemoryStore } from '../src/service/store/memory';
import { codeOf, EMAIL_CONFIRM_SCREEN, lastMailTo, RESET_SCREEN, tokenOf } from './member/mail-support';
import { ADA, BASE, buildMemberCtx, expectError, GRACE, postTestCard, requestFor, testCard, validSignUp, type MemberCtx } from './member/support';
import { failingStore } from './support/failing-store';
import { createMemberValidator, LEFT_OUT, MEMBER_FALLBACKS, validated } from './support/member-openapi';
import { deref, operationsOf, resolved, walk } from './support/openapi-document';

/** Records exactly what this file's requests answered (the member suites' validator sees theirs). */
const validator = createMemberValidator();
const fresh = () => buildMemberCtx(createMemoryStore, { validator });
const operations = operationsOf(doc);
const EVIL = 'https://evil.example';
const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

// ------------------------------------------------------------------------------- the document

test('the document is OpenAPI 3.1.0 with a licence, served under /member/v1, with the session scheme; every tag described and used', () => {
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info).toMatchObject({ title: 'svc member API', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
  expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  expect(doc.info.description.length).toBeGreaterThan(200);
  expect(doc.servers.map((s) => s.url)).toEqual([MEMBER_BASE_PATH]);
  expect(doc.components.securitySchemes.memberSession).toMatchObject({ type: 'http', scheme: 'bearer' });
  for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w{3}/);
  const used = new Set(operations.flatMap(({ op }) => op.tags as string[]));
  expect([...used].sort()).toEqual(doc.tags.map((t) => t.name).sort());
});

test('every $ref resolves, and every component is used: by an operation, or as what a request with no operation answers', () => {
  const refs = new Set<string>();
  for (const [pointer, node] of walk(doc)) {
    if (!('$ref' in node)) continue;
    expect(node.$ref as string, pointer).toMatch(/^#\/components\//);
    expect(deref(doc, node.$ref as string), `${pointer} → ${String(node.$ref)}`).toBeDefined();
    refs.add(node.$ref as string);
  }
  // The validator's fallbacks (info.description tells them): a preflight, a refusal, another method.
  const fallbacks = new Set([...Object.values(MEMBER_FALLBACKS.unknownPath), ...Object.values(MEMBER_FALLBACKS.otherMethod)]);
  for (const name of fallbacks) expect(doc.components.responses[name], name).toBeDefined();
  for (const [kind, entries] of Object.entries(doc.components)) {
    if (kind === 'securitySchemes') continue;
    for (const name of Object.keys(entries)) {
      const used = refs.has(`#/components/${kind}/${name}`) || (kind === 'responses' && fallbacks.has(name));
      expect(used, `#/components/${kind}/${name} is never used`).toBe(true);
    }
  }
  const schemes = operations.flatMap(({ op }) => ((op.security ?? []) as Record<string, string[]>[]).flatMap(Object.keys));
  expect([...new Set(schemes)]).toEqual(Object.keys(doc.components.securitySchemes));
});

test('every route the app serves under /member/v1 is an operation, and every operation a route (the demo mailbox left out)', async () => {
  const { app } = await createMockApp();
  const routes = app.routes
    // ALL: the site scope and the 405 answers of ./methods.ts, not routes of their own.
    .filter((r) => r.path.startsWith(`${MEMBER_BASE_PATH}/`) && r.method !== 'ALL')
    .map((r) => ({ method: r.method, template: r.path.slice(MEMBER_BASE_PATH.length).replace(/:(\w+)/g, '{$1}') }))
    .filter(({ template }) => !LEFT_OUT.some((p) => p.test(template)));
  const keys = (list: { method: string; template: string }[]) => list.map(({ method, template }) => `${method.toUpperCase()} ${template}`).sort();
  expect(keys(operations)).toEqual(keys(routes));
});

test('operations: unique ids, a summary, a description and a tag each; path parameters declared; bodies JSON with a schema (a picture\'s, image bytes)', () => {
  const ids = operations.map(({ op }) => op.operationId);
  expect(new Set(ids).size).toBe(ids.length);
  for (const { template, method, op } of operations) {
    const where = `${method} ${template}`;
    expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
    expect(String(op.summary), where).toMatch(/\w{3}/);
    expect(String(op.description).length, where).toBeGreaterThan(20);
    expect((op.tags as string[]).length, where).toBe(1);
    const parameters = ((op.parameters ?? []) as OpenApiObject[]).map((p) => resolved(doc, p));
    for (const p of parameters) expect(p.schema, `${where} ${String(p.name)}`).toBeDefined();
    const inPath = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(parameters.filter((p) => p.in === 'path' && p.required === true).map((p) => p.name).sort(), where).toEqual(inPath);
    if (op.requestBody === undefined) continue;
    const body = op.requestBody as { required: boolean; content: Record<string, { schema: OpenApiObject }> };
    expect(body.required, where).toBe(true);
    if (op.operationId === 'uploadPicture') {
      expect(Object.keys(body.content), where).toEqual(PICTURE_TYPES);
      for (const type of PICTURE_TYPES) expect(body.content[type]!.schema, where).toEqual({ type: 'string', contentMediaType: type });
      continue;
    }
    expect(Object.keys(body.content), where).toEqual(['application/json']);
    const schema = resolved(doc, body.content['application/json']!.schema);
    expect(schema.type === 'object' || Array.isArray(schema.oneOf), where).toBe(true);
  }
});

/** The session an operation needs: `required`, `optional` (read when sent) or none. */
const sessionOf = (op: OpenApiObject) => {
  const security = JSON.stringify(op.security ?? []);
  return security === '[{"memberSession":[]}]' ? 'required' : security === '[{},{"memberSession":[]}]' ? 'optional' : 'none';
};

test('responses: what every operation of its kind can answer; 204s without content, every other one JSON; errors the error body', () => {
  for (const { template, method, op } of operations) {
    const where = `${method} ${template}`;
    const responses = op.responses as Record<string, OpenApiObject>;
    const statuses = Object.keys(responses);
    if (template === '/openapi.json') {
      expect(statuses, where).toEqual(['200']);
    } else if (template === '/pictures/{file}') {
      // Outside any site, for any page: no site scope, no session.
      expect(statuses, where).toEqual(['200', '404', '500']);
    } else {
      // The site scope (404, 403) and a fault of the service (500) come before any route.
      expect(statuses, where).toEqual(expect.arrayContaining(['403', '404', '500']));
      if (sessionOf(op) === 'required') expect(statuses, where).toContain('401');
      expect(statuses.includes('413'), where).toBe(op.requestBody !== undefined);
      if (op.requestBody !== undefined) expect(statuses, where).toContain('400');
    }
    for (const [status, node] of Object.entries(responses)) {
      const response = resolved(doc, node);
      expect(response.description, `${where} ${status}`).toMatch(/\w{3}/);
      if (status === '204') {
        expect(response.content, `${where} ${status}`).toBeUndefined();
        continue;
      }
      const content = response.content as Record<string, { schema: OpenApiObject }>;
      // A picture is its bytes.
      if (template === '/pictures/{file}' && status === '200') {
        expect(Object.keys(content), `${where} ${status}`).toEqual(['image/webp']);
        continue;
      }
      expect(Object.keys(content), `${where} ${status}`).toEqual(['application/json']);
      if (Number(status) >= 400) expect((content['application/json']!.schema.allOf as OpenApiObject[])[0], `${where} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      if (status === '429') expect(Object.keys(response.headers as object), `${where} ${status}`).toContain('Retry-After');
    }
  }
  expect(Object.keys(doc.components.responses.MethodNotAllowed!.headers as object)).toEqual(['Allow']);
});

test('every error code of the contract is one some response carries, and no response carries another', () => {
  const carried = new Set<string>();
  for (const [pointer, node] of walk(doc)) {
    if (pointer.endsWith('/items/properties/code') && Array.isArray(node.enum)) for (const code of node.enum) carried.add(code as string);
  }
  expect([...carried].sort()).toEqual([...MEMBER_ERROR_CODES].sort());
});

test('schemas: valid JSON Schema 2020-12, closed objects, no null, discriminators that agree with their branches, enums of the code', () => {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv);
  ajv.addKeyword('discriminator');
  const components = doc.components.schemas;
  ajv.addSchema({ $id: 'urn:svc:m', $defs: JSON.parse(JSON.stringify(components).replaceAll('#/components/schemas/', 'urn:svc:m#/$defs/')) });
  for (const name of Object.keys(components)) expect(ajv.getSchema(`urn:svc:m#/$defs/${name}`), name).toBeTypeOf('function');

  let unions = 0;
  for (const [pointer, node] of walk(doc)) {
    expect(node.nullable, pointer).toBeUndefined();
    expect(node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null')), pointer).toBe(false);
    if (node.type === 'object' && node.properties && pointer.startsWith('#/components/schemas')) expect(node.additionalProperties, pointer).toBe(false);
    if (!node.discriminator) continue;
    // The validator picks a branch by its tag's `const` and drops OpenAPI's mapping: the two must agree.
    unions++;
    const { propertyName, mapping } = node.discriminator as { propertyName: string; mapping: Record<string, string> };
    expect(node.oneOf, pointer).toEqual(Object.values(mapping).map(($ref) => ({ $ref })));
    for (const [tag, ref] of Object.entries(mapping)) {
      expect(((deref(doc, ref) as OpenApiObject).properties as Record<string, unknown>)[propertyName], ref).toEqual({ const: tag });
    }
  }
  expect(unions).toBeGreaterThan(1);
  const enumOf = (schema: unknown) => [...(schema as { enum: string[] }).enum].sort();
  const props = (name: string) => components[name]!.properties as Record<string, OpenApiObject>;
  expect(enumOf(props('Membership').type)).toEqual(Object.values(WIDGET_TYPES).sort());
  expect(enumOf(props('PlanOffer').type)).toEqual(Object.values(WIDGET_TYPES).sort());
  expect(enumOf(props('ContentItem').type)).toEqual([...CONTENT_NODE_TYPES].sort());
  expect(enumOf(props('SignupFieldDefinition').type)).toEqual([...SIGNUP_FIELD_TYPES].sort());
  expect(Object.keys((components.CustomSignupField!.discriminator as { mapping: object }).mapping).sort()).toEqual([...SIGNUP_FIELD_TYPES].sort());
  expect(enumOf(props('SiteConfig').locale)).toEqual([...WIDGET_LOCALES].sort());
});

test('every branch of an anyOf or oneOf names its type (or is a $ref): generators that read a branch alone know what it is', () => {
  let branches = 0;
  for (const [pointer, node] of walk(doc)) {
    for (const key of ['anyOf', 'oneOf'] as const) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      for (const [i, branch] of (list as OpenApiObject[]).entries()) {
        branches++;
        expect(typeof branch.type === 'string' || typeof branch.$ref === 'string', `${pointer}/${key}/${i}`).toBe(true);
      }
    }
  }
  expect(branches).toBeGreaterThan(8);
});

// --------------------------------------------------------------------------- served, as it is

test('GET /member/v1/openapi.json serves the document as application/json to any origin, without a session; HEAD too; POST is 405', async () => {
  const ctx = await fresh();
  const path = `${MEMBER_BASE_PATH}/openapi.json`;
  const res = await ctx.request(path, { origin: 'https://editor.example' });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  const head = await ctx.request(path, { method: 'HEAD', origin: null });
  expect([head.status, await head.text()]).toEqual([200, '']);
  const post = await ctx.request(path, { method: 'POST', origin: null });
  await expectError(post, 405, 'methodNotAllowed');
  expect(post.headers.get('allow')).toBe('GET');
});

// --------------------------------------------------------------- every operation, real answers

/**
 * Values for the operations' parameters: well-formed, for the requests below that are answered
 * before the route reads them (the site scope, the session, the body, another method).
 */
const PARAMETERS: Record<string, string> = {
  publicId: 'monthly', id: '1', contentId: '1', intentId: 'pi_test_unknown', plan: 'monthly', file: `${'0'.repeat(64)}.webp`,
};
const parameter = (name: string) => {
  const value = PARAMETERS[name];
  if (value === undefined) throw new Error(`no value for the parameter ${name}: add one to PARAMETERS`);
  return value;
};
/** `template` under the site, its parameters filled in (and its required query parameters). */
function fill(template: string, subdomain: string, op?: OpenApiObject): string {
  const query = ((op?.parameters ?? []) as OpenApiObject[])
    .map((p) => resolved(doc, p))
    .filter((p) => p.in === 'query' && p.required === true)
    .map((p) => `${String(p.name)}=${parameter(String(p.name))}`);
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'subdomain' ? subdomain : parameter(name)));
  return `${MEMBER_BASE_PATH}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** Every operation under a site, as a request. */
const SITE_OPERATIONS = operations
  .filter(({ template }) => template.startsWith('/sites/{subdomain}/'))
  .map(({ template, method, op }) => ({
    key: `${method.toUpperCase()} ${template}`,
    method: method.toUpperCase(),
    path: (subdomain: string) => fill(template, subdomain, op),
    session: sessionOf(op),
    body: op.requestBody !== undefined,
    /** A JSON body, which the checks of every such body below apply to (a picture's are its own). */
    json: op.requestBody !== undefined && op.operationId !== 'uploadPicture',
  }));

test('every operation under a site: 403 for a refused origin, 404 for a site that does not exist', async () => {
  const ctx = await fresh();
  const { token } = await ctx.session(ADA);
  for (const op of SITE_OPERATIONS) {
    const init = { method: op.method, token, ...(op.body && { json: {} }) };
    await expectError(await ctx.request(op.path('demo'), { ...init, origin: EVIL }), 403, 'originNotAllowed');
    await expectError(await ctx.request(op.path('nosuch'), init), 404, 'notFound');
  }
});

test('every operation that needs a session: 401 without one; every one that reads a body: 400 when it is not JSON, 413 over 64 KiB', async () => {
  const ctx = await fresh();
  const { token } = await ctx.session(ADA);
  for (const op of SITE_OPERATIONS) {
    if (op.session === 'required') await expectError(await ctx.request(op.path('demo'), { method: op.method, ...(op.body && { json: {} }) }), 401, 'unauthenticated');
    if (!op.json) continue;
    await expectError(await ctx.request(op.path('demo'), { method: op.method, token, raw: 'not json' }), 400, 'invalidBody');
    await expectError(await ctx.request(op.path('demo'), { method: op.method, token, raw: JSON.stringify('x'.repeat(MAX_BODY_BYTES)) }), 413, 'invalidBody');
  }
});

test('every operation under a site: 500 internalError when the service fails (the store lost), logged', async () => {
  const ctx = await fresh();
  const broken = requestFor(await createServiceApp({ store: failingStore(ctx.store, ['getSiteBySubdomain'], 'the database is gone'), clock: ctx.now }), validator);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    for (const op of SITE_OPERATIONS) {
      await expectError(await broken(op.path('demo'), { method: op.method, ...(op.body && { json: {} }) }), 500, 'internalError');
    }
    expect(logged.mock.calls.filter(([line]) => String(line).includes('the database is gone'))).toHaveLength(SITE_OPERATIONS.length);
  } finally {
    logged.mockRestore();
  }
});

/** Reads the body, checks the status (naming the body when it is another) and answers the JSON, if any. */
async function expectStatus<T = unknown>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

const OK_CARD = { cardNumber: '4242424242424242', cardExpiry: '12/34', cardCvc: '123' };
const REFUSED_WHEN_SAVED = { cardNumber: '4000000000000002', cardExpiry: '12/34', cardCvc: '123' };
const DECLINED_WHEN_CHARGED = { cardNumber: '4000000000000341', cardExpiry: '12/34', cardCvc: '123' };
const ASKS_ON_SESSION = { cardNumber: '4000002500003155', cardExpiry: '12/34', cardCvc: '123' };
const ALWAYS_ASKS = { cardNumber: '4000000000003220', cardExpiry: '12/34', cardCvc: '123' };

const post = (ctx: MemberCtx, token: string, path: string, json?: unknown) => ctx.authed(token, `${BASE}${path}`, { method: 'POST', ...(json !== undefined && { json }) });
/** The test bank's window, answered (200). */
const answerBank = async (ctx: MemberCtx, token: string, asked: PaymentActionRequired['requiresAction'], approve: boolean) =>
  expectStatus(await post(ctx, token, `/test-payment-intents/${asked.intentId}`, { clientSecret: asked.clientSecret, approve }), 200);
const asks = async (res: Response) => (await expectStatus<PaymentActionRequired>(res, 202)).requiresAction;

test('site and content: the settings, the plans, a plan, an item and its plans; a view that is none 400; an item no plan of the member opens 403', async () => {
  const ctx = await fresh();
  expect((await expectStatus<SiteConfig>(await ctx.request(`${BASE}/config`), 200)).subdomain).toBe('demo');
  const head = await ctx.request(`${BASE}/config`, { method: 'HEAD' });
  expect([head.status, await head.text()]).toEqual([200, '']);
  const plans = await expectStatus<{ publicId: string }[]>(await ctx.request(`${BASE}/plans`), 200);
  expect(plans.map((p) => p.publicId)).toContain('monthly');
  expect((await expectStatus<PlanOffer>(await ctx.request(`${BASE}/plans/monthly`), 200)).publicId).toBe('monthly');
  const { welcome, interview } = ctx.demo.contentIds;
  expect((await expectStatus<ContentAccessPlans>(await ctx.request(`${BASE}/content/${interview}/plans`), 200)).plans.length).toBeGreaterThan(0);
  const ada = (await ctx.session(ADA)).token;
  expect((await expectStatus<ContentItem>(await ctx.authed(ada, `${BASE}/content/${welcome}?view=popup`), 200)).view).toBe('popup');
  await expectError(await ctx.authed(ada, `${BASE}/content/${welcome}?view=slideshow`), 400, 'invalidField', 'view');
  const grace = (await ctx.session(GRACE)).token;
  await expectError(await ctx.authed(grace, `${BASE}/content/${interview}`), 403, 'noAccess', 'contentId');
});

test('sessions: sign-up 201, 202 and 409, then 429; sign-in 201 and 401, then 429; sign-out 204; mails 202, 429 per client address; a reset 201, 429 when hashing is full', async () => {
  const ctx = await fresh();
  const signUp = validSignUp(ctx.demo);
  await expectStatus(await ctx.signUp(signUp), 201);
  await expectStatus(await ctx.signUp(validSignUp(ctx.demo, { email: 'no.password@example.com', password: undefined })), 202);
  for (let attempt = 2; attempt <= SIGNUPS_PER_EMAIL.limit; attempt++) await expectError(await ctx.signUp(signUp), 409, 'emailTaken', 'email');
  await expectError(await ctx.signUp(signUp), 429, 'rateLimited', 'email');

  const { token } = await ctx.session(ADA);
  for (let attempt = 1; attempt <= MAX_FAILURES; attempt++) await expectError(await ctx.signIn({ ...GRACE, password: 'wrong password' }), 401, 'invalidCredentials');
  await expectError(await ctx.signIn(GRACE), 429, 'rateLimited');
  expect(await expectStatus(await ctx.authed(token, `${BASE}/sessions/current`, { method: 'DELETE' }), 204)).toBeUndefined();

  const ask = (path: string, email: string) => ctx.request(`${BASE}${path}`, { method: 'POST', json: { email } });
  await expectStatus(await ask('/sign-in-codes', ADA.email), 202);
  await expectStatus(await ask('/password-reset', ADA.email), 202);
  const reset = tokenOf(await lastMailTo(ctx, ADA.email, 'passwordReset'), RESET_SCREEN);
  await expectStatus(await ctx.request(`${BASE}/password-reset/complete`, { method: 'POST', json: { token: reset, newPassword: 'a new good password' } }), 201);

  // The process's hashing queue full (auth/bounded-queue.ts): come back in a moment.
  await expectStatus(await ask('/password-reset', GRACE.email), 202);
  const busy = requestFor(
    await createServiceApp({
      store: ctx.store,
      clock: ctx.now,
      passwords: { hash: () => Promise.reject(new BusyError(3)), verify: () => Promise.reject(new BusyError(3)) },
    }),
    validator,
  );
  const refused = await busy(`${BASE}/password-reset/complete`, { method: 'POST', json: { token: tokenOf(await lastMailTo(ctx, GRACE.email, 'passwordReset'), RESET_SCREEN), newPassword: 'a new good password' } });
  await expectError(refused, 429, 'rateLimited');
  expect(refused.headers.get('retry-after')).toBe('3');

  // Mails asked for from one client address: past its allowance, every kind is refused.
  const client = { method: 'POST', remoteAddress: '203.0.113.7' };
  for (let i = 0; i < DEFAULT_MAILS_PER_ADDRESS.limit; i++) {
    await expectStatus(await ctx.request(`${BASE}/sign-in-codes`, { ...client, json: { email: `stranger${i}@example.com` } }), 202);
  }
  await expectError(await ctx.request(`${BASE}/sign-in-codes`, { ...client, json: { email: ADA.email } }), 429, 'rateLimited', 'base');
  await expectError(await ctx.request(`${BASE}/password-reset`, { ...client, json: { email: ADA.email } }), 429, 'rateLimited', 'base');
});

test('account: the member 200, a change of names 200; a new address asked for 202 (the same one 200) and confirmed by code or link 200, or 409 once taken; a new password 204; 429 after wrong passwords', async () => {
  const ctx = await fresh();
  const ada = (await ctx.session(ADA)).token;
  expect((await expectStatus<MemberInfo>(await ctx.authed(ada, `${BASE}/me`), 200)).email).toBe(ADA.email);
  expect((await expectStatus<MemberInfo>(await ctx.authed(ada, `${BASE}/me`, { method: 'PATCH', json: { lastName: 'Byron' } }), 200)).lastName).toBe('Byron');
  const changeTo = (token: string, email: string, password: string) => ctx.authed(token, `${BASE}/me/email`, { method: 'PUT', json: { email, password } });
  expect((await expectStatus<MemberInfo>(await changeTo(ada, ADA.email, ADA.password), 200)).email).toBe(ADA.email);
  await expectStatus(await changeTo(ada, 'ada.new@example.com', ADA.password), 202);
  const code = codeOf(await lastMailTo(ctx, 'ada.new@example.com', 'emailChange'));
  expect((await expectStatus<MemberInfo>(await post(ctx, ada, '/me/email/confirm', { code }), 200)).email).toBe('ada.new@example.com');
  await expectStatus(await changeTo(ada, 'taken.meanwhile@example.com', ADA.password), 202);
  const lateCode = codeOf(await lastMailTo(ctx, 'taken.meanwhile@example.com', 'emailChange'));
  await expectStatus(await ctx.signUp(validSignUp(ctx.demo, { email: 'taken.meanwhile@example.com' })), 201);
  await expectError(await post(ctx, ada, '/me/email/confirm', { code: lateCode }), 409, 'emailTaken');

  const grace = (await ctx.session(GRACE)).token;
  const linkOf = async (email: string) => tokenOf(await lastMailTo(ctx, email, 'emailChange'), EMAIL_CONFIRM_SCREEN);
  await expectStatus(await changeTo(grace, 'grace.new@example.com', GRACE.password), 202);
  const link = await linkOf('grace.new@example.com');
  // With Grace's session, which stays (without it, every session of hers would end).
  const confirmByLink = (token: string) => ctx.authed(grace, `${BASE}/email-changes`, { method: 'POST', json: { token } });
  expect(await expectStatus(await confirmByLink(link), 200)).toEqual({ email: 'grace.new@example.com' });
  await expectStatus(await changeTo(grace, 'grace.taken@example.com', GRACE.password), 202);
  const lateLink = await linkOf('grace.taken@example.com');
  await expectStatus(await ctx.signUp(validSignUp(ctx.demo, { email: 'grace.taken@example.com' })), 201);
  await expectError(await confirmByLink(lateLink), 409, 'emailTaken');

  const newPassword = (password: string) => ctx.authed(ada, `${BASE}/me/password`, { method: 'PUT', json: { password, newPassword: 'another good password' } });
  await expectStatus(await newPassword(ADA.password), 204);
  // Wrong current passwords count as failed sign-ins of the address: past the limit, both routes wait.
  for (let attempt = 1; attempt <= MAX_FAILURES; attempt++) await expectError(await newPassword('wrong password'), 401, 'invalidCredentials', 'password');
  await expectError(await newPassword('another good password'), 429, 'rateLimited');
  await expectError(await changeTo(ada, 'ada.third@example.com', 'another good password'), 429, 'rateLimited');
});

test('pictures: uploaded 200 and served 200 to any page, removed 200; refused 400, 413, 415, 429 past the member\'s uploads; no such picture 404, the store lost 500', async () => {
  const ctx = await fresh();
  const { token } = await ctx.session(ADA);
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f80' } }).png().toBuffer();
  const upload = (body: BodyInit, type = 'image/png') => ctx.authed(token, `${BASE}/me/picture`, { method: 'PUT', raw: body, headers: { 'content-type': type } });
  const { profileImageUrl } = await expectStatus<MemberInfo>(await upload(png), 200);
  const served = await ctx.request(profileImageUrl, { origin: EVIL });
  expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/webp']);
  await expectError(await ctx.request(`${MEMBER_BASE_PATH}/pictures/${'f'.repeat(64)}.webp`), 404, 'notFound', 'file');
  const lost = requestFor(await createServiceApp({ store: failingStore(ctx.store, ['getMemberPicture'], 'the pictures are gone'), clock: ctx.now }), validator);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await expectError(await lost(profileImageUrl), 500, 'internalError');
  } finally {
    logged.mockRestore();
  }
  expect((await expectStatus<MemberInfo>(await ctx.authed(token, `${BASE}/me/picture`, { method: 'DELETE' }), 200)).profileImageUrl).toMatch(/^data:/);

  await expectError(await upload(png.subarray(0, 30)), 400, 'invalidPicture');
  await expectError(await upload(Buffer.alloc(MAX_PICTURE_BYTES + 1)), 413, 'pictureTooLarge');
  await expectError(await upload('<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml'), 415, 'unsupportedPicture');
  for (let i = 4; i < PICTURES_PER_MEMBER.limit; i++) await expectError(await upload('not a picture'), 415, 'unsupportedPicture');
  const refused = await upload(png);
  await expectError(refused, 429, 'rateLimited');
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
});

test('metadata: read, merged and cleared (200)', async () => {
  const ctx = await fresh();
  const { token } = await ctx.session(ADA);
  const metadata = (init: { method?: string; json?: unknown } = {}) => ctx.authed(token, `${BASE}/me/metadata`, init);
  const before = await expectStatus<Record<string, unknown>>(await metadata(), 200);
  expect(await expectStatus(await metadata({ method: 'PATCH', json: { plan: { step: 2 } } }), 200)).toEqual({ ...before, plan: { step: 2 } });
  expect(await expectStatus(await metadata({ method: 'DELETE' }), 200)).toEqual({});
});

test('plan sign-up: 201, 202 and its confirmation 201; declined 402 (and refused in the bank’s window); 409 on the plan again and while the bank waits; prices and invoices 200', async () => {
  const ctx = await fresh();
  const { token } = await ctx.session(GRACE);
  const join = async (planPublicId: string, card?: typeof OK_CARD) =>
    post(ctx, token, '/memberships', { planPublicId, ...(card && { paymentMethodId: await testCard(ctx, token, card) }) });
  const confirm = (intentId: string) => post(ctx, token, '/memberships/confirm', { intentId });
  await expectError(await postTestCard(ctx, token, REFUSED_WHEN_SAVED), 402, 'paymentDeclined', 'cardNumber');
  await expectError(await join('lifetime', DECLINED_WHEN_CHARGED), 402, 'paymentDeclined');

  const refused = await asks(await join('lifetime', ALWAYS_ASKS));
  await expectError(await confirm(refused.intentId), 409, 'paymentPending', 'intentId');
  await answerBank(ctx, token, refused, false);
  await expectError(await confirm(refused.intentId), 402, 'paymentDeclined', 'intentId');
  const approved = await asks(await join('lifetime', ASKS_ON_SESSION));
  await answerBank(ctx, token, approved, true);
  expect((await expectStatus<ConversionDetail>(await confirm(approved.intentId), 201)).membership.publicPlanId).toBe('lifetime');
  await expectError(await join('lifetime'), 409, 'alreadyMember');
  expect((await expectStatus<ConversionDetail>(await join('monthly', OK_CARD), 201)).membership.publicPlanId).toBe('monthly');

  expect((await expectStatus<ContentItem>(await ctx.authed(token, `${BASE}/content/${ctx.demo.contentIds.interview}`), 200)).type).toBe('audio');
  expect((await expectStatus<{ currency: string }[]>(await ctx.authed(token, `${BASE}/memberships`), 200)).length).toBeGreaterThan(0);
  expect((await expectStatus<unknown[]>(await ctx.authed(token, `${BASE}/invoices`), 200)).length).toBeGreaterThan(0);
});

test('cards: none saved 204; one made 201 and saved 200, read 200; refused by its bank as it is saved 402', async () => {
  const ctx = await fresh();
  const { token } = await ctx.session(GRACE);
  expect(await expectStatus(await ctx.authed(token, `${BASE}/payment-method`), 204)).toBeUndefined();
  const paymentMethodId = await testCard(ctx, token, OK_CARD);
  const save = (request: MemberCtx['request']) => request(`${BASE}/payment-method`, { method: 'PUT', token, json: { paymentMethodId } });
  expect((await expectStatus<SavedCard>(await save(ctx.request), 200)).last4).toBe('4242');
  expect((await expectStatus<SavedCard>(await ctx.authed(token, `${BASE}/payment-method`), 200)).last4).toBe('4242');
  // Stripe's banks refuse a card as it is attached; the test processor's did at its card field already.
  class RefusingBank extends TestPaymentProcessor {
    override async attachPaymentMethod(): Promise<never> {
      throw new CardDeclinedError('card_declined');
    }
  }
  const stripeLike = await createServiceApp({ store: ctx.store, clock: ctx.now, processor: new RefusingBank({ store: ctx.store, clock: ctx.now }) });
  await expectError(await save(requestFor(stripeLike, validator)), 402, 'paymentDeclined', 'paymentMethodId');
});

test('plan changes and cancelling: a quote 200 (400, 409), an upgrade the bank asks about 202, confirmed 200 (409 waiting, 402 refused), declined 402, a downgrade 200, cancelled 200 (400, 409)', async () => {
  const ctx = await fresh();
  const pro = await definePlan(ctx.store, ctx.now, ctx.demo.site.id, {
    name: 'Pro', type: 'subscription', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } },
  });
  const session = await ctx.session(ADA);
  const { token } = session;
  const held = (type: string) => session.memberInfo.memberships.find((m) => m.type === type && m.status === 'active')!;
  const { id } = held('subscription');
  const quote = (plan: string, membership: number | string = id) => ctx.authed(token, `${BASE}/memberships/${membership}/change?plan=${plan}`);
  expect((await expectStatus<PlanChangeQuote>(await quote(pro.publicId), 200)).when).toBe('now');
  await expectError(await quote('course3'), 409, 'notChangeable', 'plan');
  await expectError(await quote(pro.publicId, '0372'), 400, 'invalidField', 'id');

  const change = async (plan: string, card?: typeof OK_CARD) =>
    post(ctx, token, `/memberships/${id}/change`, { plan, ...(card && { paymentMethodId: await testCard(ctx, token, card) }) });
  const confirm = (intentId: string) => post(ctx, token, `/memberships/${id}/change/confirm`, { intentId });
  await expectError(await change(pro.publicId, DECLINED_WHEN_CHARGED), 402, 'paymentDeclined');
  await expectError(await change('course3'), 409, 'notChangeable', 'plan');
  const refused = await asks(await change(pro.publicId, ALWAYS_ASKS));
  await expectError(await confirm(refused.intentId), 409, 'paymentPending', 'intentId');
  await answerBank(ctx, token, refused, false);
  await expectError(await confirm(refused.intentId), 402, 'paymentDeclined', 'intentId');
  const approved = await asks(await change(pro.publicId, ASKS_ON_SESSION));
  await answerBank(ctx, token, approved, true);
  expect((await expectStatus<Membership>(await confirm(approved.intentId), 200)).planId).toBe(pro.id);
  expect((await expectStatus<Membership>(await change('monthly'), 200)).nextPlanName).toBe('Monthly');

  expect((await expectStatus<Membership>(await post(ctx, token, `/memberships/${id}/cancel`), 200)).cancelsOn).toBeDefined();
  await expectError(await post(ctx, token, `/memberships/${held('free').id}/cancel`), 409, 'notCancellable', 'id');
  await expectError(await post(ctx, token, '/memberships/0372/cancel'), 400, 'invalidField', 'id');
});

test('paying a held renewal now: 202 and its confirmation 200 (409 while the bank waits, 402 refused), paid at once 200, declined 402, nothing due 409, no saved card or a bad id 400', async () => {
  const ctx = await fresh();
  const renew = async () => {
    await runRenewals({ store: ctx.store, clock: ctx.now, processor: new TestPaymentProcessor({ clock: ctx.now, store: ctx.store }) });
    return (await ctx.session(GRACE)).token;
  };
  let token = (await ctx.session(GRACE)).token;
  await expectError(await post(ctx, token, '/memberships/0372/pay'), 400, 'invalidField', 'id');
  // Monthly on the card that always asks: its sign-up authorized, its renewals refused off session.
  const signUp = await asks(await post(ctx, token, '/memberships', { planPublicId: 'monthly', paymentMethodId: await testCard(ctx, token, ALWAYS_ASKS) }));
  await answerBank(ctx, token, signUp, true);
  const { membership } = await expectStatus<ConversionDetail>(await post(ctx, token, '/memberships/confirm', { intentId: signUp.intentId }), 201);
  const pay = () => post(ctx, token, `/memberships/${membership.id}/pay`);
  const confirm = (intentId: string) => post(ctx, token, `/memberships/${membership.id}/pay/confirm`, { intentId });
  const untilDue = async () => {
    const { memberships } = await expectStatus<{ memberships: Membership[] }>(await ctx.authed(token, `${BASE}/me`), 200);
    ctx.advance(Date.parse(memberships.find((m) => m.id === membership.id)!.billingPeriodEnd!) - ctx.now() + 1);
    token = await renew();
  };
  await untilDue();

  const approved = await asks(await pay());
  await expectError(await confirm(approved.intentId), 409, 'paymentPending', 'intentId');
  await answerBank(ctx, token, approved, true);
  expect((await expectStatus<Membership>(await confirm(approved.intentId), 200)).paymentFailure).toBe(false);
  await expectError(await pay(), 409, 'notDue', 'id');

  await untilDue();
  const refused = await asks(await pay());
  await answerBank(ctx, token, refused, false);
  await expectError(await confirm(refused.intentId), 402, 'paymentDeclined', 'intentId');
  // Saved without a charge (PUT /payment-method would charge the renewal at once).
  const saveCard = async (card: typeof OK_CARD) =>
    ctx.store.savePaymentMethod({
      siteId: ctx.demo.site.id, memberId: ctx.demo.memberIds.grace!, processorId: await testCard(ctx, token, card),
      brand: 'visa', last4: card.cardNumber.slice(-4), expMonth: 12, expYear: 2034, createdAt: ctx.now(),
    });
  await saveCard(DECLINED_WHEN_CHARGED);
  await expectError(await pay(), 402, 'paymentDeclined', 'paymentMethodId');
  await saveCard(OK_CARD);
  expect((await expectStatus<Membership>(await pay(), 200)).paymentFailure).toBe(false);
});

// ------------------------------------------------------------------ requests with no operation

test('another method on every path the document lists is 405, and Allow names the methods the document gives the path', async () => {
  const ctx = await fresh();
  const { token } = await ctx.session(ADA);
  for (const [template, item] of Object.entries(doc.paths)) {
    const documented = Object.keys(item).map((m) => m.toUpperCase());
    const method = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((m) => !documented.includes(m))!;
    const res = await ctx.request(fill(template, 'demo'), { method, token });
    await expectError(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')?.split(', ').sort(), `${method} ${template}`).toEqual(documented.sort());
  }
});

test('requests no operation takes: a preflight 204 on any path under a site, a refused origin 403, no such path or site 404', async () => {
  const ctx = await fresh();
  for (const path of ['/me', '/nowhere']) {
    const preflight = await ctx.request(`${BASE}${path}`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'PATCH' } });
    expect([preflight.status, await preflight.text()]).toEqual([204, '']);
    await expectError(await ctx.request(`${BASE}${path}`, { method: 'PUT', origin: EVIL }), 403, 'originNotAllowed');
    await expectError(await ctx.request(`${MEMBER_BASE_PATH}/sites/nosuch${path}`, { method: 'PUT' }), 404, 'notFound');
  }
  await expectError(await ctx.request(`${BASE}/nowhere`), 404, 'notFound');
});

// ------------------------------------------------------------------------ the validator says no

test('the validator rejects bodies that break the schemas', async () => {
  const check = createMemberValidator();
  const ctx = await fresh();
  const { token } = await ctx.session(ADA);
  const me = await ctx.authed(token, `${BASE}/me`);
  const body = await me.json();
  const at = (path: string, status: number, value: unknown, headers = me.headers) => () => check.validate('GET', `${BASE}${path}`, { status, headers, body: value });
  expect(at('/me', 200, body)).not.toThrow();
  expect(at('/me', 200, { ...body, siteId: 1 })).toThrow(/GET \/sites\/\{subdomain\}\/me → 200[^]*must NOT have additional properties/);
  expect(at('/me', 200, { ...body, firstName: null })).toThrow(/\/firstName must be string/);
  const { email: _email, ...noEmail } = body;
  expect(at('/me', 200, noEmail)).toThrow(/must have required property 'email'/);
  const membership = { ...body.memberships[0], type: 'gold' };
  expect(at('/me', 200, { ...body, memberships: [membership] })).toThrow(/\/memberships\/0\/type must be equal to one of the allowed values/);
  const checkbox = body.customSignupFields.find((f: { type: string }) => f.type === 'checkbox');
  expect(at('/me', 200, { ...body, customSignupFields: [{ ...checkbox, value: 'yes' }] })).toThrow(/\/customSignupFields\/0\/value must be boolean/);
  expect(at('/me', 401, { errors: [{ path: 'base', code: 'notFound', message: 'x' }] })).toThrow(/code must be equal to one of the allowed values/);
  expect(at('/me', 401, { errors: [] })).toThrow(/must NOT have fewer than 1 items/);
  const plans = await (await ctx.request(`${BASE}/plans`)).json();
  expect(at('/plans', 200, [{ ...plans[0], dueNow: { subTotalCents: -1, taxCents: 0, grandTotalCents: 0 } }])).toThrow(/\/0\/dueNow\/subTotalCents must be >= 0/);
});

test('the validator rejects an undocumented status, a wrong media type, a body where none is documented and a missing header', async () => {
  const check = createMemberValidator();
  const json = { 'content-type': 'application/json' };
  const error = (code: string) => ({ errors: [{ path: 'base', code, message: 'no' }] });
  const at = (method: string, path: string, status: number, headers: Record<string, string>, body?: unknown) => () =>
    check.validate(method, `${BASE}${path}`, { status, headers: new Headers(headers), body });
  expect(at('GET', '/config', 401, json, error('unauthenticated'))).toThrow(/GET \/sites\/\{subdomain\}\/config \(getSiteConfig\) answered 401, which is not documented/);
  expect(at('GET', '/me', 502, json, error('internalError'))).toThrow(/not documented/);
  expect(at('GET', '/config', 200, { 'content-type': 'text/plain' }, 'hello')).toThrow(/content-type is "text\/plain", not application\/json/);
  expect(at('GET', '/config', 200, {}, {})).toThrow(/content-type is null/);
  expect(at('GET', '/payment-method', 204, { 'cache-control': 'no-store' }, { brand: 'visa' })).toThrow(/gives this response no content, but it has a body/);
  expect(at('GET', '/payment-method', 204, { 'cache-control': 'no-store' })).not.toThrow();
  expect(at('GET', '/payment-method', 204, {})).toThrow(/required header Cache-Control is missing/);
  expect(at('POST', '/sessions', 429, json, error('rateLimited'))).toThrow(/required header Retry-After is missing/);
  expect(at('POST', '/sessions', 429, { ...json, 'retry-after': 'soon' }, error('rateLimited'))).toThrow(/header Retry-After/);
  expect(at('PUT', '/me', 405, json, error('methodNotAllowed'))).toThrow(/required header Allow is missing/);
  expect(at('OPTIONS', '/me', 204, { 'access-control-allow-origin': 'http://demo.localhost' })).toThrow(/required header Access-Control-Allow-Methods is missing/);
  expect(at('GET', '/nowhere', 200, json, {})).toThrow(/no operation in the document/);
  expect(at('PUT', '/me', 401, json, error('unauthenticated'))).toThrow(/such requests may only answer 204, 403, 404, 405/);
  expect(at('HEAD', '/config', 200, json, {})).toThrow(/HEAD response has a body/);
  // The demo's mailbox is left out of the document: its answers are not checked.
  expect(at('GET', '/mailbox', 200, json, [{ anything: true }])).not.toThrow();
  // Read through the suites' helper: a body that says it is JSON and is not.
  const broken = new Response('{"oops', { status: 200, headers: json });
  await expect(validated(check, 'GET', `${BASE}/config`, broken)).rejects.toThrow(/the body is not JSON/);
});

// ---------------------------------------------------------------------------------- coverage

test('every documented (operation, status) pair was answered by a real request above, and held against the document', () => {
  const pairs = (keys: { operation: string; status: number }[]) => keys.map((k) => `${k.operation} ${k.status}`);
  const seen = pairs(validator.seenResponses());
  const documented = pairs(validator.documentedResponses());
  expect(documented.filter((pair) => !seen.includes(pair))).toEqual([]);
  // HEAD is recorded as itself and held against the GET operation.
  expect(seen.filter((pair) => !documented.includes(pair.replace(/^HEAD /, 'GET ')))).toEqual([]);
});
