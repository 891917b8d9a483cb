/**
 * The plan of changes is what apply writes: every change in the change set has its line, and no
 * line means nothing to write. Checked on one-edit mutations of the demo site file, on both stores.
 */
import { describe, expect, test } from 'vitest';
import { createServiceApp } from '../../src/service/app';
import { listedPlans } from '../../src/service/member/plan-offers';
import { applySiteFile } from '../../src/service/site-file/apply';
import { siteFileOf } from '../../src/service/site-file/export';
import { changesNothing, siteChanges } from '../../src/service/site-file/changes';
import type { SiteFile } from '../../src/service/site-file/schema';
import { demoSiteFile } from '../../src/service/seed/demo-site-file';
import { createMemoryStore } from '../../src/service/store/memory';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';

const NOW = Date.UTC(2026, 10, 24, 12);
const clock = () => NOW;

/** One edit each, as an owner makes them; each must show as at least one line. */
const EDITS: [string, (f: SiteFile) => void][] = [
  ['rename the site', (f) => void (f.site.name = 'Demo Academy II')],
  ['set checkbox labels', (f) => void (f.site.checkboxLabels = { yes: 'Yep', no: 'Nope' })],
  ['give the dialog the site colours', (f) => void (f.site.theme = { accent: '#e11d48', radius: 4, colorScheme: 'light' })],
  ['turn the member menu off', (f) => void (f.site.memberMenu = false)],
  ['send new members to a page', (f) => void (f.site.afterRegistration = '/examples/welcome.html')],
  ['change a price', (f) => void ((f.plans[5] as { billing: { price: number } }).billing.price = 15)],
  ['hide a plan', (f) => void (f.plans[0]!.isPublic = false)],
  ['recommend a plan', (f) => void (f.plans[5]!.highlight = true)],
  ['list what a plan includes', (f) => void (f.plans[5]!.features = ['Every course', 'The community'])],
  ['drop a plan', (f) => void f.plans.splice(1, 1)],
  ['move a plan up', (f) => void f.plans.unshift(f.plans.splice(5, 1)[0]!)],
  ['add a plan', (f) => void f.plans.push({ key: 'extra', name: 'Extra', type: 'free', status: 'enabled', isPublic: true, expiration: { mode: 'none' } })],
  ['relabel a field', (f) => void (f.signupFields[0]!.label = 'Employer')],
  ['drop a field', (f) => void f.signupFields.pop()],
  ['reorder fields', (f) => void f.signupFields.reverse()],
  ['open a space to one plan fewer', (f) => void f.library[0]!.plans.pop()],
  ['rename a space', (f) => void (f.library[2]!.space = 'The podcast')],
  ['drop a space', (f) => void f.library.pop()],
  ['move an item', (f) => void f.library[1]!.items.push(f.library[0]!.items.pop()!)],
  ['drop an item', (f) => void f.library[0]!.items.shift()],
];

describe.each([
  ['memory', () => createMemoryStore()],
  ['sqlite', () => openSqliteStore(':memory:')],
] as const)('%s store', (_name, open: () => Store) => {
  test.each(EDITS)('%s: lines name every change, and applying them once leaves nothing to change', async (_label, edit) => {
    const store = open();
    const { siteId } = await applySiteFile(store, clock, demoSiteFile());
    const file = demoSiteFile();
    edit(file);
    const { changeSet, lines } = siteChanges(await store.getSiteDefinition(siteId!), file, clock);
    expect(lines.length).toBeGreaterThan(0);
    expect(changesNothing(changeSet)).toBe(false);
    await applySiteFile(store, clock, file);
    const again = siteChanges(await store.getSiteDefinition(siteId!), file, clock);
    expect(again.lines).toEqual([]);
    expect(changesNothing(again.changeSet)).toBe(true);
    // And back: the original file undoes the edit (archived things come back).
    await applySiteFile(store, clock, demoSiteFile());
    expect(siteChanges(await store.getSiteDefinition(siteId!), demoSiteFile(), clock).lines).toEqual([]);
    await store.close();
  });

  test('removing checkbox labels from the file clears them: a line, and GET /config falls back to the locale', async () => {
    const store = open();
    const withLabels = demoSiteFile();
    withLabels.site.checkboxLabels = { yes: 'Yep', no: 'Nope' };
    const { siteId } = await applySiteFile(store, clock, withLabels);
    expect((await store.getSite(siteId!))!.checkboxLabels).toEqual({ yes: 'Yep', no: 'Nope' });
    const outcome = await applySiteFile(store, clock, demoSiteFile());
    expect(outcome.lines.map((l) => l.text)).toEqual([expect.stringContaining('checkboxLabels')]);
    expect((await store.getSite(siteId!))!).not.toHaveProperty('checkboxLabels');
    await store.close();
  });

  test('the dialog offers the open public plans in the order of the file, wherever they were added', async () => {
    const store = open();
    const file = demoSiteFile();
    const { siteId } = await applySiteFile(store, clock, file);
    file.plans.unshift({ key: 'starter', name: 'Starter', type: 'free', status: 'enabled', isPublic: true, expiration: { mode: 'none' } });
    file.plans.push(file.plans.splice(1, 1)[0]!); // community to the end
    const outcome = await applySiteFile(store, clock, file);
    const listedInFile = file.plans.filter((p) => p.status !== 'archived' && p.status !== 'deleted').map((p) => p.key);
    expect(outcome.lines.map((l) => l.text)).toContain(`plan order: ${listedInFile.join(', ')}`);
    const offered = (await listedPlans(store, siteId!)).map((p) => p.key);
    expect(offered).toEqual(file.plans.filter((p) => p.status === 'enabled' && p.isPublic).map((p) => p.key));
    expect(offered[0]).toBe('starter');
    expect(offered.at(-1)).toBe('community');
    await store.close();
  });

  test('a plan’s highlight and features reach GET /plans as written, and leave it with the file', async () => {
    const store = open();
    const file = demoSiteFile();
    const key = file.plans[5]!.key;
    Object.assign(file.plans[5]!, { highlight: true, features: ['Every course', 'The community'] });
    const { siteId } = await applySiteFile(store, clock, file);
    const app = await createServiceApp({ store, clock });
    const site = (await store.getSite(siteId!))!;
    const offer = async () => {
      const plans = (await (await app.request(`/member/v1/sites/${site.subdomain}/plans`)).json()) as { publicId: string; highlight?: true; features?: string[] }[];
      const plan = (await listedPlans(store, siteId!)).find((p) => p.key === key)!;
      return plans.find((p) => p.publicId === plan.publicId)!;
    };
    expect(await offer()).toMatchObject({ highlight: true, features: ['Every course', 'The community'] });
    // Exported as written (`svc sites export`).
    const exported = siteFileOf((await store.getSiteDefinition(siteId!))!);
    expect(exported.plans?.find((p) => p.key === key)).toMatchObject({ highlight: true, features: ['Every course', 'The community'] });
    const outcome = await applySiteFile(store, clock, demoSiteFile());
    expect(outcome.lines.map((l) => l.text)).toEqual([expect.stringMatching(/highlight.*features|features.*highlight/)]);
    expect(await offer()).not.toHaveProperty('highlight');
    expect(await offer()).not.toHaveProperty('features');
    await store.close();
  });

  test('a theme reaches GET /config as written; one that leaves the file leaves /config', async () => {
    const store = open();
    const file = demoSiteFile();
    file.site.theme = { accent: '#e11d48', fontFamily: '"Inter", system-ui, sans-serif', colorScheme: 'dark', logoUrl: '/logo.svg', dark: { accent: '#93c5fd' } };
    await applySiteFile(store, clock, file);
    const app = await createServiceApp({ store, clock });
    const config = async () => (await (await app.request('/member/v1/sites/demo/config')).json()) as { theme?: unknown };
    expect((await config()).theme).toEqual({ accent: '#e11d48', fontFamily: '"Inter", system-ui, sans-serif', colorScheme: 'dark', logoUrl: '/logo.svg', dark: { accent: '#93c5fd' } });
    const outcome = await applySiteFile(store, clock, demoSiteFile());
    expect(outcome.lines.map((l) => l.text)).toEqual([expect.stringContaining('theme')]);
    expect(await config()).not.toHaveProperty('theme');
    await store.close();
  });
});
