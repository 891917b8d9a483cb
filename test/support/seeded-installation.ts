/**
 * An installation with a row in every table, for the suites that move or copy a whole database:
 * `svc seed` (the demo site, 300 members with their memberships, payments, events and views), a
 * site file applied (the newsletter), an Admin API key, and members who used the member API (a
 * session, metadata, a picture, a replaced card, mail and its links, limits, webhooks announced and attempted).
 * `withService` runs the service over any database in this process, as `svc serve` builds it.
 */
import { join } from 'node:path';
import type { Hono } from 'hono';
import { expect } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import sharp from 'sharp';
import type { MemberInfo, SessionResponse, SiteConfig, TestPaymentMethod } from '../../src/contract/member';
import { createServiceApp } from '../../src/service/app';
import { createPasswordHasher, TEST_SCRYPT } from '../../src/service/auth/passwords';
import { nodeScrypt } from '../../src/service/platform/node-scrypt';
import { openStore } from '../../src/service/store/open';
import type { Store } from '../../src/service/store/store';
import { sqliteRows, type TableRows } from './sqlite-contents';
import { runSvc } from './svc-main';

export interface Credentials { email: string; password: string }

export interface SeededInstallation {
  db: string;
  adminKey: string;
  /** A cursor the Admin API handed out, and the page it leads to. */
  cursor: string;
  pageAfterCursor: unknown;
  /** A member's session, handed out while seeding. */
  session: { token: string; memberId: number };
  /** That member's uploaded picture: its URL's path, and its bytes as served. */
  picture: { path: string; bytes: Uint8Array };
  /** A member whose password was changed after a reset link was mailed (the link's row is deleted). */
  changedPassword: Credentials;
  /** Every table's rows, the SQLite sequences among them. */
  rows: TableRows;
}

const NEWSLETTER = { subdomain: 'newsletter', origin: 'http://newsletter.localhost' };

export async function seedInstallation(db: string): Promise<SeededInstallation> {
  await expectOk(runSvc(['seed', '--members', '300', '--seed', '7', '--db', db], {}));
  await expectOk(runSvc(['sites', 'apply', join(repoRoot, 'examples/sites/newsletter.yaml'), '--db', db], {}));
  const adminKey = (await expectOk(runSvc(['keys', 'create', '--site', 'demo', '--scopes', 'read.members,read.plans', '--db', db], {}))).out[0]!;

  const reader = { email: 'reader@example.com', password: 'reader password' };
  const carded = { email: 'carded@example.com', password: 'carded password' };
  const forgetful = { email: 'forgetful@example.com', password: 'forgetful password' };
  const seeded = await withService(db, async (api) => {
    // A webhook endpoint (issue 31), there before the sign-ups: each announces `member.created`.
    const site = (await api.store.getSiteBySubdomain(NEWSLETTER.subdomain))!;
    await api.store.createWebhookEndpoint({
      siteId: site.id, url: 'https://hooks.example.com/newsletter', allowPrivate: false, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      source: 'cli', createdAt: Date.now(),
    });
    const one = await api.signUp(reader);
    await api.expect(200, 'PATCH', '/me/metadata', { newsletter: { issues: [39, 40], format: 'html' } }, one.token);
    // A picture (decision 0039): its bytes, in a table of their own.
    const png = await sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 0.6 } } }).png().toBuffer();
    const { pathname } = new URL((await api.uploadPicture(png, one.token)).profileImageUrl);
    const picture = { path: pathname, bytes: new Uint8Array(await (await api.get(pathname)).arrayBuffer()) };
    const two = await api.signUp(carded);
    // A card saved, then replaced: the first card's row is deleted.
    await api.saveCard('5555555555554444', two.token);
    await api.saveCard('4242424242424242', two.token);
    // And charged, on a plan paid at once: the test processor's charges (decision 0029).
    const newsletter = (await api.store.getSiteBySubdomain(NEWSLETTER.subdomain))!;
    const monthly = (await api.store.listPlans(newsletter.id, { statuses: ['enabled'] }, { limit: 10 })).items.find((p) => p.key === 'monthly')!;
    await api.expect(201, 'POST', '/memberships', { planPublicId: monthly.publicId }, two.token);
    // A reset link mailed last, then made void by a password change: the highest member_tokens row is deleted.
    const three = await api.signUp(forgetful);
    await api.expect(202, 'POST', '/password-reset', { email: forgetful.email });
    await api.expect(204, 'PUT', '/me/password', { password: forgetful.password, newPassword: 'remembered at last' }, three.token);
    // A processor event the site's webhook handled (decision 0033): kept, so a repeat is handled once.
    expect(await api.store.recordProcessorEvent({ siteId: newsletter.id, eventId: 'evt_seeded_1', type: 'charge.refunded', receivedAt: Date.now() })).toBe(true);
    // A payment the test processor's bank wanted authorized (3-D Secure), authorized: its intents (SQLite's version 14).
    const intent = {
      id: 'pi_test_seeded_1', clientSecret: 'pi_test_seeded_1_secret_seeded', customerId: 'cus_test_seeded', cardId: 'pm_test_3ds_seeded',
      amountCents: 1200, currency: 'usd', description: 'Monthly', metadata: { site: NEWSLETTER.subdomain }, status: 'requiresAction' as const,
      idempotencyKey: 'seeded-intent-1', createdAt: Date.now(),
    };
    await api.store.recordTestProcessorIntent(intent, intent.createdAt - 86_400_000);
    await api.store.settleTestProcessorIntent(intent.id, { status: 'succeeded', chargeId: 'ch_test_seeded_1', invoiceId: 'in_test_seeded_1' });
    // The first delivery attempted and refused, to be tried again: an attempt's row; the others wait behind it.
    const [delivery] = await api.store.claimWebhookDeliveries(Date.now(), 1, 60_000);
    expect(await api.store.finishWebhookAttempt(delivery!.id, delivery!.leaseUntil, {
      at: Date.now(), durationMs: 35, ok: false, status: 503, answer: 'busy',
    }, { next: { retryAt: Date.now() + 5_000 }, endpoint: { failingSince: Date.now() } })).toBe(true);
    // A billing run under way when the service stopped holds its lease.
    expect(await api.store.tryLease('billing-run', 'a stopped process', Date.now(), 5 * 60_000)).toBe(true);
    const first = await api.admin(adminKey, '/members', { 'x-items-after': '5' });
    const cursor = first.headers.get('x-next-cursor')!;
    expect(cursor).toBeTruthy();
    const page = await api.admin(adminKey, '/members', { 'x-items-after': '5', 'x-cursor': cursor });
    return { cursor, pageAfterCursor: await page.json(), session: { token: one.token, memberId: one.memberInfo.id }, picture };
  });
  return { db, adminKey, ...seeded, changedPassword: { ...forgetful, password: 'remembered at last' }, rows: sqliteRows(db) };
}

export async function expectOk<T extends { code: number; err: string }>(run: Promise<T>): Promise<T> {
  const result = await run;
  expect(result.code, result.err).toBe(0);
  return result;
}

export interface ServiceCalls {
  store: Store;
  /** A member API request to the newsletter site; fails the test unless the status is `status`. */
  expect(status: number, method: string, path: string, json?: unknown, token?: string): Promise<Response>;
  signUp(who: Credentials): Promise<SessionResponse>;
  /**
   * Saves a card (expiring 12/34) as the widget does: to the test processor's card field (POST
   * /test-payment-methods), then PUT /payment-method with the payment method it answers. Fails the
   * test unless both succeed.
   */
  saveCard(cardNumber: string, token: string): Promise<void>;
  admin(key: string, path: string, headers?: Record<string, string>): Promise<Response>;
  /** PUT /me/picture with the PNG's bytes; fails the test unless it is taken. */
  uploadPicture(png: Uint8Array, token: string): Promise<MemberInfo>;
  /** A GET of any path of the service (a picture's), as it answers. */
  get(path: string): Promise<Response>;
}

/** The service over the database, in this process (createServiceApp over openStore), as `svc serve` builds it. */
export async function withService<T>(database: string, use: (calls: ServiceCalls) => Promise<T>): Promise<T> {
  const store = await openStore(database, { maxConnections: 2 });
  try {
    const app: Hono = await createServiceApp({ store, passwords: createPasswordHasher(nodeScrypt, TEST_SCRYPT), signupRateLimit: 'off' });
    const request = async (status: number, method: string, path: string, json?: unknown, token?: string) => {
      const response = await app.request(`http://svc.test/member/v1/sites/${NEWSLETTER.subdomain}${path}`, {
        method,
        headers: {
          origin: NEWSLETTER.origin,
          ...(json !== undefined && { 'content-type': 'application/json' }),
          ...(token !== undefined && { authorization: `Bearer ${token}` }),
        },
        ...(json !== undefined && { body: JSON.stringify(json) }),
      });
      if (response.status !== status) expect.fail(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response;
    };
    let fields: SiteConfig['signupFields'] | undefined;
    const calls: ServiceCalls = {
      store,
      expect: request,
      async signUp(who) {
        fields ??= ((await (await request(200, 'GET', '/config')).json()) as SiteConfig).signupFields;
        const customFields = Object.fromEntries(
          fields.filter((f) => f.required).map((f) => [f.id, f.type === 'checkbox' ? true : f.options![0]!.value]),
        );
        return (await request(201, 'POST', '/members', { ...who, customFields })).json() as Promise<SessionResponse>;
      },
      async saveCard(cardNumber, token) {
        const made = await request(201, 'POST', '/test-payment-methods', { cardNumber, cardExpiry: '12/34', cardCvc: '123' }, token);
        const { id } = (await made.json()) as TestPaymentMethod;
        await request(200, 'PUT', '/payment-method', { paymentMethodId: id }, token);
      },
      admin: (key, path, headers = {}) =>
        Promise.resolve(app.request(`http://svc.test/admin/v1${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } })),
      async uploadPicture(png, token) {
        const response = await app.request(`http://svc.test/member/v1/sites/${NEWSLETTER.subdomain}/me/picture`, {
          method: 'PUT',
          headers: { origin: NEWSLETTER.origin, 'content-type': 'image/png', authorization: `Bearer ${token}` },
          body: png as Uint8Array<ArrayBuffer>,
        });
        if (response.status !== 200) expect.fail(`PUT /me/picture: ${response.status} ${await response.text()}`);
        return (await response.json()) as MemberInfo;
      },
      get: async (path) => app.request(`http://svc.test${path}`),
    };
    return await use(calls);
  } finally {
    await store.close();
  }
}
