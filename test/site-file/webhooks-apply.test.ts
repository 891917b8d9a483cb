/**
 * Applying and exporting the site file's `webhooks:` (issue 31) on every store: the file's
 * endpoints made, changed and deleted to match it by URL, said in the plan of changes, and
 * nothing done the second time; endpoints added with `svc webhooks add` never touched (a file
 * naming one's URL is refused, and a refused file writes nothing); a dry run writes nothing;
 * export writes the file's endpoints without a secret, and applying it changes nothing.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { applySiteFile } from '../../src/service/site-file/apply';
import { RefusedChangeError } from '../../src/service/site-file/changes';
import { formatSiteFile, siteFileOf } from '../../src/service/site-file/export';
import { readSiteFile, type SiteFileFormat } from '../../src/service/site-file/read';
import type { Store } from '../../src/service/store/store';
import type { WebhookEndpointRecord } from '../../src/service/store/webhook-records';
import { fixtureClock, STORES, type StoreFactory } from '../support/admin-fixture';

const NOW = Date.UTC(2026, 10, 2, 12);
const SITE = 'site:\n  subdomain: shop\n  name: Shop\nplans:\n  - { key: free, name: Free, type: free }\n';
const HOOKS = `webhooks:
  - url: https://crm.example.com/hooks/svc
    secretEnv: SHOP_CRM_SECRET
  - url: https://sales.example.com/in
    events: [payment.succeeded, payment.refunded]
    secretEnv: SHOP_SALES_SECRET
`;
const CLI_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwQwlT3Hq7B4c=';

const read = (text: string, format: SiteFileFormat = 'yaml') => readSiteFile(text, format, `shop.${format}`).file;
const shown = (outcome: { lines: { op: string; text: string }[] }) => outcome.lines.map((l) => `${l.op} ${l.text}`);
/** The endpoints as the owner set them, without ids and times. */
const settings = (endpoints: WebhookEndpointRecord[]) =>
  endpoints.map(({ url, events, allowPrivate, secret, secretEnv, source }) => ({ url, events, allowPrivate, secret, secretEnv, source }));

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
  const clock = fixtureClock(NOW);
  const endpointsOf = async (store: Store) => store.listWebhookEndpoints((await store.getSiteBySubdomain('shop'))!.id);
  /** An endpoint added with `svc webhooks add`, with its own secret. */
  const addWithCli = async (store: Store, url: string) =>
    store.createWebhookEndpoint({ siteId: (await store.getSiteBySubdomain('shop'))!.id, url, allowPrivate: false, secret: CLI_SECRET, source: 'cli', createdAt: NOW });

  test('a new site\'s endpoints are made after it, from the file, with the name of their variable and no secret; the same file again changes nothing', async () => {
    const store = await fresh();
    const first = await applySiteFile(store, clock, read(SITE + HOOKS));
    expect(first).toMatchObject({ created: true, written: true });
    expect(shown(first).slice(-2)).toEqual([
      '+ webhook https://crm.example.com/hooks/svc: every event; secret in SHOP_CRM_SECRET',
      '+ webhook https://sales.example.com/in: payment.succeeded, payment.refunded; secret in SHOP_SALES_SECRET',
    ]);
    expect(settings(await endpointsOf(store))).toEqual([
      { url: 'https://crm.example.com/hooks/svc', events: undefined, allowPrivate: false, secret: undefined, secretEnv: 'SHOP_CRM_SECRET', source: 'siteFile' },
      { url: 'https://sales.example.com/in', events: ['payment.succeeded', 'payment.refunded'], allowPrivate: false, secret: undefined, secretEnv: 'SHOP_SALES_SECRET', source: 'siteFile' },
    ]);
    const again = await applySiteFile(store, clock, read(SITE + HOOKS));
    expect(again).toMatchObject({ lines: [], written: false });
  });

  test('an endpoint the file changes is updated in place (its id and deliveries kept); one that leaves the file is deleted with its deliveries', async () => {
    const store = await fresh();
    await applySiteFile(store, clock, read(SITE + HOOKS));
    const [crm, sales] = await endpointsOf(store);
    const siteId = crm!.siteId;
    await store.queueWebhooks([{ siteId, publicId: 'msg_1', type: 'payment.succeeded', body: '{}', createdAt: NOW }]);
    const deliveries = (await store.listWebhookDeliveries(siteId, {}, { limit: 10 })).items;
    expect(deliveries.map((d) => d.endpointId).sort()).toEqual([crm!.id, sales!.id]);

    const changed = `webhooks:
  - url: https://crm.example.com/hooks/svc
    events: [member.created]
    secretEnv: SHOP_CRM_SECRET_2
    allowPrivate: true
`;
    const outcome = await applySiteFile(store, clock, read(SITE + changed));
    expect(shown(outcome)).toEqual([
      '~ webhook https://crm.example.com/hooks/svc: allowPrivate false → true, events "all" → ["member.created"], secretEnv "SHOP_CRM_SECRET" → "SHOP_CRM_SECRET_2"',
      '- webhook https://sales.example.com/in: deleted with its deliveries',
    ]);
    expect(outcome.written).toBe(true);
    expect(settings(await endpointsOf(store))).toEqual([
      { url: 'https://crm.example.com/hooks/svc', events: ['member.created'], allowPrivate: true, secret: undefined, secretEnv: 'SHOP_CRM_SECRET_2', source: 'siteFile' },
    ]);
    expect((await endpointsOf(store))[0]!.id).toBe(crm!.id);
    const left = (await store.listWebhookDeliveries(siteId, {}, { limit: 10 })).items;
    expect(left.map((d) => d.endpointId)).toEqual([crm!.id]);

    // Every event again: the list goes.
    const back = await applySiteFile(store, clock, read(`${SITE}webhooks:\n  - { url: "https://crm.example.com/hooks/svc", secretEnv: SHOP_CRM_SECRET_2, allowPrivate: true }\n`));
    expect(shown(back)).toEqual(['~ webhook https://crm.example.com/hooks/svc: events ["member.created"] → "all"']);
    expect((await endpointsOf(store))[0]!.events).toBeUndefined();
    // A file without webhooks: the file's endpoints go.
    expect(shown(await applySiteFile(store, clock, read(SITE)))).toEqual(['- webhook https://crm.example.com/hooks/svc: deleted with its deliveries']);
    expect(await endpointsOf(store)).toEqual([]);
  });

  test('endpoints added with svc webhooks add are never touched; a file naming one\'s URL is refused, and nothing of it is written', async () => {
    const store = await fresh();
    await applySiteFile(store, clock, read(SITE));
    const added = await addWithCli(store, 'https://crm.example.com/hooks/svc');
    // The file's endpoints come and go beside it.
    await applySiteFile(store, clock, read(`${SITE}webhooks:\n  - { url: "https://other.example.com/", secretEnv: OTHER }\n`));
    expect(shown(await applySiteFile(store, clock, read(SITE)))).toEqual(['- webhook https://other.example.com/: deleted with its deliveries']);
    expect(await endpointsOf(store)).toEqual([added]);

    const siteBefore = await store.getSiteDefinition(added.siteId);
    const refused = applySiteFile(store, clock, read(SITE.replace('name: Shop', 'name: Shop II') + HOOKS));
    await expect(refused).rejects.toBeInstanceOf(RefusedChangeError);
    await expect(refused).rejects.toMatchObject({
      issues: [{ path: ['webhooks', 0, 'url'], message: `https://crm.example.com/hooks/svc is endpoint ${added.id} already, added with svc webhooks add: remove it there (svc webhooks remove) or leave it out of the file` }],
    });
    expect(await endpointsOf(store)).toEqual([added]);
    expect(await store.getSiteDefinition(added.siteId)).toStrictEqual(siteBefore);
  });

  test('a refusal elsewhere in the file is said with the endpoints\' and writes none of them', async () => {
    const store = await fresh();
    await applySiteFile(store, clock, read(SITE));
    await addWithCli(store, 'https://sales.example.com/in');
    const retyped = SITE.replace('type: free', 'type: oneTimePayment, billing: { price: 5 }') + HOOKS;
    await expect(applySiteFile(store, clock, read(retyped))).rejects.toMatchObject({
      issues: [{ path: ['plans', 0, 'type'] }, { path: ['webhooks', 1, 'url'] }],
    });
    expect(settings(await endpointsOf(store)).map((e) => e.source)).toEqual(['cli']);
  });

  test('a dry run says what it would do and writes nothing', async () => {
    const store = await fresh();
    await applySiteFile(store, clock, read(`${SITE}webhooks:\n  - { url: "https://old.example.com/", secretEnv: OLD }\n`));
    const before = await endpointsOf(store);
    const dry = await applySiteFile(store, clock, read(SITE + HOOKS), { dryRun: true });
    expect(dry.written).toBe(false);
    expect(shown(dry)).toEqual([
      '+ webhook https://crm.example.com/hooks/svc: every event; secret in SHOP_CRM_SECRET',
      '+ webhook https://sales.example.com/in: payment.succeeded, payment.refunded; secret in SHOP_SALES_SECRET',
      '- webhook https://old.example.com/: deleted with its deliveries',
    ]);
    expect(await endpointsOf(store)).toEqual(before);
  });

  test('export writes the file\'s endpoints without a secret, leaves out (and says so) those of svc webhooks add, and applying it changes nothing, in YAML and JSON', async () => {
    const store = await fresh();
    const withPrivate = `${HOOKS}  - { url: "http://localhost:4000/hook", secretEnv: LOCAL_HOOK, allowPrivate: true }\n`;
    await applySiteFile(store, clock, read(SITE + withPrivate));
    await addWithCli(store, 'https://zapier.example.com/catch/123');
    const site = (await store.getSiteBySubdomain('shop'))!;
    const endpoints = await store.listWebhookEndpoints(site.id);
    const file = siteFileOf((await store.getSiteDefinition(site.id))!, endpoints);
    expect(file.webhooks).toStrictEqual([
      { url: 'https://crm.example.com/hooks/svc', secretEnv: 'SHOP_CRM_SECRET' },
      { url: 'https://sales.example.com/in', events: ['payment.succeeded', 'payment.refunded'], secretEnv: 'SHOP_SALES_SECRET' },
      { url: 'http://localhost:4000/hook', secretEnv: 'LOCAL_HOOK', allowPrivate: true },
    ]);
    for (const format of ['yaml', 'json'] as const) {
      const text = formatSiteFile(file, format, 'https://svc.example/schemas/site.json', { cliEndpoints: 1 });
      expect(text).not.toContain('whsec_');
      expect(text).not.toContain('zapier');
      expect((await applySiteFile(store, clock, read(text, format))).lines, format).toEqual([]);
      // Into a new database it makes the same endpoints.
      const other = await fresh();
      await applySiteFile(other, clock, read(text, format));
      expect(settings(await endpointsOf(other)), format).toEqual(settings(endpoints.filter((e) => e.source === 'siteFile')));
    }
    const yaml = formatSiteFile(file, 'yaml', 'x', { cliEndpoints: 1 });
    expect(yaml).toMatch(/\n# One webhook endpoint was added with `svc webhooks add` and is not in this file:\n# its secret is kept in the database, .*\n# .*`svc webhooks list` shows them\.\nwebhooks:\n/);
  });

  test('a site without file endpoints exports no webhooks key; the note on the others stands at the end', async () => {
    const store = await fresh();
    await applySiteFile(store, clock, read(SITE));
    await addWithCli(store, 'https://a.example.com/');
    await addWithCli(store, 'https://b.example.com/');
    const site = (await store.getSiteBySubdomain('shop'))!;
    const file = siteFileOf((await store.getSiteDefinition(site.id))!, await store.listWebhookEndpoints(site.id));
    expect(file).not.toHaveProperty('webhooks');
    const yaml = formatSiteFile(file, 'yaml', 'x', { cliEndpoints: 2 });
    expect(yaml).toMatch(/\n# 2 webhook endpoints were added with `svc webhooks add` and are not in this file:\n# their secrets are kept in the database, [^\n]*\n[^\n]*shows them\.\n$/);
    expect(parse(yaml)).toStrictEqual(parse(formatSiteFile(file, 'yaml', 'x')));
    expect((await applySiteFile(store, clock, read(yaml))).lines).toEqual([]);
  });
});
