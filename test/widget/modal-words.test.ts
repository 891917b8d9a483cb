/**
 * The account's words and protected content's are downloaded with their screens (src/widget/
 * modal/locales/*-account-words.ts and *-content-words.ts, merged into `t` by screen-chunks.ts
 * before one of those screens draws): any other module that read one would show nothing where
 * the word belongs until that group had been opened. Read from the sources: every `t.<word>`
 * outside a group's screens is a word the base holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { deAccount } from '../../src/widget/modal/locales/de-account-words';
import { deBase } from '../../src/widget/modal/locales/de-base';
import { deCard } from '../../src/widget/modal/locales/de-card-words';
import { deChangePlan } from '../../src/widget/modal/locales/de-change-plan-words';
import { dePlans } from '../../src/widget/modal/locales/de-plans-words';
import { deContent } from '../../src/widget/modal/locales/de-content-words';
import { deSignIn } from '../../src/widget/modal/locales/de-sign-in-words';
import { enAccount } from '../../src/widget/modal/locales/en-account-words';
import { enBase } from '../../src/widget/modal/locales/en-base';
import { enCard } from '../../src/widget/modal/locales/en-card-words';
import { enChangePlan } from '../../src/widget/modal/locales/en-change-plan-words';
import { enPlans } from '../../src/widget/modal/locales/en-plans-words';
import { enContent } from '../../src/widget/modal/locales/en-content-words';
import { enSignIn } from '../../src/widget/modal/locales/en-sign-in-words';

const modal = join(repoRoot, 'src/widget/modal');
/** A group's screens: what chunks/<group>.ts re-exports from. */
const screensOf = (group: string) => [...readFileSync(join(modal, `chunks/${group}.ts`), 'utf8').matchAll(/from '\.\.\/(screens\/[\w-]+)'/g)].map((m) => `${m[1]}.ts`);
const sources = readdirSync(modal, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.startsWith('locales'));
/** The words a module reads: `t.word`, and, in one that reads `t[key]`, the words its string literals name. */
const wordsRead = (file: string) => {
  const code = readFileSync(join(modal, file), 'utf8');
  const byKey = /\bt\[\w+\]/.test(code) ? [...code.matchAll(/'(\w+)'/g)].map((m) => m[1]!) : [];
  return new Set([...[...code.matchAll(/\bt\.(\w+)/g)].map((m) => m[1]!), ...byKey]);
};

/** Each group with words of its own: its screens, and its words in English and German. */
const GROUPS = [
  // The account's screens are four chunks (screen-chunks.ts loads the account's words with each).
  // What a membership is, said by the account's summary and the memberships' cards (both account chunks);
  // the member's picture, a form of the account screen's (decision 0039).
  { group: 'account', screens: [...['account', 'account-forms', 'memberships', 'invoices'].flatMap(screensOf), 'screens/membership-lines.ts', 'screens/profile-picture.ts'], en: enAccount, de: deAccount, atLeast: 5 },
  { group: 'content', screens: screensOf('content'), en: enContent, de: deContent, atLeast: 1 },
  { group: 'plans', screens: screensOf('plans'), en: enPlans, de: dePlans, atLeast: 1 },
  { group: 'card', screens: screensOf('saved-card'), en: enCard, de: deCard, atLeast: 1 },
  // Changing plans: a chunk the plan's screen imports, with its words (screens/plan-signup.ts).
  { group: 'change-plan', screens: ['screens/change-plan.ts'], en: enChangePlan, de: deChangePlan, atLeast: 1 },
  // Logging in's words are the mailed links' too (screen-chunks.ts loads them with both groups).
  // The code's screen too: every module that imports it loads logging in's words with it (register.ts, account-forms.ts).
  { group: 'sign-in', screens: [...screensOf('sign-in'), ...screensOf('links'), 'screens/code.ts'], en: enSignIn, de: deSignIn, atLeast: 3 },
];

test.each(GROUPS)('the $group group is its screens, and they read every word of its own', ({ group, screens, en, atLeast }) => {
  expect(screens).toContain(`screens/${({ 'sign-in': 'login', card: 'payment-method' } as Record<string, string>)[group] ?? group}.ts`);
  expect(screens.length).toBeGreaterThanOrEqual(atLeast);
  const read = new Set(screens.flatMap((file) => [...wordsRead(file)]));
  // `errors` is the one key every catalogue shares: a group's messages join the base's (screen-chunks.ts), read by errorText.
  const own = Object.keys(en).filter((word) => word !== 'errors');
  expect(own.filter((word) => read.has(word))).toEqual(own);
});

test.each(GROUPS.filter((g) => 'errors' in g.en))('the $group group’s error messages are in no other catalogue, in either language', ({ en, de }) => {
  const mine = Object.keys((en as { errors: object }).errors).sort();
  expect(Object.keys((de as { errors: object }).errors).sort()).toEqual(mine);
  for (const other of [enBase, deBase, ...GROUPS.filter((g) => g.en !== en).flatMap((g) => [g.en, g.de])]) {
    expect(Object.keys((other as { errors?: object }).errors ?? {}).filter((code) => mine.includes(code))).toEqual([]);
  }
});

/**
 * The account forms' titles are both the account's words and logging in's, which the mailed
 * links' screens (a password reset, an e-mail change) load: in two groups, the same in each.
 */
const IN_TWO = { words: ['changeEmail', 'changePassword', 'newPassword'], groups: ['account', 'sign-in'] };

for (const { group, screens, en } of GROUPS) {
  test.each(sources.filter((file) => !screens.includes(file)))(`%s reads no word of the ${group} group’s`, (file) => {
    // A word that a group of this file's holds too is loaded for it.
    const loaded = new Set(GROUPS.filter((g) => g.screens.includes(file)).flatMap((g) => Object.keys(g.en)));
    const own = new Set(Object.keys(en).filter((word) => word !== 'errors' && !loaded.has(word)));
    expect([...wordsRead(file)].filter((word) => own.has(word))).toEqual([]);
  });
}

test('every module that imports the code’s screen loads logging in’s words with it, or is a screen that has them', () => {
  const signIn = GROUPS.find((g) => g.group === 'sign-in')!.screens;
  const importers = sources.filter((file) => file !== 'screens/code.ts' && /(import\(|from )'\.\/code'/.test(readFileSync(join(modal, file), 'utf8')));
  expect(importers.length).toBeGreaterThanOrEqual(3);
  for (const file of importers) {
    const code = readFileSync(join(modal, file), 'utf8');
    const bare = [...code.matchAll(/import\('\.\/code'\)(, ctx\.words\?\.signIn\(\))?/g)].filter((m) => !m[1]);
    if (!signIn.includes(file)) expect(bare.length + (/from '\.\/code'/.test(code) ? 1 : 0), file).toBe(0);
  }
});

test('each language splits its words the same way, and none is in two parts', () => {
  expect(Object.keys(deBase).sort()).toEqual(Object.keys(enBase).sort());
  for (const { en, de } of GROUPS) {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    // `errors` excepted: its messages are split by code (the test above).
    expect(Object.keys(enBase).filter((word) => word in en && word !== 'errors')).toEqual([]);
  }
  const all = GROUPS.flatMap(({ en }) => Object.keys(en)).filter((word) => word !== 'errors');
  expect([...new Set(all.filter((word, i) => all.indexOf(word) !== i))].sort()).toEqual([...IN_TWO.words].sort());
  const holders = GROUPS.filter((g) => IN_TWO.words.some((word) => word in g.en));
  expect(holders.map((g) => g.group)).toEqual(IN_TWO.groups);
  for (const word of IN_TWO.words) {
    for (const language of ['en', 'de'] as const) {
      const [a, b] = holders.map((g) => (g[language] as Record<string, unknown>)[word]);
      expect(a, `${word} in ${language}`).toBe(b);
    }
  }
});

test('every word of the base is read by some screen (a word no screen reads is bytes every page downloads)', () => {
  const read = new Set(sources.flatMap((file) => [...wordsRead(file)]));
  // `t.errors[code]` reads the error words by the service's code (screen.ts's errorText).
  expect(Object.keys(enBase).filter((word) => !read.has(word))).toEqual([]);
});
