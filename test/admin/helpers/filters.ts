/**
 * Filter checks: a filtered list, walked to its end, holds exactly the rows an independent
 * computation over the store's records selects.
 */
import type { Hono } from 'hono';
import { expect } from 'vitest';
import { iso } from './date-times';
import { ids, queryString, walkPages, type RequestOptions } from './requests';

/** `…After` inclusive, `…Before` exclusive; a row without the value never matches a range. */
export function inRange(value: number | undefined, after?: number, before?: number): boolean {
  if (after === undefined && before === undefined) return true;
  if (value === undefined) return false;
  return (after === undefined || value >= after) && (before === undefined || value < before);
}

/** A few distinct values of `pick` over `rows`: the smallest, the largest, and some between. */
export function sampleValues<T, V>(rows: T[], pick: (row: T) => V | undefined, count = 5): V[] {
  const values = [...new Set(rows.map(pick).filter((v): v is V => v !== undefined))];
  if (values.length <= count) return values;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Array.from({ length: count }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (count - 1))]!);
}

/** Walks every page of `path` with `query` and expects exactly `expected` (by id, in id order). */
export async function expectListed(
  app: Hono,
  path: string,
  key: string,
  query: RequestOptions['query'],
  expected: ReadonlyArray<{ id: number }>,
): Promise<void> {
  const walk = await walkPages<{ id: number }>(app, path, { key, query, pageSize: 100 });
  expect(ids(walk.items), `${path}${queryString(query)}`).toEqual(ids(expected));
}

/** For each value, `?param=value` lists exactly the rows whose `valueOf` is that value. */
export async function expectEqualsFilter<T extends { id: number }, V extends string | number>(
  app: Hono,
  path: string,
  key: string,
  param: string,
  values: Iterable<V>,
  rows: T[],
  valueOf: (row: T) => V | undefined,
): Promise<void> {
  for (const value of values) await expectListed(app, path, key, { [param]: value }, rows.filter((r) => valueOf(r) === value));
}

/**
 * Within each [from, to) window, the `…After`/`…Before` pair together, `…After` alone and
 * `…Before` alone list exactly the rows whose value the bound admits.
 */
export async function expectRangeWindows<T extends { id: number }>(
  app: Hono,
  path: string,
  key: string,
  [after, before]: readonly [after: string, before: string],
  rows: T[],
  valueOf: (row: T) => number | undefined,
  windows: ReadonlyArray<readonly [from: number, to: number]>,
): Promise<void> {
  for (const [from, to] of windows) {
    await expectListed(app, path, key, { [after]: iso(from), [before]: iso(to) }, rows.filter((r) => inRange(valueOf(r), from, to)));
    await expectListed(app, path, key, { [after]: iso(from) }, rows.filter((r) => inRange(valueOf(r), from)));
    await expectListed(app, path, key, { [before]: iso(to) }, rows.filter((r) => inRange(valueOf(r), undefined, to)));
  }
}

/**
 * The boundary cases of one `…After`/`…Before` pair at an instant some row has exactly: After
 * includes it, Before excludes it, [t, t+1ms) holds exactly the rows at t, [t, t) is empty.
 */
export async function expectRangeBoundaries<T extends { id: number }>(
  app: Hono,
  path: string,
  key: string,
  names: readonly [after: string, before: string],
  rows: T[],
  valueOf: (row: T) => number | undefined,
  instants: number[],
): Promise<void> {
  const [after, before] = names;
  expect(instants.length).toBeGreaterThan(0);
  for (const t of instants) {
    const at = rows.filter((r) => valueOf(r) === t);
    expect(at.length, `some row has ${after} ${iso(t)}`).toBeGreaterThan(0);
    const cases: Array<[Record<string, string>, number | undefined, number | undefined]> = [
      [{ [after]: iso(t) }, t, undefined],
      [{ [after]: iso(t + 1) }, t + 1, undefined],
      [{ [before]: iso(t) }, undefined, t],
      [{ [before]: iso(t + 1) }, undefined, t + 1],
      [{ [after]: iso(t), [before]: iso(t + 1) }, t, t + 1],
      [{ [after]: iso(t), [before]: iso(t) }, t, t],
    ];
    for (const [query, from, to] of cases) {
      await expectListed(app, path, key, query, rows.filter((r) => inRange(valueOf(r), from, to)));
    }
    await expectListed(app, path, key, { [after]: iso(t), [before]: iso(t + 1) }, at);
    await expectListed(app, path, key, { [before]: iso(t) }, rows.filter((r) => inRange(valueOf(r), undefined, t)));
  }
}
