/**
 * The account's words are downloaded with the account's screens (src/widget/modal/locales/
 * *-account-words.ts, merged into `t` by screen-chunks.ts before one of those screens draws):
 * any other module that read one would show nothing where the word belongs until the account
 * had been opened. Read from the sources: every `t.<word>` outside the account's screens is a
 * word the base holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths';
import { deAccount } from '../../src/widget/modal/locales/de-account-words';
import { deBase } from '../../src/widget/modal/locales/de-base';
import { enAccount } from '../../src/widget/modal/locales/en-account-words';
import { enBase } from '../../src/widget/modal/locales/en-base';

const modal = join(repoRoot, 'src/widget/modal');
/** The account group's screens: what chunks/account.ts re-exports from. */
const accountScreens = [...readFileSync(join(modal, 'chunks/account.ts'), 'utf8').matchAll(/from '\.\.\/(screens\/[\w-]+)'/g)].map((m) => `${m[1]}.ts`);
const sources = readdirSync(modal, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.startsWith('locales'));
const wordsRead = (file: string) => new Set([...readFileSync(join(modal, file), 'utf8').matchAll(/\bt\.(\w+)/g)].map((m) => m[1]!));

test('the account group is its screens, and they read words of their own', () => {
  expect(accountScreens).toContain('screens/account.ts');
  expect(accountScreens.length).toBeGreaterThanOrEqual(4);
  const read = new Set(accountScreens.flatMap((file) => [...wordsRead(file)]));
  expect(Object.keys(enAccount).filter((word) => read.has(word))).toEqual(Object.keys(enAccount));
});

test.each(sources.filter((file) => !accountScreens.includes(file)))('%s reads no word of the account’s', (file) => {
  const accountWords = new Set(Object.keys(enAccount));
  expect([...wordsRead(file)].filter((word) => accountWords.has(word))).toEqual([]);
});

test('each language splits its words the same way, and none is in both parts', () => {
  expect(Object.keys(deAccount).sort()).toEqual(Object.keys(enAccount).sort());
  expect(Object.keys(deBase).sort()).toEqual(Object.keys(enBase).sort());
  expect(Object.keys(enBase).filter((word) => word in enAccount)).toEqual([]);
});
