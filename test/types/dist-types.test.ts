/**
 * dist/widgets.d.ts as a site owner gets it: one file, typed events on `document` and a typed
 * `window.Service`. test/types/ is a small TypeScript project that knows nothing but that file;
 * its `@ts-expect-error` lines are the uses that must not compile (an unused one is an error).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, expect, test } from 'vitest';
import { ensureBuild } from '../../scripts/lib/ensure-build';
import { distDir, widgetEntry } from '../../scripts/lib/paths';

const widgetExists = existsSync(widgetEntry);
if (!widgetExists) console.warn('[test/types] src/widget/index.ts does not exist yet: the dist type tests are skipped');

beforeAll(async () => {
  if (widgetExists) expect(await ensureBuild(['widget'])).not.toBe('failed');
}, 120_000);

test.skipIf(!widgetExists)('dist/widgets.d.ts is one self-contained file that keeps the global augmentation', () => {
  const dts = readFileSync(join(distDir, 'widgets.d.ts'), 'utf8');
  expect(dts).not.toMatch(/\bfrom\s+['"]\.{1,2}\//); // rolled up: no relative imports left
  expect(dts).not.toMatch(/\bimport\(['"]\.{1,2}\//);
  expect(dts).toMatch(/declare global \{[\s\S]*interface DocumentEventMap extends ServiceEventMap[\s\S]*Service: ServiceGlobal;/);
});

test.skipIf(!widgetExists)('a TypeScript project that imports only dist/widgets.d.ts type-checks with zero diagnostics', () => {
  const configPath = join(import.meta.dirname, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
  expect(ts.formatDiagnostics(diagnostics, host)).toBe('');
  // The project really reads the rolled-up file, not the sources.
  const files = program.getSourceFiles().map((f) => f.fileName);
  expect(files).toContain(join(distDir, 'widgets.d.ts').replaceAll('\\', '/'));
  expect(files.filter((f) => f.includes('/src/'))).toEqual([]);
});

test.skipIf(!widgetExists)('every public declaration of dist/widgets.d.ts, and every member of its interfaces, is documented', () => {
  const source = ts.createSourceFile('widgets.d.ts', readFileSync(join(distDir, 'widgets.d.ts'), 'utf8'), ts.ScriptTarget.Latest, true);
  const documented = (node: ts.Node) => ts.getJSDocCommentsAndTags(node).length > 0;
  // The DOM's own interfaces this file adds to: their names are the DOM's, their members ours.
  const augmented = new Set(['DocumentEventMap', 'Window']);
  const undocumented: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isFunctionDeclaration(node)) && node.name) {
      if (!augmented.has(node.name.text) && !documented(node)) undocumented.push(node.name.text);
      if (ts.isInterfaceDeclaration(node)) {
        for (const member of node.members) if (member.name && !documented(member)) undocumented.push(`${node.name.text}.${member.name.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  expect(undocumented).toEqual([]);
});
