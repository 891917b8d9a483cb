/**
 * Applying a site file (src/service/site-file/apply.ts, changes.ts) on every store, checked from
 * the outside: what the Admin API and the member API answer afterwards, what a second apply
 * does (nothing), what leaves the file (archived, or deleted when nobody held it), what members
 * keep (memberships, answers, views, the price they joined at) and what the rules refuse.
 */
import type { Hono } from 'hono';
import { afterEach, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { SCOPES, type ContentView, type Membership, type Plan, type Site } from '../../src/contract/admin';
import type { ConversionDetail, ContentItem, InvoiceSummary, MemberInfo, MembershipPrice, SessionResponse, SiteConfig, TestPaymentMethod } from '../../src/contract/member';
import { createServiceApp } from '../../src/service/app';
import { issueApiKey } from '../../src/service/auth/api-keys';
import { createPasswordHasher, TEST_SCRYPT } from '../../src/service/auth/passwords';
import { runRenewals } from '../../src/service/billing/renewals';
import { TestPaymentProcessor } from '../../src/service/payments/test-processor';
import { nodeScrypt } from '../../src/service/platform/node-scrypt';
import { ensureDemoSite, seedMembers } from '../../src/service/seed/demo';
import { applySiteFile, type ApplyOutcome } from '../../src/service/site-file/apply';
import { RefusedChangeError } from '../../src/service/site-file/changes';
import { formatSiteFile, siteFileOf } from '../../src/service/site-file/export';
import { readSiteFile } from '../../src/service/site-file/read';
import type { Store } from '../../src/service/store/store';
import { adminRequest } from '../support/admin-request';
import { DAY, fixtureClock, HOUR, STORES, type FixtureClock, type StoreFactory } from '../support/admin-fixture';

const NOW = Date.UTC(2026, 2, 2, 12);
const BASE = '/member/v1/sites/studio';
const GOOD_CARD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };

/**
 * A realistic site: four plans of every type (a subscription with a trial, a multi-payment plan
 * with a sign-up fee, a one-time plan in another currency, disabled and not public), three
 * sign-up fields (a required select with options), a library of two spaces with items of every
 * type. Some values are written the way the store does not keep them (upper-case currency, an
 * address to normalize, HTML to cut), so a second apply finds them the same only if the
 * comparison reads them as stored.
 */
const STUDIO = `# yaml-language-server: $schema=../../schemas/site.json
site:
  subdomain: studio
  name: Pottery Studio
  domain: studio.example.com
  currency: EUR
  locale: de
  memberMenu: true
  afterRegistration: https://studio.example.com/welcome
  checkboxLabels: { yes: Jawohl, no: Nö }

plans:
  - key: open-studio
    name: Open studio
    type: free
    description: "<p>Drop in <strong>any</strong> time.</p><script>alert(1)</script>"
    welcomeUrl: /welcome
    contentUrl: /library
  - key: monthly
    name: Monthly
    type: subscription
    description: <p>Everything, every month.</p>
    billing: { price: 10, interval: { count: 1, unit: month }, trialPeriodDays: 7 }
    welcomeUrl: https://studio.example.com/welcome-monthly
    contentUrl: /library
  - key: course
    name: Wheel course
    type: multiPayment
    expiration: { mode: interval, count: 1, unit: year }
    billing: { price: 30, interval: { count: 1, unit: month }, paymentCountRequired: 3, signupFee: 5 }
  - key: kiln-pass
    name: Kiln pass
    type: oneTimePayment
    status: disabled
    isPublic: false
    expiration: { mode: specificTime, expiresAt: "2027-06-30T18:00:00Z" }
    billing: { price: 49.5, currency: USD, taxPercentage: 19, taxDescription: "<p onclick=\\"x()\\">incl. 19% MwSt</p>" }

signupFields:
  - key: experience
    label: How much have you thrown?
    type: select
    required: true
    options:
      - { label: Never, value: never }
      - { label: A little, value: little }
      - { label: For years, value: years }
  - { key: about, label: Tell us about your work, type: textarea }
  - { key: rules, label: I accept the studio rules, type: checkbox, required: true }

library:
  - space: Basics
    plans: [open-studio, monthly]
    items:
      - key: welcome
        name: Welcome
        type: article
        body: <h3>Welcome</h3><p>Read this <em>first</em>.</p><iframe src="https://evil.example"></iframe>
      - { key: centering, name: Centering clay, type: video, url: "https://CDN.example.com/centering.mp4" }
  - space: Advanced
    plans: [monthly, course, kiln-pass]
    items:
      - { key: glazes, name: Glaze chemistry, type: audio, url: /media/glazes.mp3 }
      - { key: firing-log, name: Firing log, type: file, url: /files/firing-log.pdf }
      - { key: suppliers, name: Suppliers, type: link, url: "https://clay.example.org/suppliers" }
`;

type Doc = Record<string, any>;
/** The fixture with a change made to its parsed form, written back as YAML. */
function variant(change: (doc: Doc) => void, text = STUDIO): string {
  const doc = parse(text) as Doc;
  change(doc);
  return stringify(doc);
}
const planEntry = (doc: Doc, key: string) => (doc.plans as Doc[]).find((p) => p.key === key)!;
const withoutPlan = (doc: Doc, key: string) => {
  doc.plans = (doc.plans as Doc[]).filter((p) => p.key !== key);
  for (const space of doc.library as Doc[]) space.plans = (space.plans as string[]).filter((k) => k !== key);
};

interface World {
  store: Store;
  clock: FixtureClock;
  app: Hono;
  apply(text: string, options?: { dryRun?: boolean }): Promise<ApplyOutcome>;
  /** An Admin API key with every scope for the studio site (made on first use, after the site exists). */
  adminKey(): Promise<string>;
  admin<T = any>(path: string): Promise<T>;
  member<T = any>(path: string, init?: { method?: string; json?: unknown; token?: string }): Promise<{ status: number; body: T }>;
  signUp(email: string, customFields?: Record<string, unknown>): Promise<SessionResponse>;
  /** A new session (the clock moves past a session's life in some tests). */
  signIn(email: string): Promise<string>;
  /** A sign-up as the widget makes it: the card, when given, to the test processor's card field first, and the payment method's id sent. */
  join(token: string, planKey: string, card?: typeof GOOD_CARD): Promise<ConversionDetail>;
  siteId(): Promise<number>;
  definition(): Promise<NonNullable<Awaited<ReturnType<Store['getSiteDefinition']>>>>;
  fieldIds(): Promise<Record<string, number>>;
  itemIds(): Promise<Record<string, number>>;
  planOf(key: string): Promise<Plan>;
}

describe.each(STORES)('%s store', (_name: string, newStore: StoreFactory) => {
  const open: Store[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  async function world(): Promise<World> {
    const store = await newStore();
    open.push(store);
    const clock = fixtureClock(NOW);
    const app = await createServiceApp({ store, clock, passwords: createPasswordHasher(nodeScrypt, TEST_SCRYPT), signupRateLimit: 'off' });
    let key: string | undefined;
    const siteId = async () => (await store.getSiteBySubdomain('studio'))!.id;
    const w: World = {
      store,
      clock,
      app,
      apply: (text, options) => applySiteFile(store, clock, readSiteFile(text, 'yaml', 'studio.yaml').file, options),
      async adminKey() {
        key ??= (await issueApiKey(store, clock, { siteId: await siteId(), scopes: [...SCOPES] })).key;
        return key;
      },
      async admin(path) {
        const res = await adminRequest(app, `/admin/v1${path}`, { key: await w.adminKey() });
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
        return res.body;
      },
      async member(path, init = {}) {
        const headers: Record<string, string> = {};
        if (init.token) headers.authorization = `Bearer ${init.token}`;
        if (init.json !== undefined) headers['content-type'] = 'application/json';
        const res = await app.request(`http://svc.test${BASE}${path}`, {
          method: init.method ?? 'GET',
          headers,
          ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      },
      async signUp(email, customFields) {
        const ids = await w.fieldIds();
        const fields = customFields ?? { [ids.experience!]: 'little', [ids.rules!]: true };
        const res = await w.member<SessionResponse>('/members', { method: 'POST', json: { email, password: 'a good password', firstName: 'Test', customFields: fields } });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body;
      },
      async signIn(email) {
        const res = await w.member<SessionResponse>('/sessions', { method: 'POST', json: { email, password: 'a good password' } });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.token;
      },
      async join(token, planKey, card) {
        const plan = (await w.definition()).plans.find((p) => p.key === planKey)!;
        let paymentMethodId: string | undefined;
        if (card) {
          const made = await w.member<TestPaymentMethod>('/test-payment-methods', { method: 'POST', token, json: card });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          paymentMethodId = made.body.id;
        }
        const res = await w.member<ConversionDetail>('/memberships', { method: 'POST', token, json: { planPublicId: plan.publicId, paymentMethodId } });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body;
      },
      siteId,
      async definition() {
        return (await store.getSiteDefinition(await siteId()))!;
      },
      async fieldIds() {
        return Object.fromEntries((await w.definition()).signupFields.map((f) => [f.key, f.id]));
      },
      async itemIds() {
        return Object.fromEntries((await w.definition()).items.map((i) => [i.key, i.id]));
      },
      async planOf(planKey) {
        const plan = (await w.definition()).plans.find((p) => p.key === planKey)!;
        return w.admin<Plan>(`/plans/${plan.id}`);
      },
    };
    return w;
  }

  test('a new site: the Admin API and the member API show exactly what the file says', async () => {
    const w = await world();
    const outcome = await w.apply(STUDIO);
    expect(outcome).toMatchObject({ created: true, written: true, siteId: expect.any(Number) });
    expect(outcome.lines.every((l) => l.op === '+')).toBe(true);
    // The site, its four plans, three fields, two spaces and five items: one line each.
    expect(outcome.lines).toHaveLength(1 + 4 + 3 + 2 + 5);
    expect(outcome.lines[0]!.text).toMatch(/^site studio\b/);

    const [site] = await w.admin<Site[]>('/sites');
    expect(site).toMatchObject({ id: outcome.siteId, name: 'Pottery Studio', subdomain: 'studio', domain: 'studio.example.com', defaultCurrency: 'eur', locale: 'de' });

    // Every status: /plans lists live ones (enabled, disabled); archived and deleted are read by id.
    const listed = await w.admin<Plan[]>('/plans');
    expect(listed.map((p) => p.name)).toEqual(['Open studio', 'Monthly', 'Wheel course', 'Kiln pass']);
    expect((await w.admin<Plan[]>('/plans?status=disabled')).map((p) => p.name)).toEqual(['Kiln pass']);
    expect(await w.admin<Plan[]>('/plans?status=deleted')).toEqual([]);
    const byName = Object.fromEntries(listed.map((p) => [p.name, p]));
    expect(byName['Open studio']).toStrictEqual({
      id: expect.any(Number), publicId: expect.any(String), name: 'Open studio', type: 'free', status: 'enabled', isPublic: true,
      description: '<p>Drop in <strong>any</strong> time.</p>', expiration: { mode: 'none' }, activeMemberCount: 0,
      colorCode: expect.stringMatching(/^#[0-9a-f]{6}$/), welcomeUrl: '/welcome', contentUrl: '/library', createdAt: new Date(NOW).toISOString(),
    });
    expect(byName.Monthly).toMatchObject({
      type: 'subscription', status: 'enabled', isPublic: true, description: '<p>Everything, every month.</p>',
      welcomeUrl: 'https://studio.example.com/welcome-monthly', contentUrl: '/library',
    });
    expect(byName.Monthly!).not.toHaveProperty('expiration');
    expect((byName.Monthly as Extract<Plan, { type: 'subscription' }>).billing).toStrictEqual({
      price: 10, currency: 'eur', interval: { count: 1, unit: 'month' }, trialPeriodDays: 7,
    });
    expect(byName['Wheel course']).toMatchObject({ type: 'multiPayment', status: 'enabled', isPublic: true, expiration: { mode: 'interval', count: 1, unit: 'year' } });
    expect((byName['Wheel course'] as Extract<Plan, { type: 'multiPayment' }>).billing).toStrictEqual({
      price: 30, currency: 'eur', interval: { count: 1, unit: 'month' }, paymentCountRequired: 3, signupFee: 5,
    });
    expect(byName['Wheel course']).not.toHaveProperty('welcomeUrl');
    expect(byName['Kiln pass']).toMatchObject({
      type: 'oneTimePayment', status: 'disabled', isPublic: false, expiration: { mode: 'specificTime', expiresAt: '2027-06-30T18:00:00.000Z' },
    });
    expect((byName['Kiln pass'] as Extract<Plan, { type: 'oneTimePayment' }>).billing).toStrictEqual({
      price: 49.5, currency: 'usd', taxPercentage: 19, taxDescription: '<p>incl. 19% MwSt</p>',
    });
    // Colours and public ids differ from plan to plan.
    expect(new Set(listed.map((p) => p.publicId)).size).toBe(4);
    expect(new Set(listed.map((p) => p.colorCode)).size).toBe(4);

    const config = await w.member<SiteConfig>('/config');
    expect(config.status).toBe(200);
    const ids = await w.fieldIds();
    expect(config.body).toStrictEqual({
      subdomain: 'studio', name: 'Pottery Studio', domain: 'studio.example.com', currency: 'eur', locale: 'de',
      checkboxLabels: { yes: 'Jawohl', no: 'Nö' },
      signupFields: [
        {
          id: ids.experience, type: 'select', label: 'How much have you thrown?', required: true,
          options: [{ label: 'Never', value: 'never' }, { label: 'A little', value: 'little' }, { label: 'For years', value: 'years' }],
        },
        { id: ids.about, type: 'textarea', label: 'Tell us about your work', required: false },
        { id: ids.rules, type: 'checkbox', label: 'I accept the studio rules', required: true },
      ],
      memberMenu: true,
      afterRegistration: { action: 'redirect', url: 'https://studio.example.com/welcome' },
    });

    // The library: items in their spaces, opened by the file's plans, articles cut to the allowed HTML.
    const def = await w.definition();
    const spaceName = new Map(def.spaces.map((s) => [s.id, s.name]));
    const planKey = new Map(def.plans.map((p) => [p.id, p.key]));
    expect(def.spaces.map((s) => [s.name, s.planIds.map((id) => planKey.get(id)).sort()])).toEqual([
      ['Basics', ['monthly', 'open-studio']],
      ['Advanced', ['course', 'kiln-pass', 'monthly']],
    ]);
    expect(def.items.map((i) => ({ key: i.key, name: i.name, type: i.type, space: spaceName.get(i.spaceId), url: i.url, body: i.body }))).toEqual([
      { key: 'welcome', name: 'Welcome', type: 'article', space: 'Basics', url: undefined, body: '<h3>Welcome</h3><p>Read this <em>first</em>.</p>' },
      { key: 'centering', name: 'Centering clay', type: 'video', space: 'Basics', url: 'https://cdn.example.com/centering.mp4', body: undefined },
      { key: 'glazes', name: 'Glaze chemistry', type: 'audio', space: 'Advanced', url: '/media/glazes.mp3', body: undefined },
      { key: 'firing-log', name: 'Firing log', type: 'file', space: 'Advanced', url: '/files/firing-log.pdf', body: undefined },
      { key: 'suppliers', name: 'Suppliers', type: 'link', space: 'Advanced', url: 'https://clay.example.org/suppliers', body: undefined },
    ]);
    // A member on the free plan opens the Basics article as the member API hands it out.
    const { token } = await w.signUp('ann@example.com');
    await w.join(token, 'open-studio');
    const items = await w.itemIds();
    const article = await w.member<ContentItem>(`/content/${items.welcome}`, { token });
    expect(article.status).toBe(200);
    expect(article.body).toMatchObject({ name: 'Welcome', type: 'article', space: { name: 'Basics' }, body: '<h3>Welcome</h3><p>Read this <em>first</em>.</p>' });
    expect((await w.member(`/content/${items.glazes}`, { token })).status).toBe(403);
  });

  test('checkbox labels default by locale when the file names none', async () => {
    const w = await world();
    await w.apply(variant((doc) => delete doc.site.checkboxLabels));
    expect((await w.member<SiteConfig>('/config')).body.checkboxLabels).toEqual({ yes: 'Ja', no: 'Nein' });
    await w.apply(variant((doc) => {
      delete doc.site.checkboxLabels;
      doc.site.locale = 'en';
    }));
    expect((await w.member<SiteConfig>('/config')).body.checkboxLabels).toEqual({ yes: 'Yes', no: 'No' });
  });

  test('the same file applied twice: the second apply has no lines, writes nothing, and leaves the definition (revision too) as it was', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const before = await w.definition();
    w.clock.advance(HOUR);
    const again = await w.apply(STUDIO);
    expect(again).toEqual({ siteId: before.site.id, created: false, lines: [], written: false });
    expect(await w.definition()).toStrictEqual(before);
  });

  test('a dry run says what it would do and writes nothing, for a new site and for a change', async () => {
    const w = await world();
    const dry = await w.apply(STUDIO, { dryRun: true });
    expect(dry.written).toBe(false);
    expect(dry.lines.length).toBe(15);
    expect(await w.store.getSiteBySubdomain('studio')).toBeUndefined();
    expect(await w.store.listSites()).toEqual([]);

    await w.apply(STUDIO);
    const before = await w.definition();
    const renamed = variant((doc) => {
      doc.site.name = 'Clay Studio';
      planEntry(doc, 'monthly').billing.price = 12;
      doc.signupFields.pop();
      doc.library[0].items.pop();
    });
    const change = await w.apply(renamed, { dryRun: true });
    expect(change.written).toBe(false);
    expect(change.lines.map((l) => l.op).sort()).toEqual(['-', '-', '~', '~']);
    expect(await w.definition()).toStrictEqual(before);
    // The same file for real makes the changes the dry run named.
    expect((await w.apply(renamed)).lines).toEqual(change.lines);
  });

  test('export, read back and apply: no changes (the studio file)', async () => {
    const w = await world();
    await w.apply(STUDIO);
    // A member, answers, a membership: export is of the definition, whatever members did.
    const { token } = await w.signUp('ann@example.com');
    await w.join(token, 'open-studio');
    const before = await w.definition();
    for (const format of ['yaml', 'json'] as const) {
      const text = formatSiteFile(siteFileOf(before), format, 'https://svc.example/schemas/site.json');
      const outcome = await applySiteFile(w.store, w.clock, readSiteFile(text, format, `studio.${format}`).file);
      expect(outcome.lines, format).toEqual([]);
    }
    expect(await w.definition()).toStrictEqual(before);
  });

  test('export, read back and apply: no changes, after a plan in the middle of the file left it (deleted) and one was archived', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const { token } = await w.signUp('ann@example.com');
    await w.join(token, 'open-studio');
    await w.apply(variant((doc) => {
      withoutPlan(doc, 'open-studio');
      withoutPlan(doc, 'course');
    }));
    const before = await w.definition();
    const text = formatSiteFile(siteFileOf(before), 'yaml', 'https://svc.example/schemas/site.json');
    const outcome = await applySiteFile(w.store, w.clock, readSiteFile(text, 'yaml', 'studio.yaml').file);
    expect(outcome.lines).toEqual([]);
    expect(await w.definition()).toStrictEqual(before);
  });

  test('export, read back and apply: no changes (the demo site after members were seeded, and with plans archived and items removed since)', async () => {
    const w = await world();
    const { site } = await ensureDemoSite(w.store, w.clock);
    await seedMembers(w.store, w.clock, site, { members: 150, seed: 4 });
    const roundTrip = async () => {
      const def = (await w.store.getSiteDefinition(site.id))!;
      const text = formatSiteFile(siteFileOf(def), 'yaml', 'https://svc.example/schemas/site.json');
      const outcome = await applySiteFile(w.store, w.clock, readSiteFile(text, 'yaml', 'demo.yaml').file);
      expect(outcome.lines).toEqual([]);
      expect(await w.store.getSiteDefinition(site.id)).toStrictEqual(def);
    };
    await roundTrip();

    // Change the demo through its file (a plan with members and one without leave, a field, an item, a space), then again.
    const demo = parse(formatSiteFile(siteFileOf((await w.store.getSiteDefinition(site.id))!), 'yaml', 'x')) as Doc;
    const drop = (key: string) => {
      demo.plans = (demo.plans as Doc[]).filter((p) => p.key !== key);
      for (const space of demo.library as Doc[]) space.plans = (space.plans as string[]).filter((k) => k !== key);
    };
    drop('yearly');
    drop('team');
    demo.signupFields = (demo.signupFields as Doc[]).filter((f) => f.key !== 'goals');
    demo.library = (demo.library as Doc[]).filter((s) => s.space !== 'Podcast');
    demo.library[0].items = (demo.library[0].items as Doc[]).filter((i) => i.key !== 'tour');
    const changed = await applySiteFile(w.store, w.clock, readSiteFile(stringify(demo), 'yaml', 'demo.yaml').file);
    expect(changed.lines.length).toBeGreaterThan(0);
    await roundTrip();
  });

  test('a plan that leaves the file: archived when it has memberships (which stay as they were), deleted when nobody held it', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const { token, memberInfo } = await w.signUp('ann@example.com');
    const joined = await w.join(token, 'open-studio');
    const freeId = joined.membership.planId;
    const kilnId = (await w.definition()).plans.find((p) => p.key === 'kiln-pass')!.id;
    const membershipsBefore = await w.admin(`/memberships?planId=${freeId}`);
    expect(membershipsBefore).toEqual([expect.objectContaining({ memberId: memberInfo.id, planId: freeId, status: 'active' })]);

    const outcome = await w.apply(variant((doc) => {
      withoutPlan(doc, 'open-studio');
      withoutPlan(doc, 'kiln-pass');
    }));
    expect(outcome.lines.filter((l) => l.op === '-').map((l) => l.text)).toEqual([
      expect.stringMatching(/^plan open-studio: archived/),
      expect.stringMatching(/^plan kiln-pass: deleted/),
    ]);
    expect(await w.admin<Plan>(`/plans/${freeId}`)).toMatchObject({ name: 'Open studio', status: 'archived', activeMemberCount: 1 });
    expect(await w.admin<Plan>(`/plans/${kilnId}`)).toMatchObject({ name: 'Kiln pass', status: 'deleted' });
    expect((await w.admin<Plan[]>('/plans')).map((p) => p.name)).toEqual(['Monthly', 'Wheel course']);
    expect((await w.admin<Plan[]>('/plans?status=deleted')).map((p) => p.name)).toEqual(['Kiln pass']);
    // The membership is intact and still active, for the Admin API and for the member.
    expect(await w.admin(`/memberships?planId=${freeId}`)).toEqual(membershipsBefore);
    const me = await w.member<MemberInfo>('/me', { token });
    expect(me.body.memberships).toEqual([expect.objectContaining({ planId: freeId, status: 'active', name: 'Open studio' })]);
    // Applied again: nothing more to do.
    expect((await w.apply(variant((doc) => {
      withoutPlan(doc, 'open-studio');
      withoutPlan(doc, 'kiln-pass');
    }))).lines).toEqual([]);
    // Named again: the same plan (same id and public id), live again.
    const back = await w.apply(STUDIO);
    expect(back.lines.map((l) => l.text)).toEqual(expect.arrayContaining([expect.stringMatching(/^plan open-studio: .*status "archived" → "enabled"/)]));
    expect(await w.admin<Plan>(`/plans/${freeId}`)).toMatchObject({ status: 'enabled', publicId: joined.membership.publicPlanId });
    expect(await w.admin<Plan>(`/plans/${kilnId}`)).toMatchObject({ status: 'disabled' });
  });

  test('a sign-up field that leaves the file is archived: gone from /config and the form, members’ answers kept and back when the field returns', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const ids = await w.fieldIds();
    const { token, memberInfo } = await w.signUp('ann@example.com', { [ids.experience!]: 'years', [ids.about!]: 'Stoneware, mostly.', [ids.rules!]: true });
    const values = await w.store.listSignupValues(await w.siteId(), memberInfo.id);

    const outcome = await w.apply(variant((doc) => {
      doc.signupFields = (doc.signupFields as Doc[]).filter((f) => f.key !== 'about');
    }));
    // The fields after it move up the form (their position is their place in the file).
    expect(outcome.lines.filter((l) => l.op !== '~')).toEqual([{ op: '-', text: expect.stringMatching(/^sign-up field about: archived/) }]);
    expect(outcome.lines.filter((l) => l.op === '~').map((l) => l.text)).toEqual(['sign-up field rules: position 2 → 1']);
    const config = (await w.member<SiteConfig>('/config')).body;
    expect(config.signupFields.map((f) => f.id)).toEqual([ids.experience, ids.rules]);
    // A sign-up naming the archived field is refused; without it, it succeeds.
    const refused = await w.member('/members', {
      method: 'POST',
      json: { email: 'bob@example.com', password: 'a good password', customFields: { [ids.experience!]: 'never', [ids.about!]: 'x', [ids.rules!]: true } },
    });
    expect(refused.status).toBe(400);
    await w.signUp('bob@example.com');
    // Ann's answer is kept in the store while the field is archived.
    expect(await w.store.listSignupValues(await w.siteId(), memberInfo.id)).toEqual(values);
    expect((await w.member<MemberInfo>('/me', { token })).body.customSignupFields.map((f) => f.id)).toEqual([ids.experience, ids.rules]);

    const back = await w.apply(STUDIO);
    expect(back.lines.filter((l) => l.op !== '~')).toEqual([{ op: '+', text: expect.stringMatching(/^sign-up field about: restored/) }]);
    expect((await w.fieldIds()).about).toBe(ids.about);
    expect((await w.member<SiteConfig>('/config')).body.signupFields.map((f) => f.id)).toEqual([ids.experience, ids.about, ids.rules]);
    const me = (await w.member<MemberInfo>('/me', { token })).body;
    expect(me.customSignupFields.find((f) => f.id === ids.about)).toMatchObject({ type: 'textarea', value: 'Stoneware, mostly.' });
  });

  test('an item that leaves the file is archived: the member API answers 404, its views stay in the Admin API', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const { token, memberInfo } = await w.signUp('ann@example.com');
    await w.join(token, 'monthly', GOOD_CARD);
    const items = await w.itemIds();
    expect((await w.member(`/content/${items.glazes}`, { token })).status).toBe(200);
    const views = await w.admin<ContentView[]>(`/contentLibrary/views?nodeId=${items.glazes}`);
    expect(views).toEqual([expect.objectContaining({ memberId: memberInfo.id, node: { id: items.glazes, name: 'Glaze chemistry', type: 'audio' }, spaceNode: expect.objectContaining({ name: 'Advanced' }) })]);

    const without = variant((doc) => {
      doc.library[1].items = (doc.library[1].items as Doc[]).filter((i) => i.key !== 'glazes');
    });
    expect((await w.apply(without)).lines).toEqual([{ op: '-', text: expect.stringMatching(/^item glazes: archived/) }]);
    const gone = await w.member(`/content/${items.glazes}`, { token });
    expect(gone.status).toBe(404);
    expect((await w.member(`/content/${items.glazes}/plans`)).status).toBe(404);
    expect(await w.admin(`/contentLibrary/views?nodeId=${items.glazes}`)).toEqual(views);
    expect((await w.member(`/content/${items['firing-log']}`, { token })).status).toBe(200);
    expect((await w.apply(without)).lines).toEqual([]);

    // Back in the file: the same item, open again.
    expect((await w.apply(STUDIO)).lines).toEqual([{ op: '+', text: expect.stringMatching(/^item glazes: restored/) }]);
    expect((await w.itemIds()).glazes).toBe(items.glazes);
    expect((await w.member(`/content/${items.glazes}`, { token })).status).toBe(200);
  });

  test('a renamed space: its items keep their ids and move to it, and stay open to the space’s plans', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const { token } = await w.signUp('ann@example.com');
    await w.join(token, 'monthly', GOOD_CARD);
    const items = await w.itemIds();
    const outcome = await w.apply(variant((doc) => {
      doc.library[1].space = 'Masterclass';
    }));
    expect(outcome.lines).toEqual(expect.arrayContaining([
      { op: '+', text: expect.stringMatching(/^space "Masterclass"/) },
      { op: '-', text: expect.stringMatching(/^space "Advanced": archived/) },
    ]));
    expect(await w.itemIds()).toEqual(items);
    for (const key of ['glazes', 'firing-log', 'suppliers']) {
      const res = await w.member<ContentItem>(`/content/${items[key]}`, { token });
      expect(res.status, key).toBe(200);
      expect(res.body.id).toBe(items[key]);
      expect(res.body.space.name).toBe('Masterclass');
    }
    const def = await w.definition();
    const live = def.spaces.filter((s) => s.archivedAt === undefined).map((s) => s.name);
    expect(live).toEqual(['Basics', 'Masterclass']);
    expect(def.items.every((i) => i.archivedAt === undefined)).toBe(true);
    // And back under its old name: the old space (restored) takes the items again; the ids stay.
    await w.apply(STUDIO);
    expect(await w.itemIds()).toEqual(items);
    expect((await w.member<ContentItem>(`/content/${items.glazes}`, { token })).body.space.name).toBe('Advanced');
    expect((await w.apply(STUDIO)).lines).toEqual([]);
  });

  test('a price change reaches new sign-ups only: the member who joined before renews at the old price, one who joins after pays the new', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const renew = () => runRenewals({ store: w.store, clock: w.clock, processor: new TestPaymentProcessor({ clock: w.clock, store: w.store }) });
    const invoices = async (email: string) => {
      const res = await w.member<InvoiceSummary[]>('/invoices', { token: await w.signIn(email) });
      expect(res.status).toBe(200);
      return res.body;
    };

    const ann = await w.signUp('ann@example.com');
    const annJoined = await w.join(ann.token, 'monthly', GOOD_CARD);
    expect(annJoined.order.grandTotalCents).toBe(0); // the trial
    w.clock.advance(DAY);

    const raised = variant((doc) => {
      planEntry(doc, 'monthly').billing.price = 15;
    });
    const outcome = await w.apply(raised);
    expect(outcome.lines).toEqual([{ op: '~', text: expect.stringMatching(/^plan monthly: billing\.price 10 → 15 \(new sign-ups only: 1 membership keeps its/) }]);
    expect(((await w.planOf('monthly')) as Extract<Plan, { type: 'subscription' }>).billing).toMatchObject({ price: 15 });
    // Ann's membership keeps the billing she joined under.
    const siteId = await w.siteId();
    const [annRecord] = await w.store.listMembershipsOfMember(siteId, ann.memberInfo.id);
    expect(annRecord!.billing).toStrictEqual({ price: 10, currency: 'eur', interval: { count: 1, unit: 'month' }, trialPeriodDays: 7 });
    // The Admin API says so (what the console's MRR counts her at), and only of her membership.
    const ofMember = async (memberId: number) => (await w.admin<Membership[]>(`/memberships?memberId=${memberId}`))[0]!;
    expect((await ofMember(ann.memberInfo.id)).joinedBilling).toStrictEqual({ price: 10, currency: 'eur', interval: { count: 1, unit: 'month' }, trialPeriodDays: 7 });
    // And the member API says so (GET /memberships, what the widget shows her): her price, in her trial.
    const annPrices = async () => (await w.member<MembershipPrice[]>('/memberships', { token: await w.signIn('ann@example.com') })).body;
    expect(await annPrices()).toStrictEqual([{
      id: annRecord!.id, currency: 'eur',
      recurring: { amountCents: 1000, subTotalCents: 1000, taxCents: 0, interval: { count: 1, unit: 'month' } },
      trialEndsAt: annJoined.membership.billingPeriodEnd,
    }]);

    // Ann's trial ends: its first payment (no renewal: the trial renews nothing) is at the old price.
    w.clock.set(Date.parse(annJoined.membership.billingPeriodEnd!) + 1);
    expect(await renew()).toMatchObject({ charged: 1, failed: 0, errors: 0 });
    // Out of her trial, at the old price still.
    expect(await annPrices()).toStrictEqual([{ id: annRecord!.id, currency: 'eur', recurring: { amountCents: 1000, subTotalCents: 1000, taxCents: 0, interval: { count: 1, unit: 'month' } } }]);
    expect((await invoices('ann@example.com')).map((i) => [i.description, i.totalCents, i.currency])).toEqual([['Monthly: first payment', 1000, 'eur']]);

    // Bob joins after the change: his offer and his renewal are at the new price.
    const offer = await w.member(`/plans/${annJoined.membership.publicPlanId}`);
    expect(JSON.stringify(offer.body)).toContain('15');
    const bob = await w.signUp('bob@example.com');
    const bobJoined = await w.join(bob.token, 'monthly', GOOD_CARD);
    w.clock.set(Date.parse(bobJoined.membership.billingPeriodEnd!) + 1);
    expect(await renew()).toMatchObject({ charged: 1, failed: 0, errors: 0 });
    expect((await invoices('bob@example.com')).map((i) => [i.description, i.totalCents])).toEqual([['Monthly: first payment', 1500]]);
    expect((await w.member<MembershipPrice[]>('/memberships', { token: await w.signIn('bob@example.com') })).body.map((p) => p.recurring.amountCents)).toEqual([1500]);
    expect(await ofMember(bob.memberInfo.id)).not.toHaveProperty('joinedBilling');
    // Ann was charged once, at the old price, and her next period is still at it.
    expect((await invoices('ann@example.com')).map((i) => i.totalCents)).toEqual([1000]);
    // The same file again: nothing to change, and Ann's terms are untouched.
    expect((await w.apply(raised)).lines).toEqual([]);
    expect((await w.store.listMembershipsOfMember(siteId, ann.memberInfo.id))[0]!.billing).toMatchObject({ price: 10 });
  });

  test('a price change on a one-time plan with members: the membership keeps the old billing; a change back leaves it too', async () => {
    const w = await world();
    await w.apply(variant((doc) => {
      planEntry(doc, 'kiln-pass').status = 'enabled';
    }));
    const ann = await w.signUp('ann@example.com');
    const joined = await w.join(ann.token, 'kiln-pass', GOOD_CARD);
    expect(joined.order).toMatchObject({ subTotalCents: 4950, currency: 'usd' });
    await w.apply(variant((doc) => {
      planEntry(doc, 'kiln-pass').status = 'enabled';
      planEntry(doc, 'kiln-pass').billing.price = 60;
    }));
    const [record] = await w.store.listMembershipsOfMember(await w.siteId(), ann.memberInfo.id);
    expect(record!.billing).toMatchObject({ price: 49.5, currency: 'usd', taxPercentage: 19 });
  });

  test('public ids and colours are kept when plans change; a new plan gets its own', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const before = await w.admin<Plan[]>('/plans');
    w.clock.advance(DAY);
    await w.apply(variant((doc) => {
      for (const plan of doc.plans as Doc[]) plan.name = `${plan.name} (new)`;
      planEntry(doc, 'monthly').billing.price = 11;
      planEntry(doc, 'course').isPublic = false;
      doc.plans.push({ key: 'weekend', name: 'Weekend', type: 'free' });
    }));
    const after = await w.admin<Plan[]>('/plans');
    expect(after.map((p) => p.name)).toEqual(['Open studio (new)', 'Monthly (new)', 'Wheel course (new)', 'Kiln pass (new)', 'Weekend']);
    for (const [i, plan] of before.entries()) {
      expect(after[i]).toMatchObject({ id: plan.id, publicId: plan.publicId, colorCode: plan.colorCode, createdAt: plan.createdAt });
    }
    expect(after[2]).toMatchObject({ isPublic: false });
    expect(before.map((p) => p.publicId)).not.toContain(after[4]!.publicId);
    expect(after[4]!.createdAt).toBe(new Date(NOW + DAY).toISOString());
  });

  test('rich text is stored cut to the allowed HTML: plan descriptions, tax descriptions, article bodies', async () => {
    const w = await world();
    await w.apply(variant((doc) => {
      planEntry(doc, 'monthly').description = '<p>Hi <img src=x onerror="alert(1)"><a href="javascript:alert(1)">there</a></p><script>document.cookie</script><style>p{}</style>';
      doc.library[0].items[0].body = '<p onmouseover="x()">Body</p><script>alert(2)</script>';
    }));
    const monthly = await w.planOf('monthly');
    expect(monthly.description).toBe('<p>Hi <a target="_blank" rel="noopener noreferrer">there</a></p>');
    expect(JSON.stringify(await w.planOf('kiln-pass'))).not.toMatch(/onclick/);
    expect((await w.planOf('open-studio')).description).toBe('<p>Drop in <strong>any</strong> time.</p>');
    const welcome = (await w.definition()).items.find((i) => i.key === 'welcome')!;
    expect(welcome.body).toBe('<p>Body</p>');
    const stored = JSON.stringify(await w.definition());
    expect(stored).not.toMatch(/<script|onerror|onmouseover|javascript:|<style|<iframe/i);
  });

  test('a plan’s type change is refused with RefusedChangeError naming the plan’s type in the file; nothing is written', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const before = await w.definition();
    const changed = variant((doc) => {
      const monthly = planEntry(doc, 'monthly');
      monthly.type = 'oneTimePayment';
      monthly.billing = { price: 10 };
      doc.site.name = 'Renamed too';
      doc.plans.push({ key: 'extra', name: 'Extra', type: 'free' });
    });
    const error = await w.apply(changed).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RefusedChangeError);
    expect((error as RefusedChangeError).issues).toEqual([{ path: ['plans', 1, 'type'], message: expect.stringContaining('monthly') }]);
    expect(await w.definition()).toStrictEqual(before);
    // A dry run is refused the same way.
    await expect(w.apply(changed, { dryRun: true })).rejects.toBeInstanceOf(RefusedChangeError);
  });

  test('a sign-up field’s type change is refused too; nothing is written', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const before = await w.definition();
    const changed = variant((doc) => {
      doc.signupFields[1].type = 'text';
      doc.site.name = 'Renamed too';
    });
    await expect(w.apply(changed)).rejects.toMatchObject({ name: 'RefusedChangeError', issues: [{ path: ['signupFields', 1, 'type'] }] });
    expect(await w.definition()).toStrictEqual(before);
  });

  test('site settings change in place: Admin API off, member menu, after registration, labels back to the locale’s', async () => {
    const w = await world();
    await w.apply(STUDIO);
    const key = await w.adminKey();
    const outcome = await w.apply(variant((doc) => {
      doc.site.adminApi = false;
      doc.site.memberMenu = false;
      doc.site.afterRegistration = 'plans';
      delete doc.site.checkboxLabels;
    }));
    expect(outcome.lines).toHaveLength(1);
    expect(outcome.lines[0]).toMatchObject({ op: '~', text: expect.stringMatching(/^site studio: /) });
    const refused = await adminRequest(w.app, '/admin/v1/sites', { key });
    expect(refused.status).not.toBe(200);
    const config = (await w.member<SiteConfig>('/config')).body;
    expect(config).toMatchObject({ memberMenu: false, afterRegistration: { action: 'plans' }, checkboxLabels: { yes: 'Ja', no: 'Nein' } });
  });
});
