import type { MemberApiErrorBody } from '../contract/member';
import { networkError, serviceError } from './errors';
import { isObject } from './json';
import { log } from './diagnostics';

/** One call to the member API; rejects with a ServiceError. `body` is JSON text, or a Blob sent with its own type (a picture). */
export type ApiRequest = <T>(method: string, path: string, token?: string | null, body?: string | Blob) => Promise<T>;

/**
 * A service that never answers must not hold the page: at start-up `Service.ready` may wait for
 * one call, and every promise the page holds settles, as networkError at worst, by then.
 */
export const REQUEST_TIMEOUT_MS = 10_000;

/** The member API's routes that answer a JSON array (docs/member-api.md). */
const LISTS = /^\/(plans|invoices|memberships)$/;

/** Calls `${base}${path}` (base: `…/member/v1/sites/{subdomain}`), never with cookies. */
export function apiClient(win: Window, base: string): ApiRequest {
  return async <T>(method: string, path: string, token?: string | null, body?: string | Blob): Promise<T> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
    let response: Response;
    let data: unknown = null;
    try {
      try {
        response = await win.fetch(base + path, { method, headers, body: body ?? null, credentials: 'omit', signal: abort.signal });
      } catch {
        throw networkError(abort.signal.aborted ? 'The service did not answer in time.' : 'The service could not be reached.');
      }
      if (response.status === 204) return undefined as T;
      try {
        data = await response.json();
      } catch {
        // Not JSON, or cut off: judged below as "not the member API".
      }
    } finally {
      clearTimeout(timer);
    }
    // Only the list routes answer bare arrays; anywhere else an array is not the member API.
    if (response.ok && (isObject(data) || (Array.isArray(data) && method === 'GET' && LISTS.test(path)))) return data as T;
    const all = (data as Partial<MemberApiErrorBody> | null)?.errors;
    const first = all?.[0];
    if (!response.ok && first && typeof first.code === 'string') {
      // A page the site does not answer (CORS): its developer reads which domain it does.
      if (first.code === 'originNotAllowed') log.error(String(first.message));
      const errors = all!.map((e) => ({ path: String(e.path ?? 'base'), code: String(e.code), message: String(e.message) }));
      throw serviceError(first.code, String(first.message), String(first.path ?? 'base'), errors);
    }
    throw networkError(`The service answered ${response.status} with something that is not the member API.`);
  };
}
