/**
 * `svc serve` at start, about the site files' webhook endpoints (issue 31): one line on stderr
 * for each whose variable is unset or holds no `whsec_…` secret; nothing for one whose variable
 * holds a secret, nor for an endpoint of `svc webhooks add` (its secret is its own). The secret is
 * never said.
 */
import { expect, test } from 'vitest';
import { announce, type ServeSettings } from '../../src/cli/commands/serve-setup';
import { webhookSecretWarnings } from '../../src/cli/webhook-secret-warnings';
import { applySiteFile } from '../../src/service/site-file/apply';
import { readSiteFile } from '../../src/service/site-file/read';
import { createMemoryStore } from '../../src/service/store/memory';

const NOW = Date.UTC(2026, 10, 2, 12);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwQwlT3Hq7B4c=';
const FILE = `site:
  subdomain: shop
  name: Shop
webhooks:
  - { url: "https://crm.example.com/in", secretEnv: SHOP_CRM_SECRET }
  - { url: "https://sales.example.com/in", secretEnv: SHOP_SALES_SECRET }
  - { url: "https://mail.example.com/in", secretEnv: SHOP_MAIL_SECRET }
`;

async function storeWithEndpoints() {
  const store = createMemoryStore();
  const { siteId } = await applySiteFile(store, () => NOW, readSiteFile(FILE, 'yaml', 'shop.yaml').file);
  await store.createWebhookEndpoint({ siteId: siteId!, url: 'https://cli.example.com/in', allowPrivate: false, secret: SECRET, source: 'cli', createdAt: NOW });
  return store;
}

test('one line an endpoint whose variable is unset or holds no webhook secret, naming the site, the endpoint and the variable, never the value', async () => {
  const store = await storeWithEndpoints();
  const env = { SHOP_CRM_SECRET: SECRET, SHOP_SALES_SECRET: 'sk_live_not-a-webhook-secret' };
  const warnings = await webhookSecretWarnings(store, env);
  expect(warnings).toEqual([
    "webhooks: site shop's endpoint 2 (https://sales.example.com/in) takes its secret from SHOP_SALES_SECRET, which holds no webhook secret (whsec_ and base64): its deliveries fail until svc serve runs with SHOP_SALES_SECRET set to the secret",
    "webhooks: site shop's endpoint 3 (https://mail.example.com/in) takes its secret from SHOP_MAIL_SECRET, which is not set: its deliveries fail until svc serve runs with SHOP_MAIL_SECRET set to the secret",
  ]);
  expect(warnings.join('\n')).not.toContain('sk_live');
  expect(await webhookSecretWarnings(store, { ...env, SHOP_SALES_SECRET: SECRET, SHOP_MAIL_SECRET: SECRET })).toEqual([]);
  // An empty variable is an unset one.
  expect(await webhookSecretWarnings(store, { SHOP_CRM_SECRET: '', SHOP_SALES_SECRET: SECRET, SHOP_MAIL_SECRET: SECRET })).toEqual([
    expect.stringMatching(/endpoint 1 .* SHOP_CRM_SECRET, which is not set/),
  ]);
  await store.close();
});

test('announce says them on stderr after where everything is', async () => {
  const store = await storeWithEndpoints();
  const out: string[] = [];
  const err: string[] = [];
  const settings = { database: ':memory:', env: { SHOP_CRM_SECRET: SECRET, SHOP_SALES_SECRET: SECRET } } as unknown as ServeSettings;
  await announce(store, { out: (l) => out.push(l), err: (l) => err.push(l) }, { url: 'http://127.0.0.1:8787', settings, start: { siteCount: 1 }, widgetReady: false, workers: 1 });
  expect(out).toEqual([]);
  expect(err[0]).toMatch(/^serving on /);
  expect(err.filter((l) => l.startsWith('webhooks: '))).toEqual([expect.stringMatching(/^webhooks: site shop's endpoint 3 \(https:\/\/mail\.example\.com\/in\) takes its secret from SHOP_MAIL_SECRET, which is not set/)]);
  expect(err.at(-1)).toMatch(/^webhooks: /);
  await store.close();
});
