/**
 * Every locale a site may have (WIDGET_LOCALES) has its screens' bundle everywhere one is named
 * (docs/decisions/0023-modal-catalogues.md): its entry source, the widget's tsconfig, the rollup
 * config's outputs, the build's list of outputs (staleness), and the files the service serves at
 * /scripts/. A language added in one place and forgotten in another fails here, not on a site.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile } from 'rollup/loadConfigFile';
import { expect, test } from 'vitest';
import { modalDownloads } from '../../scripts/lib/modal-chunks';
import { BUILD_PARTS, distDir, repoRoot } from '../../scripts/lib/paths';
import { WIDGET_LOCALES } from '../../src/contract/member';
import { MODAL_CHUNK_FILE, withStaticFiles } from '../../src/service/static-files';
import { modalSuffix } from '../../src/widget/modal/host';

const bundles = WIDGET_LOCALES.map((locale) => ({ locale, suffix: modalSuffix(locale), file: `widgets-modal${modalSuffix(locale)}.js` }));

test('English is widgets-modal.js; every other locale has its own suffix', () => {
  expect(bundles.find((b) => b.locale === 'en')!.file).toBe('widgets-modal.js');
  expect(new Set(bundles.map((b) => b.file)).size).toBe(WIDGET_LOCALES.length);
});

test.each(bundles)('$locale: $file has an entry, is compiled, built, counted as an output and served', async ({ suffix, file }) => {
  const entry = `src/widget/modal/index${suffix}.ts`;
  expect(existsSync(join(repoRoot, entry)), entry).toBe(true);
  const tsconfig = readFileSync(join(repoRoot, 'tsconfig.widget.json'), 'utf8');
  expect(tsconfig).toContain(`"${entry}"`);
  const { options } = await loadConfigFile(join(repoRoot, 'rollup.config.mjs'), {});
  // An ES module in dist/, its groups of screens chunks beside it (decision 0034).
  const built = options.flatMap((o) => o.output.map((out) => [o.input, out.file ?? `${out.dir}/${String(out.entryFileNames)}`]));
  expect(built).toContainEqual([entry, `dist/${file}`]);
  expect(BUILD_PARTS.widget.outputs).toContain(file);

  const dir = mkdtempSync(join(tmpdir(), 'svc-modal-bundles-'));
  try {
    const chunk = `widgets-modal${suffix}-account-AbC_12-x.js`;
    for (const name of [file, `${file}.map`, chunk, `${chunk}.map`]) writeFileSync(join(dir, name), 'export {};\n');
    const serve = withStaticFiles(() => new Response(null, { status: 404 }), { scriptsDir: dir, examplesDir: dir });
    for (const name of [file, `${file}.map`, chunk, `${chunk}.map`]) expect((await serve(new Request(`http://svc.test/scripts/${name}`))).status, name).toBe(200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the scripts a page downloads name their source maps in a SourceMap header, not in a comment each visitor downloads', async () => {
  const serve = withStaticFiles(() => new Response(null, { status: 404 }), { scriptsDir: distDir, examplesDir: distDir });
  const { groups } = modalDownloads(distDir, 'widgets-modal.js');
  const chunk = [...groups.values()].flat().find((name) => name.includes('-join-'))!;
  for (const name of ['widgets.js', ...bundles.map((b) => b.file), chunk]) {
    const res = await serve(new Request(`http://svc.test/scripts/${name}`));
    expect(res.headers.get('sourcemap'), name).toBe(`${name}.map`);
    expect(await res.text(), name).not.toContain('sourceMappingURL');
    const map = await serve(new Request(`http://svc.test/scripts/${name}.map`));
    expect((await map.json()) as { file: string }, name).toMatchObject({ file: name });
  }
});

test.each(bundles)('$locale: $file imports its groups of screens only when one is drawn, each chunk as served', ({ file }) => {
  const { base, groups } = modalDownloads(distDir, file);
  // The base: the entry and what it imports at once; no group among them (an import of a
  // screen instead of its wrapper in screen-chunks.ts would pull its group in).
  expect(base[0]).toBe(file);
  // One file: the helpers the chunks share are in the entry's own (src/widget/modal/base-helpers.ts),
  // not a second download beside it compressed from nothing, nor behind a facade.
  expect(base).toEqual([file]);
  expect(readFileSync(join(distDir, file), 'utf8').length).toBeGreaterThan(20_000);
  const GROUPS = ['account', 'account-forms', 'change-plan', 'content', 'invoices', 'join', 'links', 'memberships', 'plans', 'saved-card', 'sign-in'];
  expect(base.filter((name) => GROUPS.some((group) => name.includes(`-${group}-`)))).toEqual([]);
  const names = [...groups.keys()].filter((key) => !key.includes(' > ')).map((name) => new RegExp(`-(${GROUPS.join('|')})-[\\w-]{8}\\.js$`).exec(name)?.[1]).sort();
  expect(names).toEqual(GROUPS);
  // The account's words, and protected content's, come with their screens (src/widget/modal/locales/*-<group>-words.ts).
  for (const [group, words] of [['account', 'account'], ['account-forms', 'account'], ['memberships', 'account'], ['invoices', 'account'], ['content', 'content'], ['sign-in', 'sign-in'], ['links', 'sign-in'], ['plans', 'plans'], ['saved-card', 'card'], ['change-plan', 'change-plan']]) {
    const screens = groups.get([...groups.keys()].find((key) => new RegExp(`-${group}-[\\w-]{8}\\.js$`).test(key))!)!;
    expect(screens.some((name) => name.includes(`-${words}-words-`)), group).toBe(true);
  }
  expect(base.filter((name) => name.includes('-words-'))).toEqual([]);
  for (const [group, files] of groups) {
    expect(files).toContain(group.split(' > ').at(-1));
    for (const name of files) {
      expect(name).toMatch(MODAL_CHUNK_FILE);
      expect(name.startsWith(`${file.slice(0, -3)}-`), name).toBe(true); // the language's own chunks
      expect(existsSync(join(distDir, name)), name).toBe(true);
    }
  }
});
