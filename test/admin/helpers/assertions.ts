/** What every Admin API answer must look like: JSON, the error body of spec 7, no nulls. */
import { expect } from 'vitest';
import type { AdminResponse } from '../../support/admin-request';
import { brief } from './requests';

export function expectJson(res: AdminResponse): void {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
}

/** The error body of spec section 7: `{errors: [{path, code, message}, …]}` and nothing else. */
export function expectErrorBody(res: AdminResponse): void {
  expectJson(res);
  expect(res.body).toStrictEqual({ errors: expect.any(Array) });
  const errors = (res.body as { errors: unknown[] }).errors;
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    expect(error).toStrictEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
    const e = error as { path: string; code: string; message: string };
    expect(e.path.length).toBeGreaterThan(0);
    expect(e.code).toMatch(/^[a-z][A-Za-z]*$/);
    expect(e.message.length).toBeGreaterThan(0);
  }
}

/** Status, error body, and one error carrying `code` (and `path` when given). */
export function expectError(res: AdminResponse, status: number, code?: string, path?: string): void {
  expect(res.status, brief(res.body)).toBe(status);
  expectErrorBody(res);
  if (code !== undefined) {
    expect((res.body as { errors: Array<{ code: string; path: string }> }).errors).toContainEqual(
      expect.objectContaining({ code, ...(path !== undefined && { path }) }),
    );
  }
}

/** The 401 of spec 5.1: accessDenied, the error body, and a Bearer challenge. */
export function expectAccessDenied(res: AdminResponse): void {
  expectError(res, 401, 'accessDenied');
  expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
}

/** Every error of a 400 is `invalidParameter` and together they name exactly `paths`. */
export function expectInvalidParameters(res: AdminResponse, ...paths: string[]): void {
  expectError(res, 400);
  const errors = (res.body as { errors: Array<{ code: string; path: string }> }).errors;
  expect(errors.map((e) => e.code)).toEqual(errors.map(() => 'invalidParameter'));
  expect([...new Set(errors.map((e) => e.path))].sort()).toEqual([...paths].sort());
}

/** `null` never appears on the wire: optional fields are omitted instead (spec 1). */
export function expectNoNulls(body: unknown): void {
  const walk = (value: unknown, at: string): void => {
    expect(value, `null at ${at}`).not.toBeNull();
    if (Array.isArray(value)) value.forEach((v, i) => { walk(v, `${at}[${i}]`); });
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${at}.${k}`);
  };
  walk(body, '$');
  expect(JSON.stringify(body)).not.toMatch(/:null[,}\]]/);
}
