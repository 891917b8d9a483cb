/**
 * Every Admin API request a test makes goes through here: it runs the app with no server
 * (`app.request`) and checks the response against the OpenAPI document before the test sees it.
 */
import type { Hono } from 'hono';
import { validateAgainstOpenApi } from './admin-openapi';

export interface AdminResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function adminRequest<T = any>(
  app: Hono,
  path: string,
  options: { key?: string; headers?: Record<string, string>; method?: string; body?: unknown } = {},
): Promise<AdminResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  // A string is sent as it is (a test of bad bodies); anything else as JSON.
  const sent = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  if (sent !== undefined && typeof options.body !== 'string') headers['content-type'] ??= 'application/json';
  const response = await app.request(path, { method, headers, ...(sent !== undefined && { body: sent }) });
  const text = await response.text();
  const body = text === '' ? undefined : JSON.parse(text);
  const result = { status: response.status, headers: response.headers, body };
  validateAgainstOpenApi(method, path, result);
  return result;
}
