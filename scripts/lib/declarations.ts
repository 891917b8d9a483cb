/**
 * dist/widgets.d.ts: tsc emits the widget's declarations (tsconfig.types.json) into a temporary
 * directory, api-extractor rolls them into one file (api-extractor.json), and the `declare
 * global` block that api-extractor drops is put back.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import ts from 'typescript';
import { BuildError } from './build-error';
import { writeFileAtomic } from './files';
import { restoreGlobalAugmentations } from './global-augmentation';
import { distDir, repoRoot } from './paths';

function emitDeclarations(outDir: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.types.json'), { outDir }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new BuildError(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!config) throw new BuildError('cannot read tsconfig.types.json');
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const emitted: string[] = [];
  const result = program.emit(undefined, (fileName, text) => {
    writeFileAtomic(fileName, text);
    emitted.push(fileName);
  });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => repoRoot, getNewLine: () => '\n' };
    throw new BuildError(`the widget does not type-check:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
  return emitted;
}

function rollUp(entry: string, rolledUp: string): void {
  const configObjectFullPath = join(repoRoot, 'api-extractor.json');
  const configObject = ExtractorConfig.loadFile(configObjectFullPath);
  configObject.mainEntryPointFilePath = entry;
  configObject.dtsRollup = { ...configObject.dtsRollup, enabled: true, untrimmedFilePath: rolledUp };
  configObject.compiler = {
    ...configObject.compiler,
    overrideTsconfig: { ...configObject.compiler?.overrideTsconfig, files: [entry] },
  };
  const config = ExtractorConfig.prepare({
    configObject,
    configObjectFullPath,
    packageJsonFullPath: join(repoRoot, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: true,
    // "Analysis will use the bundled TypeScript version …": it reads .d.ts only, no news.
    messageCallback: (message) => {
      if (message.messageId === 'console-preamble') message.logLevel = ExtractorLogLevel.None;
    },
  });
  if (!result.succeeded) {
    throw new BuildError(`api-extractor failed with ${result.errorCount} errors and ${result.warningCount} warnings`);
  }
}

/** Writes dist/widgets.d.ts; returns the path relative to the root. */
export function buildDeclarations(): string {
  mkdirSync(distDir, { recursive: true });
  const work = mkdtempSync(join(distDir, '.types-'));
  try {
    const emitted = emitDeclarations(work);
    const rolledUp = join(work, 'widgets.d.ts');
    // The bundlers' entry: the types of widgets.js and the `start` of widgets.mjs (src/widget/module.ts).
    rollUp(join(work, 'widget/module.d.ts'), rolledUp);
    const sources = emitted.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    writeFileAtomic(join(distDir, 'widgets.d.ts'), restoreGlobalAugmentations(readFileSync(rolledUp, 'utf8'), sources));
    return 'dist/widgets.d.ts';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
