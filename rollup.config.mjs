// Builds the browser widget: dist/widgets.js (IIFE, what site owners install) and
// dist/widgets.mjs (ESM). `npm run build` (scripts/build.ts) runs this config, then rolls up
// dist/widgets.d.ts. The service is not bundled: it runs from source under tsx
// (docs/decisions/0001-run-typescript-with-tsx.md).
import { existsSync, readFileSync } from 'node:fs';
import typescript from '@rollup/plugin-typescript';
import terser from '@rollup/plugin-terser';

const entry = 'src/widget/index.ts';
/** The modal bundles' suffixes: '' for English, then one per other locale (modalSuffix in src/widget/modal/host.ts). */
const MODAL_BUNDLES = ['', '.de'];

if (!existsSync(entry)) {
  // Rollup refuses an empty config list; until the widget exists there is nothing to do.
  console.warn(`[svc] ${entry} does not exist yet: nothing to build.`);
  process.exit(0);
}

/**
 * The modal's style sheet is written a rule a line (src/widget/modal/dialog.ts, `STYLE`); the
 * line breaks are whitespace to CSS, and bytes to every download: they go.
 */
const styleLines = {
  name: 'svc-style-lines',
  transform(code, id) {
    if (!id.endsWith('/src/widget/modal/dialog.ts')) return null;
    // The breaks move after the literal, so every line below keeps its number (the source map).
    const joined = code.replace(/const STYLE = `([^`]*)`/, (_, css) => `const STYLE = \`${css.replace(/\n/g, '')}\`${'\n'.repeat(css.split('\n').length - 1)}`);
    return { code: joined, map: null };
  },
};

const plugins = (nameCache) => [
  styleLines,
  // tsconfig.widget.json compiles the widget alone, for the browser only (no Node types).
  // No type check here (`noCheck`): the declarations step before every build type-checks the
  // widget (scripts/lib/declarations.ts), and `npm test` runs tsc; checking each language's
  // bundle again was 1.5 s of every build for the same answer (the output is byte for byte the same).
  typescript({ tsconfig: './tsconfig.widget.json', compilerOptions: { noEmit: false, declaration: false, noCheck: true } }),
  // Internal fields are `_`-prefixed so the minifier may shorten them (STYLE.md, Preact). Each
  // bundle shortens its own: what passes between the core and the modal (src/widget/modal/host.ts)
  // has plain names. The modal's chunks share one bundle's internals, so they share one
  // `nameCache` (the plugin then minifies them one after another): `_body` is the same short
  // name in the chunk that makes a dialog and in the chunks that draw into it. No `module: true`:
  // the plugin sets it for the ESM outputs only; on the IIFE it would let terser treat the
  // bundle's top level as module scope.
  terser({ ecma: 2020, compress: { passes: 3 }, mangle: { properties: { regex: /^_/ } }, ...(nameCache ? { nameCache } : {}) }),
];

/**
 * The owner console's page and style sheet (src/console/index.html, console.css) beside its one
 * script in dist/console/: copied, the style sheet without its comments and indentation. No HTML
 * or CSS plugin: two files do not need one.
 */
const consoleAssets = {
  name: 'svc-console-assets',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'index.html', source: readFileSync('src/console/index.html', 'utf8') });
    const css = readFileSync('src/console/console.css', 'utf8')
      .replace(/\/\*[^]*?\*\//g, '')
      .replace(/\s*\n\s*/g, '\n')
      .trim();
    this.emitFile({ type: 'asset', fileName: 'console.css', source: `${css}\n` });
  },
};

export default [
  {
    input: entry,
    output: [
      // Scripts a page downloads name their maps in a `SourceMap` header (src/service/static-files.ts),
      // not in a comment every visitor downloads (decision 0034).
      { file: 'dist/widgets.js', format: 'iife', sourcemap: 'hidden' },
    ],
    plugins: plugins(),
  },
  // For bundlers: the same widget, started by its exported `start` (src/widget/module.ts), never on import.
  {
    input: 'src/widget/module.ts',
    output: [
      { file: 'dist/widgets.mjs', format: 'es', sourcemap: true },
      // For a CommonJS project's require() (the widget package, packages/widget).
      { file: 'dist/widgets.cjs', format: 'cjs', sourcemap: true },
    ],
    plugins: plugins(),
  },
  // The screens, loaded by widgets.js from its own origin the first time one opens, so a page
  // view that never opens the modal downloads only the runtime: one bundle per language, the same
  // code with that language's words (docs/decisions/0023-modal-catalogues.md). English is
  // widgets-modal.js (and stands in for any locale without words of its own). Each is an ES
  // module (imported by src/widget/modal-loader.ts) whose groups of screens are chunks beside
  // it, `widgets-modal<suffix>-<group>-<hash>.js` (src/widget/modal/screen-chunks.ts): the hash
  // ties an entry to the chunks it was built with, so a cached entry never meets a newer chunk
  // (docs/decisions/0034-modal-chunks.md).
  ...MODAL_BUNDLES.map((suffix) => ({
    input: `src/widget/modal/index${suffix}.ts`,
    // The entry exports the helpers the screens' chunks share (src/widget/modal/base-helpers.ts)
    // so they are in its file; the chunks import more from it (the dialog, the router's
    // helpers), which its signature must allow, or rollup moves everything to a chunk behind a facade.
    preserveEntrySignatures: 'allow-extension',
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: `widgets-modal${suffix}.js`,
      chunkFileNames: `widgets-modal${suffix}-[name]-[hash].js`,
      sourcemap: 'hidden',
    },
    plugins: plugins({}),
  })),
  // The owner console (issue 32), served by svc serve at /console/ (src/service/static-files.ts):
  // one script, its page and its style sheet. An IIFE, as the page loads it with a plain
  // <script defer>; no property mangling (its internals are not a size budget's).
  {
    input: 'src/console/main.ts',
    output: { file: 'dist/console/console.js', format: 'iife', sourcemap: 'hidden' },
    plugins: [
      typescript({ tsconfig: './tsconfig.console.json', compilerOptions: { noEmit: false, declaration: false, noCheck: true } }),
      terser({ ecma: 2020, compress: { passes: 2 } }),
      consoleAssets,
    ],
  },
];
