/** GET /plans and GET /plans/{id} (spec 2.2): the site's plans, by type and status, and one plan by id. */
import { expect, test } from 'vitest';
import { INTERVAL_UNITS, PLAN_STATUSES, PLAN_TYPES } from '../../src/contract/admin';
import type { PlanRecord } from '../../src/service/store/records';
import { forEachStore, readSiteData, useAdminFixture } from '../support/admin-fixture';
import {
  activeMembers,
  call,
  demoData,
  EXPIRATION_SHAPES,
  expectedPlan,
  expectError,
  expectInvalidParameters,
  expectJson,
  expectNoNulls,
  expectShape,
  ids,
  PLAN_SHAPES,
  sameInstants,
  sitesWithData,
  walkPages,
} from './helpers';

const listed = (plans: PlanRecord[]) => plans.filter((p) => p.status === 'enabled' || p.status === 'disabled');

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('the demo data holds plans of every type and every status', async () => {
    const { plans } = await demoData(fixture());
    expect(new Set(plans.map((p) => p.type))).toEqual(new Set(PLAN_TYPES));
    expect(new Set(plans.map((p) => p.status))).toEqual(new Set(PLAN_STATUSES));
  });

  test('GET /plans lists enabled and disabled plans in id order, leaving out archived and deleted ones', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const res = await call(fx.app, '/plans', { key: fx.keys.demo.all });
    expect(res.status).toBe(200);
    expectJson(res);
    expect(ids(res.body)).toEqual(ids(listed(data.plans)));
    expect(res.body.map((p: { status: string }) => p.status)).not.toContain('archived');
    expect(res.body.map((p: { status: string }) => p.status)).not.toContain('deleted');
    expect(res.headers.get('x-has-more-items-after')).toBe('false');
    expect(res.headers.get('x-next-cursor')).toBeNull();
  });

  test('every listed plan carries the common fields and exactly the extra fields its type selects', async () => {
    const fx = fixture();
    for (const key of [fx.keys.demo.all, fx.keys.other.all]) {
      const { body } = await call(fx.app, '/plans', { key, query: {} });
      const deleted = (await call(fx.app, '/plans', { key, query: { status: 'deleted' } })).body;
      for (const plan of [...body, ...deleted]) {
        expect(PLAN_TYPES).toContain(plan.type);
        expect(PLAN_STATUSES).toContain(plan.status);
        expectShape(plan, PLAN_SHAPES[plan.type]!, `plan ${plan.id}`);
        if (plan.type === 'subscription') expect(plan).not.toHaveProperty('expiration');
        else expectShape(plan.expiration, EXPIRATION_SHAPES[plan.expiration.mode]!, `plan ${plan.id}.expiration`);
        if (plan.type === 'free') expect(plan).not.toHaveProperty('billing');
        expect(plan.colorCode).toMatch(/^#[0-9a-fA-F]{6}$/);
        expect(plan.publicId.length).toBeGreaterThan(0);
      }
      expectNoNulls(body);
    }
  });

  test('billing fields follow the rules of 2.2', async () => {
    const fx = fixture();
    const plans = [];
    for (const key of [fx.keys.demo.all, fx.keys.other.all]) {
      plans.push(...(await call(fx.app, '/plans', { key })).body, ...(await call(fx.app, '/plans', { key, query: { status: 'deleted' } })).body);
    }
    const billed = plans.filter((p) => p.billing);
    expect(billed.length).toBeGreaterThan(0);
    for (const { type, billing } of billed) {
      expect(billing.currency).toMatch(/^[A-Za-z]{3}$/);
      expect(billing.price).toBeGreaterThanOrEqual(0);
      if (billing.interval) {
        expect(INTERVAL_UNITS).toContain(billing.interval.unit);
        expect(billing.interval.count).toBeGreaterThan(0);
      }
      expect(billing.trialPeriodDays !== undefined && billing.signupFee !== undefined).toBe(false);
      if (billing.taxDescription !== undefined) expect(billing.taxPercentage).toEqual(expect.any(Number));
      if (type !== 'multiPayment') expect(billing).not.toHaveProperty('paymentCountRequired');
      if (type !== 'subscription') expect(billing).not.toHaveProperty('billingDate');
      if (billing.billingDate) {
        expect(billing.billingDate.day).toBeGreaterThanOrEqual(1);
        expect(billing.billingDate.day).toBeLessThanOrEqual(31);
        if (billing.interval.unit === 'year') expect(billing.billingDate.month).toBeGreaterThanOrEqual(1);
        if (billing.interval.unit === 'month') expect(billing.billingDate).not.toHaveProperty('month');
      }
    }
  });

  test('listed plans equal the store\'s plans, activeMemberCount counted from the memberships', async () => {
    const fx = fixture();
    for (const { site, key } of sitesWithData(fx)) {
      const data = await readSiteData(fx.store, site.id);
      const { body } = await call(fx.app, '/plans', { key });
      expect(sameInstants(body)).toStrictEqual(sameInstants(listed(data.plans).map((p) => expectedPlan(p, data))));
      expect(body.some((p: { activeMemberCount: number }) => p.activeMemberCount > 0)).toBe(true);
    }
  });

  test('optional plan fields without a value are omitted, never null', async () => {
    const fx = fixture();
    const { body } = await call(fx.app, '/plans', { key: fx.keys.demo.all });
    const deleted = (await call(fx.app, '/plans', { key: fx.keys.demo.all, query: { status: 'deleted' } })).body;
    const bare = deleted.find((p: { name: string }) => p.name === 'Beta testers');
    expect(bare).toBeDefined();
    for (const field of ['description', 'contentUrl', 'welcomeUrl']) expect(bare).not.toHaveProperty(field);
    const full = body.find((p: { name: string }) => p.name === 'Community');
    expect(full.description).toEqual(expect.any(String));
    expect(full.welcomeUrl).toEqual(expect.any(String));
    expectNoNulls(body);
  });

  test('X-Total-Count on /plans counts every matching plan, whatever the page size', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    for (const pageSize of ['1', '3', '100']) {
      const res = await call(fx.app, '/plans', { key: fx.keys.demo.all, headers: { 'x-items-after': pageSize } });
      expect(res.headers.get('x-total-count')).toBe(String(listed(data.plans).length));
    }
    const subs = await call(fx.app, '/plans', { key: fx.keys.demo.all, query: { type: 'subscription' }, headers: { 'x-items-after': '1' } });
    expect(subs.headers.get('x-total-count')).toBe(String(listed(data.plans).filter((p) => p.type === 'subscription').length));
    expect(subs.body).toHaveLength(1);
    const none = await call(fx.app, '/plans', { key: fx.keys.empty.all });
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
  });

  test.each(PLAN_TYPES)('GET /plans?type=%s lists exactly the listed plans of that type', async (type) => {
    const fx = fixture();
    for (const { site, key } of sitesWithData(fx)) {
      const data = await readSiteData(fx.store, site.id);
      const res = await call(fx.app, '/plans', { key, query: { type } });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(ids(listed(data.plans).filter((p) => p.type === type)));
      expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
    }
  });

  test.each(['enabled', 'disabled', 'deleted'] as const)('GET /plans?status=%s lists exactly the plans in that status', async (status) => {
    const fx = fixture();
    const data = await demoData(fx);
    const expected = data.plans.filter((p) => p.status === status);
    expect(expected.length).toBeGreaterThan(0);
    const res = await call(fx.app, '/plans', { key: fx.keys.demo.all, query: { status } });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(ids(expected));
    expect(res.headers.get('x-total-count')).toBe(String(expected.length));
  });

  test('type and status filters combine', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    for (const type of PLAN_TYPES) {
      for (const status of ['enabled', 'disabled', 'deleted'] as const) {
        const res = await call(fx.app, '/plans', { key: fx.keys.demo.all, query: { type, status } });
        expect(ids(res.body), `${type} ${status}`).toEqual(ids(data.plans.filter((p) => p.type === type && p.status === status)));
      }
    }
  });

  test('GET /plans?status=archived answers 400 naming status: archived plans are not listed', async () => {
    const fx = fixture();
    expectInvalidParameters(await call(fx.app, '/plans', { key: fx.keys.demo.all, query: { status: 'archived' } }), 'status');
  });

  test('malformed plan filters answer 400 invalidParameter naming each parameter', async () => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    expectInvalidParameters(await call(fx.app, '/plans', { key, query: { type: 'gold' } }), 'type');
    expectInvalidParameters(await call(fx.app, '/plans', { key, query: { type: 'FREE' } }), 'type');
    expectInvalidParameters(await call(fx.app, '/plans', { key, query: { type: '' } }), 'type');
    expectInvalidParameters(await call(fx.app, '/plans', { key, query: { status: 'active' } }), 'status');
    expectInvalidParameters(await call(fx.app, '/plans', { key, query: { type: 'x', status: 'y' } }), 'type', 'status');
  });

  test('walking /plans one, two or three at a time visits every listed plan once, in id order', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    for (const pageSize of [1, 2, 3]) {
      const walk = await walkPages(fx.app, '/plans', { key: fx.keys.demo.all, pageSize });
      expect(ids(walk.items)).toEqual(ids(listed(data.plans)));
      for (const page of walk.pages) expect(page.headers.get('x-total-count')).toBe(String(listed(data.plans).length));
    }
  });

  test('GET /plans/{id} reads every plan of the site, archived and deleted ones included', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    for (const plan of data.plans) {
      const res = await call(fx.app, `/plans/${plan.id}`, { key: fx.keys.demo.all });
      expect(res.status, plan.name).toBe(200);
      expectJson(res);
      expect(Array.isArray(res.body)).toBe(false);
      expectShape(res.body, PLAN_SHAPES[plan.type]!);
      expectNoNulls(res.body);
      expect(sameInstants(res.body)).toStrictEqual(sameInstants(expectedPlan(plan, data)));
    }
    const statuses = new Set(data.plans.map((p) => p.status));
    expect(statuses).toContain('archived');
    expect(statuses).toContain('deleted');
  });

  test('an archived plan keeps its memberships and reports its active members', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const archived = data.plans.find((p) => p.status === 'archived')!;
    const members = data.memberships.filter((m) => m.planId === archived.id);
    expect(members.length).toBeGreaterThan(0);
    const res = await call(fx.app, `/plans/${archived.id}`, { key: fx.keys.demo.all });
    expect(res.body.status).toBe('archived');
    expect(res.body.activeMemberCount).toBe(activeMembers(members));
  });

  test('GET /plans/{id} of a plan that does not exist answers 404 notFound', async () => {
    const fx = fixture();
    const data = await readSiteData(fx.store, fx.other.id);
    const everyId = [...data.plans, ...(await demoData(fx)).plans].map((p) => p.id);
    for (const id of [Math.max(...everyId) + 1, 999_999_999, 0, 'abc', '1.5', '-1', '1e2', '%20', '99999999999999999999']) {
      expectError(await call(fx.app, `/plans/${id}`, { key: fx.keys.demo.all }), 404, 'notFound');
    }
  });

  test('GET /plans/{id} of another site\'s plan answers 404 notFound', async () => {
    const fx = fixture();
    const data = await readSiteData(fx.store, fx.other.id);
    for (const plan of data.plans) {
      expectError(await call(fx.app, `/plans/${plan.id}`, { key: fx.keys.demo.all }), 404, 'notFound');
    }
  });
});
