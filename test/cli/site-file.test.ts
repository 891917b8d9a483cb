/**
 * `svc sites apply`, `svc sites export` and `svc sites list` (src/cli/commands/site-file.ts,
 * sites.ts) as an owner runs them: through `main` with a temporary SQLite file. Changes go to
 * stdout one per line, everything else to stderr; a bad file exits 1 naming each problem with
 * its line, and writes nothing.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../../src/cli/main';
import { DEMO_SITE_FILE, demoSiteFile } from '../../src/service/seed/demo-site-file';
import { openSqliteStore } from '../../src/service/store/sqlite';
import { useTempDatabase } from './harness';

const temp = useTempDatabase('svc-site-file-');
const { svc } = temp;

/** Writes a file in the test's directory and answers its path. */
function file(name: string, text: string): string {
  const path = join(temp.dir(), name);
  writeFileSync(path, text);
  return path;
}

/** Everything the database holds of every site: what must not change when nothing is written. */
async function snapshot(path = temp.db()) {
  const store = openSqliteStore(path);
  try {
    const sites = await store.listSites();
    return { sites, definitions: await Promise.all(sites.map((s) => store.getSiteDefinition(s.id))) };
  } finally {
    await store.close();
  }
}

const ACME = `site:
  subdomain: acme
  name: Acme Courses
  domain: courses.acme.example
  currency: eur
plans:
  - key: free
    name: Free
    type: free
  - key: monthly
    name: Monthly
    type: subscription
    billing: { price: 9, interval: { count: 1, unit: month }, trialPeriodDays: 14 }
signupFields:
  - key: role
    label: Your role
    type: select
    options:
      - { label: Student, value: student }
      - { label: Teacher, value: teacher }
library:
  - space: Lessons
    plans: [free, monthly]
    items:
      - { key: intro, name: Intro, type: video, url: "https://cdn.acme.example/intro.mp4" }
`;

test('sites apply prints one `+` line per new thing on stdout, a summary on stderr, and exits 0; the second run prints nothing and says "no changes"', async () => {
  const path = file('acme.yaml', ACME);
  const first = await svc('sites', 'apply', path);
  expect(first.code).toBe(0);
  expect(first.out).toEqual([
    expect.stringMatching(/^\+ site acme: "Acme Courses" at courses\.acme\.example \(eur, en\)$/),
    expect.stringMatching(/^\+ plan free: /),
    expect.stringMatching(/^\+ plan monthly: "Monthly" \(subscription\)$/),
    expect.stringMatching(/^\+ sign-up field role: /),
    expect.stringMatching(/^\+ space "Lessons": /),
    expect.stringMatching(/^\+ item intro: "Intro" \(video\) in "Lessons"$/),
  ]);
  expect(first.err).toMatch(/site acme \(id 1\) created: 6 created, 0 changed, 0 archived/);
  const written = await snapshot();
  expect(written.sites.map((s) => [s.subdomain, s.name, s.domain, s.defaultCurrency])).toEqual([['acme', 'Acme Courses', 'courses.acme.example', 'eur']]);

  const second = await svc('sites', 'apply', path);
  expect(second).toMatchObject({ code: 0, out: [] });
  expect(second.err).toMatch(/no changes/);
  expect(await snapshot()).toStrictEqual(written);
});

test('a change prints `~` and `-` lines and a summary of what was done', async () => {
  const path = file('acme.yaml', ACME);
  await svc('sites', 'apply', path);
  writeFileSync(path, ACME.replace('price: 9', 'price: 11').replace(/  - key: free\n    name: Free\n    type: free\n/, '').replace('[free, monthly]', '[monthly]'));
  const result = await svc('sites', 'apply', path);
  expect(result.code).toBe(0);
  expect(result.out).toEqual(expect.arrayContaining([
    expect.stringMatching(/^~ plan monthly: billing\.price 9 → 11/),
    expect.stringMatching(/^- plan free: deleted/),
  ]));
  expect(result.out.every((l) => /^[+~-] /.test(l))).toBe(true);
  expect(result.err).toMatch(/site acme updated: /);
});

test('--db names the database instead of SVC_DB', async () => {
  const other = join(temp.dir(), 'other.db');
  const result = await main(['sites', 'apply', file('acme.yaml', ACME), '--db', other], {}, { out: () => undefined, err: () => undefined });
  expect(result).toBe(0);
  expect((await snapshot(other)).sites.map((s) => s.subdomain)).toEqual(['acme']);
  expect((await snapshot()).sites).toEqual([]);
  const out: string[] = [];
  expect(await main(['sites', 'list', '--db', other], {}, { out: (l) => out.push(l), err: () => undefined })).toBe(0);
  expect(out).toEqual(['acme\tAcme Courses\tcourses.acme.example']);
});

test('--dry-run prints the lines and writes nothing: no database file is made, export afterwards finds no site', async () => {
  const path = file('acme.yaml', ACME);
  const dry = await svc('sites', 'apply', path, '--dry-run');
  expect(dry.code).toBe(0);
  expect(existsSync(temp.db())).toBe(false);
  expect(dry.out).toHaveLength(6);
  expect(dry.out.every((l) => l.startsWith('+ '))).toBe(true);
  expect(dry.err).toMatch(/dry run: 6 to create, 0 to change, 0 to archive; nothing written/);
  expect((await snapshot()).sites).toEqual([]);
  const exported = await svc('sites', 'export', 'acme');
  expect(exported).toMatchObject({ code: 1, out: [] });
  expect(exported.err).toMatch(/no site acme/);

  // On an existing site too.
  await svc('sites', 'apply', path);
  const before = await snapshot();
  writeFileSync(path, ACME.replace('Acme Courses', 'Acme Academy'));
  const change = await svc('sites', 'apply', '--dry-run', path);
  expect(change.out).toEqual([expect.stringMatching(/^~ site acme: name "Acme Courses" → "Acme Academy"$/)]);
  expect(await snapshot()).toStrictEqual(before);
});

test('a bad file exits 1 and lists every problem as file:line: path: message; nothing is written', async () => {
  const path = file(
    'bad.yaml',
    [
      'site:', //                                  1
      '  subdomain: acme', //                      2
      '  name: Acme', //                           3
      '  currency: zzz', //                        4
      '  locale: fr', //                           5
      'plans:', //                                 6
      '  - key: gold', //                          7
      '    name: Gold', //                         8
      '    type: subscription', //                 9
      '    billing:', //                           10
      '      price: 5', //                         11
      '      currency: usd', //                    12
      '      interval: { count: 1, unit: month }', // 13
      '      trialPeriodDays: 7', //               14
      '      signupFee: 1', //                     15
      '  - { key: gold, name: Gold, type: free, colour: red }', // 16
      'library:', //                               17
      '  - { space: Lessons, plans: [platinum] }', // 18
      '',
    ].join('\n'),
  );
  const result = await svc('sites', 'apply', path);
  expect(result.code).toBe(1);
  expect(result.out).toEqual([]);
  const problems = result.err.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(`${path}:`) && !l.endsWith('problems'));
  expect(problems).toEqual([
    expect.stringMatching(new RegExp(`^${escape(path)}:4: site\\.currency: .*zzz`)),
    expect.stringMatching(new RegExp(`^${escape(path)}:5: site\\.locale: .*fr`)),
    expect.stringMatching(new RegExp(`^${escape(path)}:15: plans\\[0\\]\\.billing\\.signupFee: `)),
    expect.stringMatching(new RegExp(`^${escape(path)}:16: plans\\[1\\]\\.colour: unknown key`)),
    expect.stringMatching(new RegExp(`^${escape(path)}:16: plans\\[1\\]\\.key: .*used twice`)),
    expect.stringMatching(new RegExp(`^${escape(path)}:18: library\\[0\\]\\.plans\\[0\\]: .*platinum`)),
  ]);
  expect(result.err).toMatch(/6 problems/);
  expect((await snapshot()).sites).toEqual([]);
});

test('a file that is not YAML exits 1 with the line; a .json file that is YAML is refused', async () => {
  const broken = await svc('sites', 'apply', file('broken.yaml', 'site:\n  subdomain: acme\n\tname: Acme\n'));
  expect(broken.code).toBe(1);
  expect(broken.err).toContain(`${join(temp.dir(), 'broken.yaml')}:3: `);
  const yamlAsJson = await svc('sites', 'apply', file('site.json', ACME));
  expect(yamlAsJson.code).toBe(1);
  expect(yamlAsJson.err).toMatch(/not JSON/);
  expect((await snapshot()).sites).toEqual([]);
});

test('a plan’s type change exits 1 naming the line of its `type:`; the database is unchanged', async () => {
  const path = file('acme.yaml', ACME);
  await svc('sites', 'apply', path);
  const before = await snapshot();
  const changed = ACME.replace('Acme Courses', 'Acme Academy').replace(
    '    type: subscription\n    billing: { price: 9, interval: { count: 1, unit: month }, trialPeriodDays: 14 }',
    '    type: oneTimePayment\n    billing: { price: 90 }',
  );
  writeFileSync(path, changed);
  const typeLine = changed.split('\n').indexOf('    type: oneTimePayment') + 1;
  const result = await svc('sites', 'apply', path);
  expect(result.code).toBe(1);
  expect(result.out).toEqual([]);
  expect(result.err).toMatch(new RegExp(`${escape(path)}:${typeLine}: plans\\[1\\]\\.type: plan monthly is a subscription plan`));
  expect(await snapshot()).toStrictEqual(before);
  // A dry run is refused the same way.
  expect((await svc('sites', 'apply', path, '--dry-run')).code).toBe(1);
});

test('a sign-up field’s type change exits 1 with the line of its `type:`', async () => {
  const path = file('acme.yaml', ACME);
  await svc('sites', 'apply', path);
  const before = await snapshot();
  const changed = ACME.replace('    type: select\n    options:\n      - { label: Student, value: student }\n      - { label: Teacher, value: teacher }\n', '    type: text\n');
  writeFileSync(path, changed);
  const result = await svc('sites', 'apply', path);
  expect(result.code).toBe(1);
  expect(result.err).toMatch(new RegExp(`${escape(path)}:${changed.split('\n').indexOf('    type: text') + 1}: signupFields\\[0\\]\\.type: `));
  expect(await snapshot()).toStrictEqual(before);
});

test('sites export of the demo: YAML naming its schema first; applying the output changes nothing', async () => {
  expect((await svc('sites', 'apply', DEMO_SITE_FILE)).code).toBe(0);
  expect((await svc('seed', '--members', '30', '--seed', '2')).code).toBe(0);
  const before = await snapshot();
  const exported = await svc('sites', 'export', 'demo');
  expect(exported.code).toBe(0);
  const text = `${exported.out.join('\n')}\n`;
  expect(text.startsWith('# yaml-language-server: $schema=http://127.0.0.1:8787/schemas/site.json\n')).toBe(true);
  expect(text).toMatch(/^site:\n {2}subdomain: demo\n/m);
  const again = await svc('sites', 'apply', file('demo-export.yaml', text));
  expect(again).toMatchObject({ code: 0, out: [] });
  expect(again.err).toMatch(/no changes/);
  expect(await snapshot()).toStrictEqual(before);

  // By id as well as subdomain; --schema names another schema address.
  const byId = await svc('sites', 'export', '1', '--schema', 'https://svc.example/schemas/site.json');
  expect(byId.out[0]).toBe('# yaml-language-server: $schema=https://svc.example/schemas/site.json');
  expect(byId.out.slice(1)).toEqual(exported.out.slice(1));
});

test('sites export --format json: JSON with $schema; applying it changes nothing', async () => {
  expect((await svc('sites', 'apply', DEMO_SITE_FILE)).code).toBe(0);
  const exported = await svc('sites', 'export', 'demo', '--format', 'json', '--schema', 'https://svc.example/site.json');
  expect(exported.code).toBe(0);
  const json = JSON.parse(exported.out.join('\n'));
  expect(json.$schema).toBe('https://svc.example/site.json');
  expect(json.site).toMatchObject({ subdomain: 'demo', name: 'Demo Academy' });
  expect(json.plans.length).toBeGreaterThan(5);
  const again = await svc('sites', 'apply', file('demo.json', exported.out.join('\n')));
  expect(again).toMatchObject({ code: 0, out: [] });
  expect(again.err).toMatch(/no changes/);
  // And the YAML export is the same site as the JSON one.
  const { parse } = await import('yaml');
  const yaml = parse((await svc('sites', 'export', 'demo')).out.join('\n'));
  const { $schema: _schema, ...rest } = json;
  expect(yaml).toEqual(rest);
});

test('sites export: an unknown site exits 1, a bad --format exits 2', async () => {
  expect(await svc('sites', 'export', 'nope')).toMatchObject({ code: 1, out: [] });
  await svc('sites', 'apply', file('acme.yaml', ACME));
  const bad = await svc('sites', 'export', 'acme', '--format', 'xml');
  expect(bad).toMatchObject({ code: 2, out: [] });
  expect(bad.err).toMatch(/yaml or json/);
});

test('sites list prints subdomain, name and domain, tab-separated, one site a line', async () => {
  const none = await svc('sites', 'list');
  expect(none).toMatchObject({ code: 0, out: [] });
  expect(none.err).toMatch(/no sites yet/);
  await svc('sites', 'apply', file('acme.yaml', ACME));
  await svc('sites', 'apply', DEMO_SITE_FILE);
  await svc('sites', 'create', '--subdomain', 'plain');
  const list = await svc('sites', 'list');
  expect(list.code).toBe(0);
  expect(list.out).toEqual(['acme\tAcme Courses\tcourses.acme.example', 'demo\tDemo Academy\tdemo.localhost', 'plain\tplain\tplain.localhost']);
});

test('sites create refuses a currency that is not one and a locale the widget does not speak (exit 2, naming it)', async () => {
  const currency = await svc('sites', 'create', '--subdomain', 'x', '--currency', 'zzz');
  expect(currency.code).toBe(2);
  expect(currency.err).toMatch(/currency.*zzz/);
  const locale = await svc('sites', 'create', '--subdomain', 'x', '--locale', 'fr');
  expect(locale.code).toBe(2);
  expect(locale.err).toMatch(/locale.*fr/);
  expect((await snapshot()).sites).toEqual([]);
  expect(await svc('sites', 'create', '--subdomain', 'x', '--currency', 'JPY', '--locale', 'de')).toMatchObject({ code: 0, out: ['1'] });
  expect((await snapshot()).sites[0]).toMatchObject({ defaultCurrency: 'jpy', locale: 'de' });
});

test('a file that cannot be read exits 1 with "cannot read"; no file or two files exit 2', async () => {
  const missing = await svc('sites', 'apply', join(temp.dir(), 'nowhere.yaml'));
  expect(missing).toMatchObject({ code: 1, out: [] });
  expect(missing.err).toMatch(/cannot read .*nowhere\.yaml/);
  const directory = await svc('sites', 'apply', temp.dir());
  expect(directory.code).toBe(1);
  expect(directory.err).toMatch(/cannot read/);
  expect((await svc('sites', 'apply')).code).toBe(2);
  expect((await svc('sites', 'apply', 'a.yaml', 'b.yaml')).code).toBe(2);
  expect((await svc('sites', 'apply', file('acme.yaml', ACME), '--force')).code).toBe(2);
  expect((await snapshot()).sites).toEqual([]);
});

test('the demo file applies as `svc serve --demo` would: the example file on disk is what the CLI reads', async () => {
  const result = await svc('sites', 'apply', DEMO_SITE_FILE, '--dry-run');
  expect(result.code).toBe(0);
  expect(result.out[0]).toMatch(/^\+ site demo: "Demo Academy" at demo\.localhost \(usd, en\)$/);
  const planLines = result.out.filter((l) => l.startsWith('+ plan '));
  expect(planLines.map((l) => l.split(':')[0])).toEqual(demoSiteFile().plans.map((p) => `+ plan ${p.key}`));
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
