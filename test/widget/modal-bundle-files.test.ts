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
import { BUILD_PARTS, repoRoot } from '../../scripts/lib/paths';
import { WIDGET_LOCALES } from '../../src/contract/member';
import { withStaticFiles } from '../../src/service/static-files';
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
  const built = options.flatMap((o) => o.output.map((out) => [o.input, out.file]));
  expect(built).toContainEqual([entry, `dist/${file}`]);
  expect(BUILD_PARTS.widget.outputs).toContain(file);

  const dir = mkdtempSync(join(tmpdir(), 'svc-modal-bundles-'));
  try {
    writeFileSync(join(dir, file), '!function(){}();\n');
    writeFileSync(join(dir, `${file}.map`), '{}');
    const serve = withStaticFiles(() => new Response(null, { status: 404 }), { scriptsDir: dir, examplesDir: dir });
    for (const name of [file, `${file}.map`]) expect((await serve(new Request(`http://svc.test/scripts/${name}`))).status, name).toBe(200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
