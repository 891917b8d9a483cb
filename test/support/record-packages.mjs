// Preloaded with `--import` into a child a test starts: appends every file the process loads
// from node_modules (ESM import or require), as `package/path/in/it.js`, to the file
// SVC_RECORD_PACKAGES names, once each.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const out = process.env.SVC_RECORD_PACKAGES;
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const file = /\/node_modules\/(.+)$/.exec(resolved.url)?.[1];
    if (out && file && !seen.has(file)) {
      seen.add(file);
      appendFileSync(out, `${file}\n`);
    }
    return resolved;
  },
});
