/**
 * A page links plans and items by the names they have in the site file: `?svcopen=/member/sign_up/yearly`
 * and `?svcopen=/content/issue-41` work as their public id and numeric id do.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { createServiceApp } from '../../src/service/app';
import { applySiteFile } from '../../src/service/site-file/apply';
import { readSiteFile } from '../../src/service/site-file/read';
import { createMemoryStore } from '../../src/service/store/memory';

const NOW = Date.UTC(2026, 10, 24, 12);

async function newsletter() {
  const store = createMemoryStore();
  const { file } = readSiteFile(readFileSync(`${repoRoot}/examples/sites/newsletter.yaml`, 'utf8'), 'yaml', 'newsletter.yaml');
  await applySiteFile(store, () => NOW, file);
  const app = await createServiceApp({ store, clock: () => NOW });
  const get = (path: string) => app.request(`/member/v1/sites/newsletter${path}`);
  return { store, file, get };
}

test('GET /plans/{ref} finds an open plan by its key as well as by its public id', async () => {
  const { get } = await newsletter();
  const byKey = await get('/plans/yearly');
  expect(byKey.status).toBe(200);
  const offer = (await byKey.json()) as { publicId: string; name: string };
  expect(offer.name).toBe('Supporter, yearly');
  expect(offer.publicId).not.toBe('yearly');
  expect(await (await get(`/plans/${offer.publicId}`)).json()).toEqual(offer);
  expect((await get('/plans/weekly')).status).toBe(404);
});

test('a plan that left the file is no longer found by its key (archived or deleted plans are not open)', async () => {
  const { store, file, get } = await newsletter();
  file.plans = file.plans.filter((p) => p.key !== 'monthly');
  file.library[0]!.plans = file.library[0]!.plans.filter((k) => k !== 'monthly');
  await applySiteFile(store, () => NOW, file);
  expect((await get('/plans/monthly')).status).toBe(404);
  expect((await get('/plans/yearly')).status).toBe(200);
});

test('GET /content/{key}/plans names the plans that open the item the key names; an archived item is 404', async () => {
  const { store, file, get } = await newsletter();
  const res = await get('/content/issue-41/plans');
  expect(res.status).toBe(200);
  const { plans } = (await res.json()) as { plans: { name: string }[] };
  expect(plans.map((p) => p.name).sort()).toEqual(['Supporter, monthly', 'Supporter, yearly']);
  file.library[0]!.items = file.library[0]!.items.filter((i) => i.key !== 'issue-41');
  await applySiteFile(store, () => NOW, file);
  expect((await get('/content/issue-41/plans')).status).toBe(404);
});
