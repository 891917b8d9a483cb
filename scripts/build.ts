/**
 * `npm run build`: dist/widgets.js (IIFE), dist/widgets.mjs (ESM), one rolled-up
 * dist/widgets.d.ts, and the mock server for static pages (dist/mock-server.js and
 * dist/mockServiceWorker.js). Arguments name the parts to build (`widget`, `mock`; both when
 * none): `svc serve`, the size bench and the test setup run it for the parts they need when
 * those are missing or stale (scripts/lib/ensure-build.ts). Exit 1 with a message on a build
 * failure or an unknown part; exit 0 and a notice while src/widget/index.ts does not exist yet.
 */
import { existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { BuildError } from './lib/build-error';
import { bundleWidget } from './lib/bundle';
import { buildDeclarations } from './lib/declarations';
import { ALL_BUILD_PARTS, repoRoot, widgetEntry, type BuildPart } from './lib/paths';
import { bundleMockServer } from '../mock-server/bundle';

const say = (line: string) => process.stderr.write(`[build] ${line}\n`);

async function build(parts: readonly BuildPart[]): Promise<string[]> {
  // Outputs carry the time the build started: a source saved while it ran still counts as newer.
  const startedAt = new Date();
  const written: string[] = [];
  if (parts.includes('widget')) {
    // Declarations first: they type-check the widget, so a type error leaves dist/ as it was.
    const declarations = buildDeclarations();
    written.push(...(await bundleWidget()), declarations);
  }
  if (parts.includes('mock')) {
    // The mock server for static pages (examples): the service app in MSW, with no server.
    written.push(...(await bundleMockServer(join(repoRoot, 'dist'))).map((file) => file.slice(repoRoot.length + 1)));
  }
  for (const file of written) utimesSync(join(repoRoot, file), startedAt, startedAt);
  return written;
}

async function main(): Promise<number> {
  process.chdir(repoRoot); // rollup.config.mjs names its paths from the root
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(ALL_BUILD_PARTS as string[]).includes(name));
  if (unknown.length > 0) {
    say(`unknown part ${unknown.join(', ')}: the parts are ${ALL_BUILD_PARTS.join(', ')}`);
    return 1;
  }
  const parts = asked.length > 0 ? (asked as BuildPart[]) : ALL_BUILD_PARTS;
  if (!existsSync(widgetEntry)) {
    say('src/widget/index.ts does not exist yet: nothing to build');
    return 0;
  }
  const started = performance.now();
  try {
    const written = await build(parts);
    say(`built ${written.filter((f) => !f.endsWith('.map')).join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    // Rollup's and the plugins' errors carry a readable message; anything else, its stack.
    const known = error instanceof BuildError || 'code' in (error as object);
    say(`failed: ${known ? (error as Error).message : (error as Error).stack}`);
    return 1;
  }
}

process.exitCode = await main();
