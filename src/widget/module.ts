/**
 * widgets.mjs: the widget for a page built with a bundler (esbuild, Vite, rollup), where no
 * script element says where the service is. Importing it runs nothing; `start` does, with what
 * `window.Service` would hold and the service's origin:
 *
 *   import { start } from 'widgets.mjs';
 *   start({ subdomain: 'yoursite', apiOrigin: 'https://members.example.com' });
 *
 * The script-element install stays widgets.js (./index.ts).
 */
import { httpOrigin } from './api-origin';
import { log } from './diagnostics';
import type { ServiceConfig } from './public-types';
import { startWidget } from './start-widget';

export type * from './public-types';

/**
 * Starts the widget: `config` becomes `window.Service`, to which the widget adds its API, as
 * the script install does. Refused, with one `[Service]` error, when `apiOrigin` is no http(s)
 * origin or the configuration is bad; a second call on a page is refused as a second script is.
 */
export function start(config: ServiceConfig & { apiOrigin: string }): void {
  const apiOrigin = httpOrigin(config.apiOrigin);
  if (!apiOrigin) {
    log.error(`start({ apiOrigin }) must name the service's http(s) origin, got ${String(config.apiOrigin)}. The widget does not run.`);
    return;
  }
  window.Service = config;
  startWidget({ window, apiOrigin });
}
