/**
 * What a page downloads to draw a screen, read from the built modal bundle itself
 * (dist/widgets-modal<suffix>.js and its chunks, rollup.config.mjs): the entry and what it
 * imports at once (the base), and for each group of screens (a chunk the base imports when one
 * of its screens is drawn: src/widget/modal/screen-chunks.ts) that group's chunk and what it
 * imports at once. The size bench sums them; a test checks that the groups stay out of the base.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

/** `import{a as b}from"./x.js"`, `import"./x.js"`: fetched before the importing chunk runs. */
const STATIC_IMPORT = /\bimport\s*(?:[\w${*][^"'()]*?\bfrom\s*)?["']\.\/([^"']+)["']/g;
/** `import("./x.js")`: fetched when that code runs (a group of screens, on its first screen). */
const DYNAMIC_IMPORT = /\bimport\(\s*["']\.\/([^"']+)["']\s*\)/g;

export interface ModalDownloads {
  /** The entry and every chunk it imports at once: what any screen downloads. */
  base: string[];
  /**
   * Each group's chunk (by its file name; `a > b` for a chunk `b` that a screen of group `a`
   * imports, such as Stripe's card field), with the files drawing such a screen downloads beyond
   * the base.
   */
  groups: Map<string, string[]>;
}

/** The files (in `dir`) that the file `name` imports, statically or dynamically. */
function importsOf(dir: string, name: string, pattern: RegExp): string[] {
  const code = readFileSync(join(dir, name), 'utf8');
  return [...new Set([...code.matchAll(pattern)].map((m) => m[1]!))];
}

/** `name` and every file it imports at once, and they import, in the order first met. */
function staticClosure(dir: string, name: string, into = new Set<string>()): Set<string> {
  if (into.has(name)) return into;
  into.add(name);
  for (const next of importsOf(dir, name, STATIC_IMPORT)) staticClosure(dir, next, into);
  return into;
}

/** The base and the groups of the modal bundle whose entry is `entry` in `dir` (dist/). */
export function modalDownloads(dir: string, entry: string): ModalDownloads {
  const base = staticClosure(dir, entry);
  const groups = new Map<string, string[]>();
  // A group may itself import another when one of its screens asks (a payment screen, the
  // processor's code): that one's download is the importer's plus its own.
  const visit = (files: Iterable<string>, before: Set<string>, chain: string) => {
    for (const file of files) {
      for (const target of importsOf(dir, file, DYNAMIC_IMPORT)) {
        const key = chain ? `${chain} > ${target}` : target;
        if (groups.has(key) || before.has(target)) continue;
        const own = [...staticClosure(dir, target)].filter((f) => !before.has(f));
        groups.set(key, [...before].filter((f) => !base.has(f)).concat(own));
        visit(own, new Set([...before, ...own]), key);
      }
    }
  };
  visit(base, base, '');
  // A group's words (`<locale>-<words>-words` chunks: src/widget/modal/locales/) are imported
  // beside its screens, at once: they count with each group that loads them (WORDS_OF).
  for (const [key, files] of [...groups]) {
    const words = /-[a-z]{2}-([a-z-]+)-words-[\w-]{8}\.js$/.exec(key)?.[1];
    if (!words) continue;
    groups.delete(key);
    const takers = WORDS_OF.get(words) ?? [words];
    for (const [other, theirs] of groups) {
      // Any chunk of the chain takes them: a group's, or one a group's screen imports (joining > change-plan).
      if (takers.some((group) => other.split(' > ').some((file) => new RegExp(`-${group}-[\\w-]{8}\\.js$`).test(file)))) theirs.push(...files.filter((f) => !theirs.includes(f)));
    }
  }
  return { base: [...base], groups };
}

/**
 * Which chunks load which words, read from the modal's sources, where each loader names them:
 * `withWords(ctx, import('./chunks/links'), ctx.words?.signIn())` in screen-chunks.ts is the links
 * group taking the sign-in words, `withWords(ctx, import('./code'), ctx.words?.signIn())` in a
 * screen the code chunk taking them. By the words' file name (`sign-in`), the chunks' (`links`).
 */
const WORDS_OF = (() => {
  const modal = join(repoRoot, 'src/widget/modal');
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const map = new Map<string, string[]>();
  for (const file of readdirSync(modal, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join(modal, file), 'utf8');
    for (const [, chunk, words] of source.matchAll(/import\('\.\/(?:chunks\/)?([\w-]+)'\), ctx\.words\?\.(\w+)\(\)/g)) {
      const key = kebab(words!);
      if (!map.get(key)?.includes(chunk!)) map.set(key, [...(map.get(key) ?? []), chunk!]);
    }
  }
  return map;
})();
