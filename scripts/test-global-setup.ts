/**
 * vitest globalSetup: builds dist/ once, before any suite, when it is missing or stale. The type
 * tests, the real-browser suite and every `svc serve` a test starts read it; building here keeps
 * them from each starting the same build at once.
 */
import { ensureWidgetBuild } from './lib/ensure-build';

export default async function setup(): Promise<void> {
  if ((await ensureWidgetBuild()) === 'failed') console.warn('[test] the widget build failed: the suites that load dist/ will fail');
}
