/** The MSW request handler: every request to the API origin goes to the service app's fetch. */
import { http } from 'msw';
import type { Hono } from 'hono';

export function serviceHandler(app: Hono, origin: string) {
  return http.all(`${origin}/*`, ({ request }) => app.fetch(request));
}
