/**
 * The Admin API's answers are member data: no browser or proxy keeps one (`cache-control:
 * no-store`), errors (401, 429, …) included. The routes' answers are made with the header
 * (`adminJson`); the API's outermost middleware sets it on every other answer (`noStore`) and
 * leaves these as they are, so their headers are never rebuilt on the way out (the reason is in
 * ../http/security-headers.ts).
 */
import { jsonResponse } from '../http/json';

const made = new WeakSet<Response>();

/** A 200 JSON answer of the Admin API, `cache-control: no-store` included. */
export function adminJson(body: unknown, headers: Record<string, string> = {}): Response {
  const response = jsonResponse(body, 200, { ...headers, 'cache-control': 'no-store' });
  made.add(response);
  return response;
}

/** Sets `cache-control: no-store` on an answer `adminJson` did not make. */
export function noStore(response: Response): void {
  if (!made.has(response)) response.headers.set('cache-control', 'no-store');
}
