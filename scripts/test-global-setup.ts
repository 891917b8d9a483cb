/**
 * vitest globalSetup: builds dist/ (the widget and the mock server bundle) once, before any
 * suite, when it is missing or stale. The type tests, the real-browser suite and every
 * `svc serve` a test starts read it; building here keeps them from each starting the same
 * build at once.
 */
import { ensureBuild } from './lib/ensure-build';
import { ALL_BUILD_PARTS } from './lib/paths';

export default async function setup(): Promise<void> {
  if ((await ensureBuild(ALL_BUILD_PARTS)) === 'failed') console.warn('[test] the build failed: the suites that load dist/ will fail');
}
