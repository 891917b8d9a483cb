/**
 * Issue 26: the text of a site file follows the service's one text rule (textProblem,
 * src/service/domain/validation.ts, through src/service/domain/text-schema.ts). One-line text
 * (the site's name, plan names, labels, option values, names of spaces and items, the font list,
 * the sender's name) holds no control character at all, CR and LF included; multi-line text
 * (plan descriptions, tax descriptions, articles: rich text) keeps tab, LF and CRLF and refuses
 * every other control character. Neither holds a lone surrogate. A refusal names the field's
 * place in the file, and nothing reaches the store: on PostgreSQL a NUL used to abort the apply.
 * The JSON Schema generated from the model (schemas/site.json) says the same of controls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { afterEach, describe, expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { applySiteFile } from '../../src/service/site-file/apply';
import { readSiteFile, SiteFileError, type SiteFileProblem } from '../../src/service/site-file/read';
import type { Store } from '../../src/service/store/store';
import { fixtureClock, forEachStore, type StoreFactory } from '../support/admin-fixture';

/** A site file with every kind of owner-written text, as JSON (escapes say which character). */
function siteFile(): Record<string, any> {
  return {
    site: {
      subdomain: 'texts',
      name: 'Texts',
      checkboxLabels: { yes: 'Yes', no: 'No' },
      theme: { fontFamily: '"Inter", sans-serif' },
      mail: { fromName: 'The Texts team' },
    },
    plans: [
      { key: 'free', name: 'Free', type: 'free', description: '<p>Free</p>' },
      {
        key: 'paid',
        name: 'Paid',
        type: 'oneTimePayment',
        description: '<p>Paid</p>',
        billing: { price: 10, taxPercentage: 20, taxDescription: 'VAT' },
      },
    ],
    signupFields: [
      { key: 'role', label: 'Role', type: 'select', options: [{ label: 'Developer', value: 'dev' }, { label: 'Other', value: 'other' }] },
    ],
    library: [{ space: 'Videos', plans: ['free'], items: [{ key: 'intro', name: 'Intro', type: 'article', body: '<p>Hello</p>' }] }],
  };
}

/** The file with `set` applied, read; the problems it is refused with ([] when it reads). */
function problemsOf(set: (file: Record<string, any>) => void): SiteFileProblem[] {
  const file = siteFile();
  set(file);
  try {
    readSiteFile(JSON.stringify(file), 'json', 'texts.json');
    return [];
  } catch (error) {
    if (!(error instanceof SiteFileError)) throw error;
    return error.problems;
  }
}

type Place = [path: string, set: (file: Record<string, any>, text: string) => void];

const ONE_LINE: Place[] = [
  ['site.name', (f, t) => (f.site.name = t)],
  ['site.checkboxLabels.yes', (f, t) => (f.site.checkboxLabels.yes = t)],
  ['site.theme.fontFamily', (f, t) => (f.site.theme.fontFamily = t)],
  ['site.mail.fromName', (f, t) => (f.site.mail.fromName = t)],
  ['plans[0].name', (f, t) => (f.plans[0].name = t)],
  ['plans[1].name', (f, t) => (f.plans[1].name = t)],
  ['signupFields[0].label', (f, t) => (f.signupFields[0].label = t)],
  ['signupFields[0].options[0].label', (f, t) => (f.signupFields[0].options[0].label = t)],
  ['signupFields[0].options[1].value', (f, t) => (f.signupFields[0].options[1].value = t)],
  ['library[0].space', (f, t) => (f.library[0].space = t)],
  ['library[0].items[0].name', (f, t) => (f.library[0].items[0].name = t)],
];
const MULTI_LINE: Place[] = [
  ['plans[0].description', (f, t) => (f.plans[0].description = t)],
  ['plans[1].description', (f, t) => (f.plans[1].description = t)],
  ['plans[1].billing.taxDescription', (f, t) => (f.plans[1].billing.taxDescription = t)],
  ['library[0].items[0].body', (f, t) => (f.library[0].items[0].body = t)],
];

/** Refused everywhere: C0 but tab, LF and CR; DEL; C1; a lone CR; lone surrogates. */
const NEVER = ['\u0000', '\u0001', '\u0007', '\b', '\v', '\f', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\ud800', '\udfff'];
const LINE_BREAKS = ['\t', '\n', '\r\n'];
const show = (s: string) => JSON.stringify(s);

describe('reading a site file', () => {
  test('the example file reads as it is (the rule refuses nothing ordinary)', () => {
    expect(problemsOf(() => undefined)).toEqual([]);
  });

  test.each(ONE_LINE)('%s refuses a NUL, any other control character, CR, LF, tab and a lone surrogate, naming the field', (path, set) => {
    for (const bad of [...NEVER, ...LINE_BREAKS, '\r']) {
      const problems = problemsOf((f) => set(f, `Good${bad}text`));
      // The font list may be told twice: a control is no font-list character either.
      expect([...new Set(problems.map((p) => p.path))], `${path} ${show(bad)}`).toEqual([path]);
      expect(problems.map((p) => p.message).join('; ')).toMatch(/control characters|Unicode/);
    }
    // A line break at the end is one too, though trimming would have hidden it.
    expect([...new Set(problemsOf((f) => set(f, 'Good text\n')).map((p) => p.path))]).toEqual([path]);
  });

  test.each(MULTI_LINE)('%s (rich text) keeps tab, LF and CRLF and refuses every other control character, a lone CR and a lone surrogate', (path, set) => {
    for (const bad of [...NEVER, '\r', 'a\rb']) {
      const problems = problemsOf((f) => set(f, `<p>one${bad}two</p>`));
      expect(problems.map((p) => p.path), `${path} ${show(bad)}`).toEqual([path]);
      expect(problems[0]!.message).toMatch(/control characters other than tab and line breaks|Unicode/);
    }
    expect(problemsOf((f) => set(f, '<p>one</p>\n<p>two\r\n\tthree</p>\n'))).toEqual([]);
  });

  test('text that only looks unusual is accepted: accents, emoji, other scripts, U+00A0', () => {
    const problems = problemsOf((f) => {
      f.site.name = 'Zoë’s Studio 😀';
      f.plans[0].name = 'Ōtsuka 大塚\u00a0Plan';
      f.signupFields[0].options[0].value = 'développeur';
    });
    expect(problems).toEqual([]);
  });

  test('one refusal names every bad field of the file', () => {
    const problems = problemsOf((f) => {
      f.plans[0].name = 'Gold\u0000';
      f.plans[1].description = 'x\u0007';
      f.signupFields[0].options[0].value = 'a\nb';
    });
    expect(problems.map((p) => p.path).sort()).toEqual(['plans[0].name', 'plans[1].description', 'signupFields[0].options[0].value']);
  });
});

describe('the JSON Schema (schemas/site.json) says the same of control characters', () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(repoRoot, 'schemas', 'site.json'), 'utf8')));
  const valid = (set: (f: Record<string, any>) => void) => {
    const file = siteFile();
    set(file);
    return validate(file);
  };

  test('a control character in one-line text, or one other than a line break in rich text, fails it; line breaks in rich text pass', () => {
    expect(valid(() => undefined)).toBe(true);
    for (const [path, set] of ONE_LINE) {
      for (const bad of ['\u0000', '\n', '\u0085']) expect(valid((f) => set(f, `a${bad}b`)), `${path} ${show(bad)}`).toBe(false);
    }
    for (const [path, set] of MULTI_LINE) {
      for (const bad of ['\u0000', '\r', '\u0085']) expect(valid((f) => set(f, `a${bad}b`)), `${path} ${show(bad)}`).toBe(false);
      expect(valid((f) => set(f, 'a\nb\r\n\tc')), path).toBe(true);
    }
  });
});

forEachStore((_name: string, newStore: StoreFactory) => {
  const open: Store[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  test('a NUL in a plan name, a description or an option value is refused before the store sees it: no site, no plan', async () => {
    const store = await newStore();
    open.push(store);
    const clock = fixtureClock(Date.UTC(2026, 2, 2, 12));
    for (const set of [
      (f: Record<string, any>) => (f.plans[0].name = 'Gold\u0000'),
      (f: Record<string, any>) => (f.plans[1].description = '<p>a\u0000b</p>'),
      (f: Record<string, any>) => (f.plans[1].billing.taxDescription = 'VAT\u0000'),
      (f: Record<string, any>) => (f.signupFields[0].options[0].value = 'dev\u0000'),
    ]) {
      const file = siteFile();
      set(file);
      let refused: unknown;
      try {
        await applySiteFile(store, clock, readSiteFile(JSON.stringify(file), 'json', 'texts.json').file);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(SiteFileError);
      expect(await store.getSiteBySubdomain('texts')).toBeUndefined();
    }
    // The same file without the NUL applies on the same store.
    await applySiteFile(store, clock, readSiteFile(JSON.stringify(siteFile()), 'json', 'texts.json').file);
    const site = await store.getSiteBySubdomain('texts');
    expect(site?.name).toBe('Texts');
  });
});
