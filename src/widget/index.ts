/**
 * widgets.js: what site owners install (spec 1.1). Runs once, on load: finds its own origin,
 * reads `window.Service` and starts the widget. The public types are rolled up from here.
 */
import { log } from './diagnostics';
import { scriptOrigin } from './script-origin';
import { startWidget } from './start-widget';

export type * from './public-types';

const apiOrigin = scriptOrigin(document);
if (apiOrigin) startWidget({ window, apiOrigin });
else log.error('cannot tell where widgets.js was loaded from: install it with a script element. The widget does not run.');
