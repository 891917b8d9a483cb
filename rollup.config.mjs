// Builds the browser widget: dist/widgets.js (IIFE, what site owners install) and
// dist/widgets.mjs (ESM). The service is not bundled: it runs from source under tsx
// (docs/decisions/0001-run-typescript-with-tsx.md).
import { existsSync } from 'node:fs';
import typescript from '@rollup/plugin-typescript';
import terser from '@rollup/plugin-terser';

const entry = 'src/widget/index.ts';

if (!existsSync(entry)) {
  // Rollup refuses an empty config list; until the widget exists there is nothing to do.
  console.warn(`[svc] ${entry} does not exist yet: nothing to build.`);
  process.exit(0);
}

export default {
  input: entry,
  output: [
    { file: 'dist/widgets.js', format: 'iife', sourcemap: true },
    { file: 'dist/widgets.mjs', format: 'es', sourcemap: true },
  ],
  plugins: [
    typescript({ tsconfig: './tsconfig.json', compilerOptions: { noEmit: false, declaration: false } }),
    // Internal fields are `_`-prefixed so the minifier may shorten them (STYLE.md, Preact).
    terser({ ecma: 2020, module: true, mangle: { properties: { regex: /^_/ } } }),
  ],
};
