import { log } from './diagnostics';

/** The install configuration, checked (spec 1.1, 1.2). */
export interface WidgetConfig {
  /** The page's own `window.Service` object: the widget adds its API to it. */
  _target: Record<string, unknown>;
  _subdomain: string;
  /** Lowercase, without a leading dot. */
  _cookieDomain: string | undefined;
}

function refuse(message: string): null {
  log.error(`${message} The widget does not run.`);
  return null;
}

/** Reads `window.Service`; on a bad install, says what is wrong once and answers null. */
export function readConfig(win: Window): WidgetConfig | null {
  const target = (win as unknown as { Service?: unknown }).Service;
  if (!target || typeof target !== 'object') {
    return refuse('window.Service is missing: define it before loading widgets.js, e.g. window.Service = { subdomain: "yoursite" }.');
  }
  const config = target as Record<string, unknown>;
  if ('ready' in config) return refuse('widgets.js is loaded twice on this page; keep one script element.');
  const { subdomain, cookieDomain } = config;
  if (typeof subdomain !== 'string' || !subdomain.trim()) {
    return refuse('window.Service.subdomain must be your account subdomain, a non-empty string.');
  }
  if (cookieDomain === undefined) return { _target: config, _subdomain: subdomain, _cookieDomain: undefined };
  if (typeof cookieDomain !== 'string' || !cookieDomain.replace(/^\./, '')) {
    return refuse('window.Service.cookieDomain must be a domain name string, e.g. "example.com".');
  }
  const domain = cookieDomain.replace(/^\./, '').toLowerCase();
  const host = win.location.hostname.toLowerCase();
  if (host !== domain && !host.endsWith(`.${domain}`)) {
    return refuse(`window.Service.cookieDomain "${cookieDomain}" does not contain this page's host "${host}".`);
  }
  return { _target: config, _subdomain: subdomain, _cookieDomain: domain };
}
