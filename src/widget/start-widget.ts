import { apiClient } from './api-client';
import { attributeEngine } from './attributes/engine';
import { checkboxLabels } from './checkbox-labels';
import { readConfig } from './config';
import { cookieTokenStore } from './cookie-token-store';
import { memberCache } from './member-cache';
import { modalLoader } from './modal-loader';
import { modalEntryKey, modalSuffix, type OpenModal } from './modal/host';
import { modalHost, openRoute } from './router/open-route';
import { takeSvcopen } from './router/svcopen';
import { followSvcopenLinks } from './router/svcopen-links';
import { installApi } from './service-api';
import { Session } from './session';
import { siteConfigLoader } from './site-config';
import { openStorage } from './storage';
import { storageTokenStore } from './token-store';
import { watchSession } from './watchers';

export interface WidgetOptions {
  window: Window;
  /** Where the member API is: the origin widgets.js was loaded from. */
  apiOrigin: string;
}

export interface WidgetHandle {
  /** Checks the member with the service now. */
  refresh(): Promise<void>;
  /** Removes the API, listeners and timers; no event is sent afterwards. Safe to call twice. */
  stop(): void;
}

const idle: WidgetHandle = { refresh: () => Promise.resolve(), stop: () => undefined };

/**
 * Runs the widget on a page: reads `window.Service`, adds the API to it, sends the start-up
 * events. A bad install is reported on the console and nothing else happens.
 */
export function startWidget({ window: win, apiOrigin }: WidgetOptions): WidgetHandle {
  const config = readConfig(win);
  if (!config) return idle;
  const { _target: target, _subdomain: subdomain, _cookieDomain: cookieDomain } = config;
  const storage = openStorage(win);
  const keys = [`svc:${subdomain}:token`, `svc:${subdomain}:member`] as const;
  const request = apiClient(win, `${apiOrigin}/member/v1/sites/${encodeURIComponent(subdomain)}`);
  const tokens = cookieDomain
    ? cookieTokenStore(
        win.document,
        `svc_${encodeURIComponent(subdomain)}_token`,
        cookieDomain,
        win.location.protocol === 'https:',
      )
    : storageTokenStore(storage, keys[0]);
  const session = new Session(win.document, request, tokens, memberCache(storage, keys[1]));
  const loadConfig = siteConfigLoader(request);
  const labels = checkboxLabels(loadConfig, storage, `svc:${subdomain}:labels`);
  // Called only once the widget is ready, when everything below exists.
  const openPath = (path: string) => openRoute(path, session, host, loadModal);
  const { _functions: functions, _uninstall: uninstall } = installApi(target, session, openPath);
  const unwatch = watchSession(win, session, [...keys], !!cookieDomain);
  // The stored login first, then the page drawn for it: both before the browser's next paint.
  session._restore();
  const engine = attributeEngine(win.document, session, labels);
  session._changed = labels._loaded = () => engine._render();
  engine._start();
  const svcopen = takeSvcopen(win);
  const host = modalHost(session, functions, loadConfig);
  // One loader per language's bundle: widgets-modal.js (English), widgets-modal.de.js, …
  const loaders: Record<string, () => Promise<OpenModal>> = {};
  const loadModal = (locale: string) => {
    const suffix = modalSuffix(locale);
    return (loaders[suffix] ??= modalLoader(win.document, `${apiOrigin}/scripts/widgets-modal${suffix}.js`, modalEntryKey(suffix)))();
  };
  let stopped = false;
  const unfollow = followSvcopenLinks(win.document, (path) => {
    if (!session._ready || stopped) return false; // before then, the link loads the page, which opens it
    openPath(path).catch(() => undefined); // reported by the loader
    return true;
  });
  void session._start().then(() => {
    if (svcopen !== null && !stopped) openPath(svcopen).catch(() => undefined);
  });
  return {
    refresh: () => session._refresh(),
    stop() {
      if (stopped) return;
      stopped = true;
      session._stopped = true;
      unwatch();
      unfollow();
      uninstall();
      engine._stop();
    },
  };
}
