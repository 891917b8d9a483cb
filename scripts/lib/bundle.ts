/** dist/widgets.js and dist/widgets.mjs, from rollup.config.mjs through rollup's API. */
import { readdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { rollup } from 'rollup';
import { loadConfigFile } from 'rollup/loadConfigFile';
import { writeFileAtomic } from './files';
import { MODAL_CHUNK_FILE } from '../../src/service/static-files';
import { distDir, repoRoot } from './paths';

/** Bundles every output of the config; returns the files written, relative to the root. */
export async function bundleWidget(): Promise<string[]> {
  const { options, warnings } = await loadConfigFile(join(repoRoot, 'rollup.config.mjs'), {});
  warnings.flush();
  const written: string[] = [];
  for (const { output: outputs, ...input } of options) {
    const bundle = await rollup(input);
    try {
      for (const output of outputs) {
        // generate(), not write(): each file goes through writeFileAtomic.
        const { output: files } = await bundle.generate(output);
        const dir = resolve(repoRoot, output.dir ?? join(output.file!, '..'));
        for (const file of files) {
          writeFileAtomic(join(dir, file.fileName), file.type === 'chunk' ? file.code : file.source);
          written.push(join(dir, file.fileName).slice(repoRoot.length + 1));
        }
      }
    } finally {
      await bundle.close();
    }
  }
  // The modal's chunks of earlier builds go (their names carry a hash: each build makes new
  // ones): the entries written now import only this build's.
  const current = new Set(written.map((file) => basename(file)));
  for (const name of readdirSync(distDir)) if (MODAL_CHUNK_FILE.test(name) && !current.has(name)) rmSync(join(distDir, name), { force: true });
  return written;
}
