/**
 * `svc serve` and a Stripe site's secrets (issue 28): the start is refused, naming the site and
 * the variable, when a variable the site file names is unset or holds something else, or when
 * the secret key's mode is not the publishable key's; never printing a secret.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { paymentsProblems } from '../../src/cli/stripe-processors';
import type { SiteRecord } from '../../src/service/store/records';
import { runSvc } from '../support/svc-main';

const dir = mkdtempSync(join(tmpdir(), 'svc-stripe-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const payments = { processor: 'stripe' as const, publishableKey: 'pk_test_51Shop0000', secretKeyEnv: 'SHOP_SK', webhookSecretEnv: 'SHOP_WHSEC' };
const site = { id: 1, subdomain: 'shop', payments } as SiteRecord;
const SECRET = 'sk_test_51Shop_supersecret_value';

test.each([
  [{}, ['SHOP_SK (its secret key) is not set', 'SHOP_WHSEC (its webhook signing secret) is not set']],
  [{ SHOP_SK: 'hello', SHOP_WHSEC: 'whsec_x' }, ['SHOP_SK holds no Stripe secret key']],
  [{ SHOP_SK: 'sk_live_51Shop_secret', SHOP_WHSEC: 'whsec_x' }, ['live-mode key and the publishable key is test-mode']],
  [{ SHOP_SK: SECRET, SHOP_WHSEC: 'nope' }, ['SHOP_WHSEC holds no webhook signing secret']],
  [{ SHOP_SK: SECRET, SHOP_WHSEC: 'whsec_x' }, []],
  [{ SHOP_SK: 'rk_test_51Shop_restricted', SHOP_WHSEC: 'whsec_x' }, []],
])('%o: %o', (env, expected) => {
  const problems = paymentsProblems([site], env);
  expect(problems).toHaveLength(expected.length);
  expected.forEach((text, i) => { expect(problems[i]).toContain(text); });
  for (const problem of problems) expect(problem).not.toContain('supersecret');
});

test('a test site needs nothing', () => {
  expect(paymentsProblems([{ ...site, payments: { processor: 'test' } }, { ...site, payments: undefined }] as SiteRecord[], {})).toEqual([]);
});

test('svc serve refuses to start a Stripe site whose variables are missing, saying which (exit 2), and starts nothing', async () => {
  const db = join(dir, 'shop.db');
  const file = join(dir, 'shop.yaml');
  writeFileSync(file, `site:\n  subdomain: shop\n  name: Shop\npayments:\n  processor: stripe\n  publishableKey: pk_test_51Shop0000\n  secretKeyEnv: SHOP_SK\n  webhookSecretEnv: SHOP_WHSEC\n`);
  expect((await runSvc(['sites', 'apply', file, '--db', db], {})).code).toBe(0);
  const run = await runSvc(['serve', '--db', db], { PORT: '0', SVC_SCRYPT: 'test', SHOP_WHSEC: 'whsec_abc' });
  expect(run.code).toBe(2);
  expect(run.err).toContain('site shop takes payments through Stripe, but SHOP_SK (its secret key) is not set');
  expect(run.err).not.toContain('serving on');
});
