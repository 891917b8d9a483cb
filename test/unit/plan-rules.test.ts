/** The plan rules of spec 2.2, through definePlan as a site owner meets them. */
import { beforeEach, expect, test } from 'vitest';
import { PLAN_STATUSES } from '../../src/contract/admin';
import { definePlan, PLAN_COLORS } from '../../src/service/domain/plans';
import type { PlanDefinition } from '../../src/service/domain/plan-schema';
import { createSite } from '../../src/service/domain/sites';
import { ValidationError } from '../../src/service/domain/validation';
import { createMemoryStore } from '../../src/service/store/memory';
import type { Store } from '../../src/service/store/store';

let store: Store;
let siteId: number;
const clock = () => Date.UTC(2026, 10, 23);
beforeEach(async () => {
  store = createMemoryStore();
  siteId = (await createSite(store, clock, { subdomain: 'acme' })).id;
});

const monthly = { price: 10, currency: 'usd', interval: { count: 1, unit: 'month' as const } };
const yearly = { price: 100, currency: 'usd', interval: { count: 1, unit: 'year' as const } };

async function rejected(definition: unknown): Promise<string> {
  const error = await definePlan(store, clock, siteId, definition as PlanDefinition).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(await store.countPlans(siteId, { statuses: PLAN_STATUSES })).toBe(0);
  return (error as ValidationError).message;
}

test('each plan type is defined with its own fields, and gets a public id, colour and time', async () => {
  const plans = [
    await definePlan(store, clock, siteId, { name: 'Free', type: 'free', expiration: { mode: 'none' } }),
    await definePlan(store, clock, siteId, {
      name: 'Once', type: 'oneTimePayment', expiration: { mode: 'specificTime', expiresAt: '2027-01-01T01:00:00+01:00' },
      billing: { price: 5, currency: 'EUR', taxPercentage: 19, taxDescription: '<p>MwSt.</p>' },
    }),
    await definePlan(store, clock, siteId, {
      name: 'Thrice', type: 'multiPayment', expiration: { mode: 'interval', count: 1, unit: 'year' },
      billing: { ...monthly, paymentCountRequired: 3, trialPeriodDays: 7 },
    }),
    await definePlan(store, clock, siteId, { name: 'Sub', type: 'subscription', billing: { ...yearly, billingDate: { day: 29, month: 2 }, signupFee: 5 } }),
  ];
  expect(plans.map((p) => p.type)).toEqual(['free', 'oneTimePayment', 'multiPayment', 'subscription']);
  expect(plans[1]).toMatchObject({ expiration: { mode: 'specificTime', expiresAt: '2027-01-01T00:00:00.000Z' }, billing: { currency: 'eur' } });
  expect(plans.map((p) => p.colorCode)).toEqual(PLAN_COLORS.slice(0, 4));
  expect(new Set(plans.map((p) => p.publicId)).size).toBe(4);
  for (const p of plans) {
    expect(p).toMatchObject({ status: 'enabled', isPublic: true, createdAt: clock() });
    expect(p.publicId).toMatch(/^[A-Za-z0-9]{8}$/);
  }
});

test('trialPeriodDays and signupFee are mutually exclusive', async () => {
  expect(await rejected({ name: 'X', type: 'subscription', billing: { ...monthly, trialPeriodDays: 7, signupFee: 5 } })).toMatch(/signupFee/);
  expect(await rejected({ name: 'X', type: 'multiPayment', expiration: { mode: 'none' }, billing: { ...monthly, paymentCountRequired: 2, trialPeriodDays: 7, signupFee: 5 } })).toMatch(/signupFee/);
});

test('taxDescription only together with taxPercentage', async () => {
  expect(await rejected({ name: 'X', type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { price: 1, currency: 'usd', taxDescription: 'VAT' } })).toMatch(/taxDescription/);
});

test('billingDate: subscriptions only, day alone when monthly, day and month when yearly, a real day', async () => {
  expect(await rejected({ name: 'X', type: 'subscription', billing: { ...monthly, billingDate: { day: 1, month: 1 } } })).toMatch(/billingDate.month: is only for yearly/);
  expect(await rejected({ name: 'X', type: 'subscription', billing: { ...yearly, billingDate: { day: 1 } } })).toMatch(/billingDate.month: is required/);
  expect(await rejected({ name: 'X', type: 'subscription', billing: { ...yearly, billingDate: { day: 31, month: 4 } } })).toMatch(/no day 31/);
  expect(await rejected({ name: 'X', type: 'subscription', billing: { ...monthly, billingDate: { day: 32 } } })).toMatch(/billingDate.day/);
  expect(await rejected({ name: 'X', type: 'subscription', billing: { price: 1, currency: 'usd', interval: { count: 1, unit: 'week' }, billingDate: { day: 1 } } })).toMatch(/monthly or yearly/);
  expect(await rejected({ name: 'X', type: 'multiPayment', expiration: { mode: 'none' }, billing: { ...monthly, paymentCountRequired: 2, billingDate: { day: 1 } } })).toMatch(/billingDate/);
});

test('fields of another type are refused: billing on free, expiration on subscription', async () => {
  expect(await rejected({ name: 'X', type: 'free', expiration: { mode: 'none' }, billing: { price: 1, currency: 'usd' } })).toMatch(/billing/);
  expect(await rejected({ name: 'X', type: 'subscription', expiration: { mode: 'none' }, billing: monthly })).toMatch(/expiration/);
  expect(await rejected({ name: 'X', type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { ...monthly } })).toMatch(/interval/);
});

test('required parts are required: billing, interval, paymentCountRequired; an expiration left out never ends', async () => {
  await rejected({ name: 'X', type: 'oneTimePayment', expiration: { mode: 'none' } });
  await rejected({ name: 'X', type: 'subscription', billing: { price: 1, currency: 'usd' } });
  await rejected({ name: 'X', type: 'multiPayment', expiration: { mode: 'none' }, billing: monthly });
  await rejected({ name: 'X', type: 'free', expiration: { mode: 'interval', count: 3 } });
  await rejected({ name: 'X', type: 'free', expiration: { mode: 'specificTime' } });
  await rejected({ name: 'X', type: 'free', expiration: { mode: 'forever' } });
  expect(await definePlan(store, clock, siteId, { name: 'Open-ended', type: 'free' } as PlanDefinition)).toMatchObject({ expiration: { mode: 'none' } });
});

test('values are checked: names, prices, currencies, counts, URLs, statuses, types', async () => {
  const free = { type: 'free', expiration: { mode: 'none' } };
  await rejected({ ...free, name: '  ' });
  await rejected({ ...free, name: 'X', status: 'paused' });
  await rejected({ ...free, name: 'X', contentUrl: 'javascript:alert(1)' });
  await rejected({ name: 'X', type: 'lifetime', expiration: { mode: 'none' } });
  await rejected({ name: 'X', type: 'subscription', billing: { ...monthly, price: -1 } });
  await rejected({ name: 'X', type: 'subscription', billing: { ...monthly, currency: 'dollars' } });
  await rejected({ name: 'X', type: 'subscription', billing: { ...monthly, interval: { count: 0, unit: 'month' } } });
  await rejected({ name: 'X', type: 'subscription', billing: { ...monthly, taxPercentage: 120 } });
  await rejected({ name: 'X', type: 'multiPayment', expiration: { mode: 'none' }, billing: { ...monthly, paymentCountRequired: 1 } });
  await rejected({ ...free, name: 'X', expiration: { mode: 'specificTime', expiresAt: 'next year' } });
});

test('site rules: subdomain, domain, currency and locale', async () => {
  for (const bad of [{ subdomain: 'Acme' }, { subdomain: '-acme' }, { subdomain: 'a'.repeat(64) }, { subdomain: 'ok', currency: 'usdd' }, { subdomain: 'ok', currency: 'zzz' }, { subdomain: 'ok', currency: 'xts' }, { subdomain: 'ok', locale: 'eng' }, { subdomain: 'ok', locale: 'fr' }, { subdomain: 'ok', domain: 'not a domain' }]) {
    await expect(createSite(store, clock, bad as never), JSON.stringify(bad)).rejects.toBeInstanceOf(ValidationError);
  }
  const site = await createSite(store, clock, { subdomain: 'shop', domain: 'Shop.Example.com', currency: 'GBP', locale: 'DE' });
  expect(site).toMatchObject({ domain: 'shop.example.com', defaultCurrency: 'gbp', locale: 'de', name: 'shop' });
  expect(await store.listSites()).toHaveLength(2);
});

test('rich text keeps formatting and links, and loses scripts, handlers, styles and unsafe links', async () => {
  const plan = await definePlan(store, clock, siteId, {
    name: 'Rich',
    type: 'oneTimePayment',
    expiration: { mode: 'none' },
    description:
      '<p>Get <strong>all</strong> <em>of</em> it: <a href="https://example.com/x" onclick="steal()">details</a></p>' +
      '<script>alert(1)</script><img src=x onerror="alert(2)"><p style="color:red">styled</p>' +
      '<a href="javascript:alert(3)">bad</a><iframe src="https://evil.example"></iframe>',
    billing: { price: 5, currency: 'usd', taxPercentage: 20, taxDescription: '<p>VAT</p><style>p{}</style>' },
  });
  expect(plan.description).toBe(
    '<p>Get <strong>all</strong> <em>of</em> it: <a href="https://example.com/x" target="_blank" rel="noopener noreferrer">details</a></p>' +
      '<p>styled</p><a target="_blank" rel="noopener noreferrer">bad</a>',
  );
  expect(plan.type === 'oneTimePayment' && plan.billing.taxDescription).toBe('<p>VAT</p>');
});

test('rich text that is nothing but disallowed markup is dropped, not stored empty', async () => {
  const plan = await definePlan(store, clock, siteId, {
    name: 'Empty', type: 'free', expiration: { mode: 'none' }, description: '<script>alert(1)</script>',
  });
  expect(plan).not.toHaveProperty('description');
});
