/** Requests to the Admin API, one at a time or a whole walk through the pages of a list. */
import type { Hono } from 'hono';
import { expect } from 'vitest';
import { adminRequest, type AdminResponse } from '../../support/admin-request';
import { BASE } from './endpoints';

export interface RequestOptions {
  key?: string;
  headers?: Record<string, string>;
  method?: string;
  query?: Record<string, string | number | Array<string | number>>;
  /** An owner action's body: an object is sent as JSON, a string as it is (adminRequest). */
  body?: unknown;
}

/** Query string from name → value(s), percent-encoded the way a careful client encodes it. */
export function queryString(query: RequestOptions['query'] = {}): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(v))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A request to `{base_url}` + path through the OpenAPI-checking client. */
export function call<T = any>(app: Hono, path: string, options: RequestOptions = {}): Promise<AdminResponse<T>> {
  const { query, ...rest } = options;
  return adminRequest<T>(app, `${BASE}${path}${queryString(query)}`, rest);
}

export interface Walk<T> {
  items: T[];
  pages: Array<AdminResponse<T[]>>;
}

/**
 * Follows X-Next-Cursor until X-Has-More-Items-After is false, checking on every page the
 * paging headers' rules: a full page whenever more follow, a cursor exactly when more follow.
 * Bodies default to `any`: callers check them field by field.
 */
export async function walkPages<T extends { id: number } = any>(
  app: Hono,
  path: string,
  options: RequestOptions & { pageSize?: number } = {},
): Promise<Walk<T>> {
  const { pageSize, headers, ...rest } = options;
  const items: T[] = [];
  const pages: Array<AdminResponse<T[]>> = [];
  let cursor: string | undefined;
  for (let n = 0; n < 10_000; n++) {
    const res = await call<T[]>(app, path, {
      ...rest,
      headers: {
        ...headers,
        ...(pageSize !== undefined && { 'x-items-after': String(pageSize) }),
        ...(cursor !== undefined && { 'x-cursor': cursor }),
      },
    });
    expect(res.status, `${path} page ${n + 1}: ${brief(res.body)}`).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res);
    items.push(...res.body);
    const more = res.headers.get('x-has-more-items-after');
    expect(more === 'true' || more === 'false', `X-Has-More-Items-After is ${more}`).toBe(true);
    const next = res.headers.get('x-next-cursor');
    if (more === 'false') {
      expect(next, 'X-Next-Cursor on the last page').toBeNull();
      expect(res.body.length).toBeLessThanOrEqual(pageSize ?? 25);
      return { items, pages };
    }
    expect(next, 'X-Next-Cursor while more items follow').toEqual(expect.any(String));
    expect(res.body).toHaveLength(pageSize ?? 25);
    cursor = next!;
  }
  throw new Error(`${path}: no last page after 10000 pages`);
}

/** The base64url alphabet cursors and keys are spelled in, in digit order. */
export const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A real cursor: the X-Next-Cursor of the first page of `path`, one item long. */
export async function cursorOf(app: Hono, path: string, key: string, query: Record<string, string> = {}): Promise<string> {
  const res = await call(app, path, { key, query, headers: { 'x-items-after': '1' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cursor = res.headers.get('x-next-cursor');
  expect(cursor, path).toEqual(expect.any(String));
  return cursor!;
}

/** A body short enough for a failure message. */
export function brief(body: unknown): string {
  const text = JSON.stringify(body) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
}

export const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id);
