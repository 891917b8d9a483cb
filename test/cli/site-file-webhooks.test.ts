/**
 * `svc sites apply` and `svc sites export` with the site file's `webhooks:` (issue 31), through
 * `main` on a temporary SQLite file: the endpoints' lines among the others, a bad entry named with
 * its line (nothing written), and an export that names variables, never secrets, and says which
 * endpoints it leaves out.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { useTempDatabase } from './harness';

const temp = useTempDatabase('svc-site-file-webhooks-');
const { svc } = temp;

function file(name: string, text: string): string {
  const path = join(temp.dir(), name);
  writeFileSync(path, text);
  return path;
}

const SHOP = `site:
  subdomain: shop
  name: Shop
webhooks:
  - url: https://crm.example.com/hooks/svc
    events: [member.created]
    secretEnv: SHOP_CRM_SECRET
`;

test('apply says each endpoint as a line of its own and counts it; export writes it back with its variable and notes the endpoints of svc webhooks add', async () => {
  const path = file('shop.yaml', SHOP);
  const dry = await svc('sites', 'apply', path, '--dry-run');
  expect(dry.out).toEqual([expect.stringMatching(/^\+ site shop: /), '+ webhook https://crm.example.com/hooks/svc: member.created; secret in SHOP_CRM_SECRET']);
  expect(dry.err).toMatch(/dry run: 2 to create, 0 to change, 0 to archive; nothing written/);

  const applied = await svc('sites', 'apply', path);
  expect(applied.code).toBe(0);
  expect(applied.out).toEqual(dry.out);
  expect(applied.err).toMatch(/site shop \(id 1\) created: 2 created/);
  expect((await svc('webhooks', 'add', '--site', 'shop', '--url', 'https://zapier.example.com/catch/1')).code).toBe(0);
  const listed = await svc('webhooks', 'list', '--site', 'shop');
  expect(listed.out).toEqual([expect.stringMatching(/^1\thttps:\/\/crm\.example\.com\/hooks\/svc\tmember\.created\tenabled; site file, secret in SHOP_CRM_SECRET$/), expect.stringMatching(/^2\t/)]);

  const exported = await svc('sites', 'export', 'shop');
  expect(exported.code).toBe(0);
  const text = exported.out.join('\n');
  expect(text).toContain('# One webhook endpoint was added with `svc webhooks add` and is not in this file:');
  expect(text).toContain('webhooks:\n  - url: https://crm.example.com/hooks/svc\n    events:\n      - member.created\n    secretEnv: SHOP_CRM_SECRET');
  expect(text).not.toMatch(/whsec_|zapier/);
  const again = await svc('sites', 'apply', file('exported.yaml', text));
  expect(again).toMatchObject({ code: 0, out: [] });
  expect(again.err).toMatch(/no changes/);

  const json = await svc('sites', 'export', 'shop', '--format', 'json');
  expect(JSON.parse(json.out.join('\n')).webhooks).toEqual([{ url: 'https://crm.example.com/hooks/svc', events: ['member.created'], secretEnv: 'SHOP_CRM_SECRET' }]);
});

test('a bad endpoint exits 1 naming it with its line, and nothing is written', async () => {
  const path = file('shop.yaml', SHOP.replace('https://crm.example.com', 'http://crm.example.com').replace('member.created', 'member.gone'));
  const result = await svc('sites', 'apply', path);
  expect(result).toMatchObject({ code: 1, out: [] });
  expect(result.err).toContain(`${path}:5: webhooks[0].url: must start with https://`);
  expect(result.err).toContain(`${path}:6: webhooks[0].events[0]: unknown event "member.gone"`);
  expect((await svc('sites', 'list')).out).toEqual([]);
});
