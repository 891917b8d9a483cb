/**
 * Reading a site file (src/service/site-file/read.ts): a bad file is refused with every problem
 * at once, each with its place in the file (`plans[1].billing.price`) and its line, printed as
 * `FILE:LINE: path: message`; a good one comes back with the defaults filled in.
 */
import { describe, expect, test } from 'vitest';
import { describeProblem, formatOf, readSiteFile, SiteFileError, type SiteFileFormat, type SiteFileProblem } from '../../src/service/site-file/read';

/** The problems reading `text` reports; fails the test when it reads without any. */
function problemsOf(text: string, format: SiteFileFormat = 'yaml', source = 'site.yaml'): SiteFileProblem[] {
  try {
    readSiteFile(text, format, source);
  } catch (error) {
    expect(error).toBeInstanceOf(SiteFileError);
    const e = error as SiteFileError;
    expect(e.source).toBe(source);
    // The message lists each problem as compilers print a place.
    for (const p of e.problems) expect(e.message).toContain(describeProblem(source, p));
    return e.problems;
  }
  throw new Error('the file was read without a problem');
}

const SITE = 'site:\n  subdomain: acme\n  name: Acme\n';

describe('one problem each: its path, its line, a message that says what is wrong', () => {
  const cases: [string, string, { path: string; line: number | undefined; message: RegExp }][] = [
    ['an unknown key', `${SITE}  colour: red\n`, { path: 'site.colour', line: 4, message: /unknown key "colour"/ }],
    ['an unknown top-level key', `${SITE}members: []\n`, { path: 'members', line: 4, message: /unknown key "members"/ }],
    ['a theme colour that is not #rgb or #rrggbb', `${SITE}  theme:\n    accent: red\n`, { path: 'site.theme.accent', line: 5, message: /#rgb or #rrggbb/ }],
    [
      'a theme font that could say more than a font list',
      `${SITE}  theme:\n    radius: 8\n    fontFamily: "x;}body{display:none"\n`,
      { path: 'site.theme.fontFamily', line: 6, message: /font-family list/ },
    ],
    ['a dark accent that is not a colour', `${SITE}  theme:\n    dark:\n      accent: navy\n`, { path: 'site.theme.dark.accent', line: 6, message: /#rgb or #rrggbb/ }],
    ['a logo at an http address', `${SITE}  theme:\n    logoUrl: http://acme.example/logo.png\n`, { path: 'site.theme.logoUrl', line: 5, message: /https address or a path on the site/ }],
    ['a logo on another host by a protocol-relative path', `${SITE}  theme:\n    logoUrl: //evil.example/logo.png\n`, { path: 'site.theme.logoUrl', line: 5, message: /https address or a path on the site/ }],
    ['a logo as script', `${SITE}  theme:\n    logoUrl: "javascript:alert(1)"\n`, { path: 'site.theme.logoUrl', line: 5, message: /https address or a path on the site/ }],
    ['a missing required field (the key’s parent line)', 'site:\n  subdomain: acme\n', { path: 'site.name', line: 1, message: /required/ }],
    [
      'a missing plan type',
      `${SITE}plans:\n  - key: gold\n    name: Gold\n`,
      { path: 'plans[0].type', line: 5, message: /type.*free, oneTimePayment, multiPayment, subscription/ },
    ],
    [
      'a plans key used twice (the second use, naming the first)',
      `${SITE}plans:\n  - { key: gold, name: Gold, type: free }\n  - { key: silver, name: Silver, type: free }\n  - key: gold\n    name: Gold again\n    type: free\n`,
      { path: 'plans[2].key', line: 7, message: /"gold" is used twice \(first at plans\[0\]\.key\)/ },
    ],
    [
      'a library space opened by a plan the file does not define',
      `${SITE}plans:\n  - { key: gold, name: Gold, type: free }\nlibrary:\n  - space: Videos\n    plans:\n      - gold\n      - platinum\n`,
      { path: 'library[0].plans[1]', line: 10, message: /no plan in the file has the key "platinum"/ },
    ],
    [
      'a trial and a sign-up fee together',
      `${SITE}plans:\n  - key: m\n    name: M\n    type: subscription\n    billing:\n      price: 5\n      interval: { count: 1, unit: month }\n      trialPeriodDays: 7\n      signupFee: 3\n`,
      { path: 'plans[0].billing.signupFee', line: 12, message: /trialPeriodDays/ },
    ],
    ['a currency that is not one (site)', `${SITE}  currency: zzz\n`, { path: 'site.currency', line: 4, message: /ISO 4217.*"zzz"/ }],
    [
      'a currency that is not one (plan)',
      `${SITE}plans:\n  - key: o\n    name: O\n    type: oneTimePayment\n    billing:\n      price: 5\n      currency: zzz\n`,
      { path: 'plans[0].billing.currency', line: 10, message: /ISO 4217.*"zzz"/ },
    ],
    ['a locale the widget does not speak', `${SITE}  locale: fr\n`, { path: 'site.locale', line: 4, message: /en or de.*"fr"/ }],
    [
      'a price with more decimals than the currency has',
      `${SITE}plans:\n  - key: o\n    name: O\n    type: oneTimePayment\n    billing: { price: 19.999 }\n`,
      { path: 'plans[0].billing.price', line: 8, message: /19\.999 has more decimals than USD has \(2\)/ },
    ],
    [
      'a yen price with decimals',
      `site:\n  subdomain: acme\n  name: Acme\n  currency: jpy\nplans:\n  - key: o\n    name: O\n    type: oneTimePayment\n    billing:\n      price: 1500.5\n`,
      { path: 'plans[0].billing.price', line: 10, message: /JPY has \(0\)/ },
    ],
    [
      'a sign-up fee with more decimals than the plan’s own currency has',
      `${SITE}plans:\n  - key: m\n    name: M\n    type: multiPayment\n    billing:\n      price: 10\n      currency: kwd\n      interval: { count: 1, unit: month }\n      paymentCountRequired: 3\n      signupFee: 1.2345\n`,
      { path: 'plans[0].billing.signupFee', line: 13, message: /KWD has \(3\)/ },
    ],
    ['YAML that does not parse (tab indentation)', 'site:\n  subdomain: acme\n\tname: Acme\n', { path: '', line: 3, message: /[Tt]ab/ }],
    ['YAML that does not parse (a compact nested mapping)', 'site:\n  subdomain: acme\n  name: Acme: Corp\n', { path: '', line: 3, message: /./ }],
    ['a key used twice in one mapping', `${SITE}  name: Acme again\n`, { path: '', line: 4, message: /unique/ }],
  ];
  test.each(cases)('%s', (_label, text, expected) => {
    const problems = problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toEqual({ path: expected.path, line: expected.line, message: expect.stringMatching(expected.message) });
  });

  test('a value of the wrong type says what type it should be, not that it is missing', () => {
    const problems = problemsOf(`${SITE}  adminApi: "yes"\nplans:\n  - { key: f, name: F, type: free, isPublic: 1 }\n`);
    expect(problems.map((p) => [p.path, p.line])).toEqual([
      ['site.adminApi', 4],
      ['plans[0].isPublic', 6],
    ]);
    for (const p of problems) {
      expect(p.message).not.toMatch(/required/);
      expect(p.message).toMatch(/boolean/);
    }
  });

  test('an empty file, or one of comments alone, needs a site', () => {
    for (const text of ['', '\n\n', '# nothing here yet\n']) {
      const problems = problemsOf(text);
      expect(problems).toEqual([{ path: '', message: expect.stringMatching(/empty.*site/) }]);
    }
    expect(problemsOf('{}\n', 'json', 'site.json')).toEqual([expect.objectContaining({ path: 'site', message: expect.stringMatching(/required/) })]);
  });
});

test('every problem of a file at once, in file order, each `FILE:LINE: path: message`', () => {
  const text = [
    'site:', //                                   1
    '  subdomain: acme', //                       2
    '  locale: fr', //                            3
    '  colour: red', //                           4
    'plans:', //                                  5
    '  - key: gold', //                           6
    '    name: Gold', //                          7
    '    type: subscription', //                  8
    '    billing:', //                            9
    '      price: 9.999', //                      10
    '      interval: { count: 1, unit: month }', // 11
    '      trialPeriodDays: 14', //               12
    '      signupFee: 5', //                      13
    '  - key: gold', //                           14
    '    name: Gold two', //                      15
    '    type: oneTimePayment', //                16
    '    billing: { price: 5, currency: zzz }', // 17
    '  - key: yen', //                            18
    '    name: Yen', //                           19
    '    type: oneTimePayment', //                20
    '    billing: { price: 0.5, currency: JPY }', // 21
    'library:', //                                22
    '  - space: Videos', //                       23
    '    plans: [gold, platinum]', //             24
    '',
  ].join('\n');
  let error: SiteFileError | undefined;
  try {
    readSiteFile(text, 'yaml', 'acme.yaml');
  } catch (e) {
    error = e as SiteFileError;
  }
  expect(error).toBeInstanceOf(SiteFileError);
  expect(error!.problems.map((p) => [p.line, p.path])).toEqual([
    [1, 'site.name'],
    [3, 'site.locale'],
    [4, 'site.colour'],
    [10, 'plans[0].billing.price'],
    [13, 'plans[0].billing.signupFee'],
    [14, 'plans[1].key'],
    [17, 'plans[1].billing.currency'],
    [21, 'plans[2].billing.price'],
    [24, 'library[0].plans[1]'],
  ]);
  const lines = error!.message.split('\n');
  expect(lines[0]).toBe('acme.yaml: 9 problems');
  expect(lines.slice(1).map((l) => l.trim())).toEqual(error!.problems.map((p) => `acme.yaml:${p.line}: ${p.path}: ${p.message}`));
  expect(lines[2]).toMatch(/^ {2}acme\.yaml:3: site\.locale: /);
});

// Issue 27: zod skipped a plan's cross-field rules once any of its fields was wrong, so the
// exclusive trial and sign-up fee (spec 2.2) was named only after the price was mended.
test('a plan\'s cross-field rules are named beside its other problems in one reading, each with its line', () => {
  const text = [
    ...SITE.trimEnd().split('\n'), //             1-3
    'plans:', //                                  4
    '  - key: gold', //                           5
    '    name: Gold', //                          6
    '    type: subscription', //                  7
    '    billing:', //                            8
    '      price: -5', //                         9
    '      currency: usd', //                     10
    '      interval: { count: 1, unit: year }', // 11
    '      trialPeriodDays: 14', //               12
    '      signupFee: 5', //                      13
    '      taxDescription: VAT', //               14
    '      billingDate: { day: 31, month: 2 }', // 15
    '  - key: course', //                         16
    '    name: Course', //                        17
    '    type: multiPayment', //                  18
    '    billing: { price: "ten", currency: usd, interval: { count: 1, unit: month }, paymentCountRequired: 3, trialPeriodDays: 7, signupFee: 1 }', // 19
    '',
  ].join('\n');
  expect(problemsOf(text).map((p) => [p.line, p.path, p.message])).toEqual([
    [9, 'plans[0].billing.price', expect.stringMatching(/>=0/)],
    [13, 'plans[0].billing.signupFee', 'cannot be combined with trialPeriodDays'],
    [14, 'plans[0].billing.taxDescription', 'is allowed only together with taxPercentage'],
    [15, 'plans[0].billing.billingDate.day', 'month 2 has no day 31'],
    [19, 'plans[1].billing.price', expect.stringMatching(/number/)],
    [19, 'plans[1].billing.signupFee', 'cannot be combined with trialPeriodDays'],
  ]);
});

test('an option value used twice is named beside the field\'s other problems', () => {
  const text = `${SITE}signupFields:\n  - key: role\n    label: Role\n    type: select\n    options:\n      - { label: 7, value: a }\n      - { label: A again, value: a }\n`;
  expect(problemsOf(text).map((p) => [p.line, p.path])).toEqual([
    [9, 'signupFields[0].options[0].label'],
    [10, 'signupFields[0].options[1].value'],
  ]);
});

test('a site\'s name or sender name with an invisible character (a bidi override, a zero-width space) is refused', () => {
  const text = 'site:\n  subdomain: acme\n  name: "Acme\\u202Eevil"\n  mail:\n    fromName: "Ac\\u200Bme"\n';
  expect(problemsOf(text).map((p) => [p.line, p.path, p.message])).toEqual([
    [3, 'site.name', expect.stringMatching(/invisible/)],
    [5, 'site.mail.fromName', expect.stringMatching(/invisible/)],
  ]);
});

test('a cross-field rule waits for the fields it reads: a wrong interval is named, not a billing date it cannot judge', () => {
  const text = `${SITE}plans:\n  - { key: p, name: P, type: subscription, billing: { price: 5, currency: usd, interval: monthly, billingDate: { day: 31 } } }\n`;
  expect(problemsOf(text).map((p) => p.path)).toEqual(['plans[0].billing.interval']);
});

describe('JSON files', () => {
  test('a .json name reads as JSON; anything else as YAML', () => {
    expect(formatOf('site.json')).toBe('json');
    expect(formatOf('SITE.JSON')).toBe('json');
    expect(formatOf('site.yaml')).toBe('yaml');
    expect(formatOf('site.yml')).toBe('yaml');
    expect(formatOf('-')).toBe('yaml');
  });

  test('problems in a JSON file have their lines too', () => {
    const text = JSON.stringify(
      {
        site: { subdomain: 'acme', name: 'Acme', currency: 'zzz' },
        plans: [
          { key: 'gold', name: 'Gold', type: 'oneTimePayment', billing: { price: 1, bogus: true } },
          { key: 'gold', name: 'Again', type: 'free' },
        ],
      },
      null,
      2,
    );
    const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    expect(problemsOf(text, 'json', 'acme.json')).toEqual([
      { path: 'site.currency', line: lineOf('"zzz"'), message: expect.stringMatching(/ISO 4217/) },
      { path: 'plans[0].billing.bogus', line: lineOf('"bogus"'), message: 'unknown key "bogus"' },
      { path: 'plans[1].key', line: lineOf('"Again"') - 1, message: expect.stringMatching(/used twice/) },
    ]);
  });

  test('a good JSON file reads like the same YAML', () => {
    const json = readSiteFile('{ "$schema": "https://x.example/site.json", "site": { "subdomain": "acme", "name": "Acme" }, "plans": [{ "key": "f", "name": "F", "type": "free" }] }', 'json', 'a.json');
    const yaml = readSiteFile(`${SITE}plans:\n  - { key: f, name: F, type: free }\n`, 'yaml', 'a.yaml');
    const { $schema, ...rest } = json.file;
    expect($schema).toBe('https://x.example/site.json');
    expect(rest).toEqual(yaml.file);
  });

  test.each([
    ['YAML block style', SITE, 1],
    ['a comment', '# the site\n{ "site": { "subdomain": "acme", "name": "Acme" } }\n', 1],
    ['a trailing comma', '{\n  "site": {\n    "subdomain": "acme",\n    "name": "Acme",\n  }\n}\n', 5],
    ['single quotes', "{\n  'site': { 'subdomain': 'acme', 'name': 'Acme' }\n}\n", 2],
    ['an unquoted key', '{\n  "site": {\n    subdomain: "acme", "name": "Acme" }\n}\n', 3],
  ])('a .json file with %s is refused as not JSON, with the line', (_label, text, line) => {
    const problems = problemsOf(text, 'json', 'acme.json');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: '', message: expect.stringMatching(/JSON/) });
    expect(problems[0]!.line).toBe(line);
    // The same text in a .yaml file is fine: YAML reads all of it.
    expect(() => readSiteFile(text, 'yaml', 'acme.yaml')).not.toThrow();
  });
});

describe('good files', () => {
  test('the defaults: currency usd, locale en, Admin API on, the test processor, no member menu, stay after registering; plans enabled, public, never expiring; fields optional; empty lists', () => {
    const { file } = readSiteFile(
      `${SITE}plans:\n  - { key: f, name: F, type: free }\n  - { key: o, name: O, type: oneTimePayment, billing: { price: 5 } }\n` +
        'signupFields:\n  - { key: c, label: Company, type: text }\nlibrary:\n  - space: Videos\n',
      'yaml',
      'acme.yaml',
    );
    expect(file).toStrictEqual({
      site: { subdomain: 'acme', name: 'Acme', currency: 'usd', locale: 'en', adminApi: true, memberMenu: false, afterRegistration: 'stay' },
      payments: { processor: 'test' },
      plans: [
        { key: 'f', name: 'F', type: 'free', status: 'enabled', isPublic: true, expiration: { mode: 'none' } },
        { key: 'o', name: 'O', type: 'oneTimePayment', status: 'enabled', isPublic: true, expiration: { mode: 'none' }, billing: { price: 5 } },
      ],
      signupFields: [{ key: 'c', label: 'Company', type: 'text', required: false }],
      library: [{ space: 'Videos', plans: [], items: [] }],
      webhooks: [],
    });
    expect(readSiteFile(SITE, 'yaml', 'acme.yaml').file).toMatchObject({ plans: [], signupFields: [], library: [], webhooks: [] });
  });

  test('currencies and locales in capitals are accepted and kept lower-case; addresses are normalized', () => {
    const { file } = readSiteFile(
      'site:\n  subdomain: acme\n  name: Acme\n  currency: EUR\n  locale: DE\n  afterRegistration: HTTPS://Acme.Example.com/Welcome\n' +
        'plans:\n  - { key: o, name: O, type: oneTimePayment, billing: { price: 5, currency: GBP }, welcomeUrl: /hello }\n',
      'yaml',
      'acme.yaml',
    );
    expect(file.site).toMatchObject({ currency: 'eur', locale: 'de', afterRegistration: 'https://acme.example.com/Welcome' });
    expect(file.plans[0]).toMatchObject({ billing: { price: 5, currency: 'gbp' }, welcomeUrl: '/hello' });
  });

  test('prices the currency can hold: two decimals for usd, none for jpy, three for kwd', () => {
    const plan = (price: number, currency: string) =>
      `${SITE}plans:\n  - { key: o, name: O, type: oneTimePayment, billing: { price: ${price}, currency: ${currency} } }\n`;
    for (const [price, currency] of [[19.99, 'usd'], [1500, 'JPY'], [1.234, 'kwd'], [0.1, 'eur']] as const) {
      expect(() => readSiteFile(plan(price, currency), 'yaml', 'acme.yaml'), `${price} ${currency}`).not.toThrow();
    }
  });

  test('lineOf finds a place in the file for problems found later (a plan’s type)', () => {
    const read = readSiteFile(`${SITE}plans:\n  - key: f\n    name: F\n    type: free\n`, 'yaml', 'acme.yaml');
    expect(read.lineOf(['plans', 0, 'type'])).toBe(7);
    expect(read.lineOf(['plans', 0])).toBe(5);
    expect(read.lineOf(['site', 'name'])).toBe(3);
  });

  test('the demo site file reads without a problem', async () => {
    const { readFileSync } = await import('node:fs');
    const { DEMO_SITE_FILE } = await import('../../src/service/seed/demo-site-file');
    const { file } = readSiteFile(readFileSync(DEMO_SITE_FILE, 'utf8'), 'yaml', DEMO_SITE_FILE);
    expect(file.site.subdomain).toBe('demo');
    expect(new Set(file.plans.map((p) => p.type))).toEqual(new Set(['free', 'oneTimePayment', 'multiPayment', 'subscription']));
  });
});

test('a logo at an https address or a path on the site is read as written', () => {
  for (const logo of ['https://cdn.acme.example/logo.svg', '/images/logo.png']) {
    expect(readSiteFile(`${SITE}  theme:\n    logoUrl: ${logo}\n`, 'yaml', 'site.yaml').file.site.theme).toEqual({ logoUrl: logo });
  }
});
