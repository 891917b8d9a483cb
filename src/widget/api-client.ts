import type { MemberApiErrorBody } from '../contract/member';
import { networkError, serviceError } from './errors';
import { isObject } from './json';

/** One call to the member API; rejects with a ServiceError. `body` is JSON text. */
export type ApiRequest = <T>(method: string, path: string, token?: string | null, body?: string) => Promise<T>;

/** Calls `${base}${path}` (base: `…/member/v1/sites/{subdomain}`), never with cookies. */
export function apiClient(win: Window, base: string): ApiRequest {
  return async <T>(method: string, path: string, token?: string | null, body?: string): Promise<T> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await win.fetch(base + path, { method, headers, body: body ?? null, credentials: 'omit' });
    } catch {
      throw networkError('The service could not be reached.');
    }
    if (response.status === 204) return undefined as T;
    let data: unknown;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (response.ok && isObject(data)) return data as T;
    const first = (data as Partial<MemberApiErrorBody> | null)?.errors?.[0];
    if (!response.ok && first && typeof first.code === 'string') {
      throw serviceError(first.code, String(first.message), String(first.path ?? 'base'));
    }
    throw networkError(`The service answered ${response.status} with something that is not the member API.`);
  };
}
