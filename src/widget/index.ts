/**
 * widgets.js: what site owners install (spec 1.1). Runs once, on load: finds the service (the
 * configuration's `apiOrigin`, else its own origin), reads `window.Service` and starts the
 * widget. A bundled install imports widgets.mjs instead (./module.ts).
 */
import { httpOrigin } from './api-origin';
import { log } from './diagnostics';
import { scriptOrigin } from './script-origin';
import { startWidget } from './start-widget';

export type * from './public-types';

// The configuration's apiOrigin, else where this script came from.
const configured = (window as { Service?: { apiOrigin?: unknown } }).Service?.apiOrigin;
const apiOrigin = configured === undefined ? scriptOrigin(document) : httpOrigin(configured);
if (apiOrigin) startWidget({ window, apiOrigin });
else log.error('cannot tell where the service is: load widgets.js with a script element, or set window.Service.apiOrigin.');
