/**
 * The fuzz harness: how a run sends a request, what every answer must be, and the real keys
 * and cursors the runs start from.
 */
import type { Hono } from 'hono';
import { expect } from 'vitest';
import { storeFingerprint, type AdminFixture } from '../../support/admin-fixture';
import { adminRequest, type AdminResponse } from '../../support/admin-request';
import { BASE, brief, LIST_ENDPOINTS, sitesWithData } from '../helpers';

/** Runs of each property. */
export const RUNS = 300;

/** What every response must be, whatever was asked. */
export function expectWellFormed(res: AdminResponse, method: string): void {
  expect(res.status, brief(res.body)).toBeGreaterThanOrEqual(200);
  expect(res.status, brief(res.body)).toBeLessThan(500);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
  if (method.toUpperCase() !== 'HEAD') expect(res.body).not.toBeUndefined();
  if (res.status >= 400 && method.toUpperCase() !== 'HEAD') {
    expect(res.body).toStrictEqual({ errors: expect.any(Array) });
    const errors = (res.body as { errors: unknown[] }).errors;
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toStrictEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
  }
}

/**
 * Sends a request the WHATWG URL parser accepts; undefined for one no client could send.
 * Every request goes through `adminRequest`, so the OpenAPI validator checks it too.
 */
export async function send(app: Hono, path: string, method: string, headers: Record<string, string | undefined>): Promise<AdminResponse | undefined> {
  const defined = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
  try {
    new URL(`http://localhost${path}`);
    new Headers(defined);
    new Request('http://localhost/', { method });
  } catch {
    return undefined;
  }
  return adminRequest(app, path, { method, headers: defined });
}

/** Runs `run` and expects the store exactly as it was: the API is read-only, whatever it is sent. */
export async function expectUnchanged(fx: AdminFixture, run: () => Promise<void>): Promise<void> {
  const before = await storeFingerprint(fx);
  await run();
  expect(await storeFingerprint(fx)).toBe(before);
}

/** A cursor the API really issued, with the endpoint and site it was issued for. */
export interface Issued {
  endpoint: string;
  siteId: number;
  cursor: string;
}

/** Real cursors of every list endpoint for demo and other (no filters), at a few page sizes. */
export async function harvestCursors(fx: AdminFixture): Promise<Issued[]> {
  const issued: Issued[] = [];
  for (const endpoint of LIST_ENDPOINTS) {
    for (const { site, key } of sitesWithData(fx)) {
      for (const size of [1, 2, 5]) {
        const res = await adminRequest(fx.app, `${BASE}${endpoint.path}`, { key, headers: { 'x-items-after': String(size) } });
        const cursor = res.headers.get('x-next-cursor');
        if (cursor) issued.push({ endpoint: endpoint.path, siteId: site.id, cursor });
      }
    }
  }
  return issued;
}

/** Every fixture key with the site it belongs to (undefined site: a key that must answer 401). */
export function fixtureKeys(fx: AdminFixture): Array<{ key: string; siteId: number | undefined; scopes: 'all' | 'some' }> {
  return [
    { key: fx.keys.demo.all, siteId: fx.demo.id, scopes: 'all' },
    { key: fx.keys.other.all, siteId: fx.other.id, scopes: 'all' },
    { key: fx.keys.empty.all, siteId: fx.empty.id, scopes: 'all' },
    { key: fx.keys.demo.none, siteId: fx.demo.id, scopes: 'some' },
    { key: fx.keys.demo.only['read.members'], siteId: fx.demo.id, scopes: 'some' },
    { key: fx.keys.demo.allBut['read.plans'], siteId: fx.demo.id, scopes: 'some' },
    { key: fx.keys.closed, siteId: fx.closed.id, scopes: 'all' },
    { key: fx.keys.expired, siteId: undefined, scopes: 'all' },
    { key: fx.keys.revoked, siteId: undefined, scopes: 'all' },
  ];
}
