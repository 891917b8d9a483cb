/**
 * Tests every list endpoint with date-time ranges runs the same way, registered by one call per
 * range so that each endpoint's file says only which ranges it has.
 */
import { test } from 'vitest';
import type { AdminFixture, SiteData } from '../../support/admin-fixture';
import { expectInvalidParameters } from './assertions';
import { BAD_DATE_TIMES } from './date-times';
import { expectRangeBoundaries, sampleValues } from './filters';
import { call } from './requests';
import { demoData } from './sites';

export interface DateRange<T> {
  names: readonly [after: string, before: string];
  valueOf: (row: T) => number | undefined;
  /** What the instant is the instant of, for the test's name: "a view", "a member's creation". */
  subject: string;
}

/** `…After` inclusive and `…Before` exclusive at a few instants demo rows have exactly. */
export function testRangeBoundaries<T extends { id: number }>(
  fixture: () => AdminFixture,
  path: string,
  rowsOf: (data: SiteData) => T[],
  { names: [after, before], valueOf, subject }: DateRange<T>,
): void {
  test(`${after} is inclusive and ${before} exclusive at the exact instant of ${subject}`, async () => {
    const fx = fixture();
    const rows = rowsOf(await demoData(fx));
    await expectRangeBoundaries(fx.app, path, fx.keys.demo.all, [after, before], rows, valueOf, sampleValues(rows, valueOf, 4));
  });
}

/** Each named date-time parameter refuses every malformed value with a 400 naming it alone. */
export function testMalformedDateTimes(fixture: () => AdminFixture, path: string, names: readonly string[]): void {
  test.each(names)('a malformed %s answers 400 naming it', async (name) => {
    const fx = fixture();
    for (const value of BAD_DATE_TIMES) {
      expectInvalidParameters(await call(fx.app, path, { key: fx.keys.demo.all, query: { [name]: value } }), name);
    }
  });
}
