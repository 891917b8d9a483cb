/**
 * The site file's `payments:` (issue 28): the test processor by default, the owner's Stripe
 * account by its publishable key and the names of the variables holding its secrets, kept on
 * every store, said in the plan of changes, written back by export; a secret key in the file, a
 * key that is not Stripe's, a variable's name that is no name, refused with their lines.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { applySiteFile } from '../../src/service/site-file/apply';
import { formatSiteFile, siteFileOf } from '../../src/service/site-file/export';
import { readSiteFile, SiteFileError } from '../../src/service/site-file/read';
import type { Store } from '../../src/service/store/store';
import { fixtureClock, STORES, type StoreFactory } from '../support/admin-fixture';

const NOW = Date.UTC(2026, 10, 2, 12);
const SITE = 'site:\n  subdomain: shop\n  name: Shop\n';
const STRIPE = `payments:
  processor: stripe
  publishableKey: pk_test_51AbCdEfGh
  secretKeyEnv: SHOP_STRIPE_SECRET
  webhookSecretEnv: SHOP_STRIPE_WEBHOOK
`;
const read = (text: string) => readSiteFile(text, 'yaml', 'shop.yaml').file;

describe.each(STORES)('%s store', (_name: string, newStore: StoreFactory) => {
  const open: Store[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });
  const fresh = async () => {
    const store = await newStore();
    open.push(store);
    return store;
  };

  test('without payments: the test processor, kept as no setting, exported as processor: test', async () => {
    const store = await fresh();
    await applySiteFile(store, fixtureClock(NOW), read(SITE));
    const site = (await store.getSiteBySubdomain('shop'))!;
    expect(site.payments).toBeUndefined();
    expect(siteFileOf((await store.getSiteDefinition(site.id))!).payments).toEqual({ processor: 'test' });
  });

  test('stripe: kept with the names of its variables, said in the changes, exported and applied again to nothing', async () => {
    const store = await fresh();
    const clock = fixtureClock(NOW);
    await applySiteFile(store, clock, read(SITE));
    const outcome = await applySiteFile(store, clock, read(SITE + STRIPE));
    expect(outcome.lines.map((l) => `${l.op} ${l.text}`)).toEqual([
      '~ site shop: payments.processor "test" → "stripe", payments.publishableKey (none) → "pk_test_51AbCdEfGh", payments.secretKeyEnv (none) → "SHOP_STRIPE_SECRET", payments.webhookSecretEnv (none) → "SHOP_STRIPE_WEBHOOK"',
    ]);
    const site = (await store.getSiteBySubdomain('shop'))!;
    expect(site.payments).toEqual({ processor: 'stripe', publishableKey: 'pk_test_51AbCdEfGh', secretKeyEnv: 'SHOP_STRIPE_SECRET', webhookSecretEnv: 'SHOP_STRIPE_WEBHOOK' });
    const exported = formatSiteFile(siteFileOf((await store.getSiteDefinition(site.id))!), 'yaml', '../schemas/site.json');
    expect(exported).toContain('processor: stripe');
    expect((await applySiteFile(store, clock, read(exported))).written).toBe(false);
    // Back to the test processor: the setting goes.
    await applySiteFile(store, clock, read(SITE));
    expect((await store.getSiteBySubdomain('shop'))!.payments).toBeUndefined();
  });
});

test.each([
  ['a secret key where the publishable key goes', STRIPE.replace('pk_test_51AbCdEfGh', 'sk_test_51AbCdEfGh'), 'this is a secret key'],
  ['a key that is not Stripe\'s', STRIPE.replace('pk_test_51AbCdEfGh', 'pub-123'), "Stripe's publishable key"],
  ['a variable name with a space', STRIPE.replace('SHOP_STRIPE_SECRET', 'SHOP STRIPE'), 'the name of an environment variable'],
  ['a missing webhook variable', STRIPE.replace('  webhookSecretEnv: SHOP_STRIPE_WEBHOOK\n', ''), 'webhookSecretEnv'],
  ['an unknown processor', 'payments:\n  processor: paypal\n', 'processor'],
])('refused: %s, with its line', (_what, payments, message) => {
  let error: unknown;
  try {
    read(SITE + payments);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(SiteFileError);
  const problems = (error as SiteFileError).problems;
  expect(problems.map((p) => `${p.path} ${p.message}`).join('\n')).toContain(message);
  expect(problems.every((p) => p.line !== undefined && p.line >= 4), JSON.stringify(problems)).toBe(true);
});
