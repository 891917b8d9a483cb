/**
 * The MSW request handlers: the API paths of the origin go to the service app's fetch.
 * Only those: on a static page the same origin also serves the page, widgets.js and the
 * worker itself, which must reach the file server.
 */
import { http } from 'msw';
import type { Hono } from 'hono';

export const API_PATHS = ['/member/v1/*', '/admin/v1/*'] as const;

export function serviceHandlers(app: Hono, origin: string) {
  return API_PATHS.map((path) => http.all(`${origin}${path}`, ({ request }) => app.fetch(request)));
}
