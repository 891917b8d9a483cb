/**
 * Issue 26: every text query parameter of the Admin API follows the one text rule
 * (src/service/domain/validation.ts, textProblem): a NUL, another control character (C0, DEL,
 * C1, tab and line breaks included) or a lone surrogate is a 400 in the error body of the spec,
 * `path` naming the parameter, never a 500. PostgreSQL refused a NUL with an error of its own,
 * which the Admin API answered with a 500 (7 of 4,221 fuzzed requests).
 */
import { expect, test } from 'vitest';
import { forEachStore, useAdminFixture } from '../support/admin-fixture';
import { adminRequest } from '../support/admin-request';
import { BASE, call, demoData, expectInvalidParameters, expectListed } from './helpers';

/** The text parameters of the list endpoints (the rest are ids, statuses and date-times). */
const TEXT_PARAMETERS = [
  ['/members', 'email'],
  ['/members', 'firstName'],
  ['/members', 'lastName'],
] as const;

/** As they travel in a URL: percent-encoded, or raw where a URL can carry the byte at all. */
const BAD = ['%00', 'a%00b', '%01', '%07', '%1B%5B31m', '%7F', '%C2%80', '%C2%85', '%C2%9F', '%09', '%0A', '%0D', '%0D%0A'];

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test.each(TEXT_PARAMETERS)('%s?%s= with a NUL or another control character is 400 invalidParameter on it, never a 500', async (path, name) => {
    const fx = fixture();
    for (const bad of BAD) {
      // Sent as written: the test's own encoding must not hide the byte.
      const res = await adminRequest(fx.app, `${BASE}${path}?${name}=ada${bad}`, { key: fx.keys.demo.all });
      expect(res.status, `${name}=ada${bad}`).toBe(400);
      expectInvalidParameters(res, name);
      const [error] = (res.body as { errors: Array<{ message: string }> }).errors;
      expect(error!.message).toMatch(/control character/);
    }
  });

  test('a NUL in one text parameter and a bad date in another: one 400 names both', async () => {
    const fx = fixture();
    const res = await adminRequest(fx.app, `${BASE}/members?firstName=%00&lastName=x%0Ay&createdAfter=yesterday`, { key: fx.keys.demo.all });
    expectInvalidParameters(res, 'firstName', 'lastName', 'createdAfter');
  });

  test('text that only looks unusual still filters: accents, emoji, other scripts, U+00A0', async () => {
    const fx = fixture();
    const data = await demoData(fx);
    const m = data.members[0]!;
    await expectListed(fx.app, '/members', fx.keys.demo.all, { email: m.email }, [m]);
    for (const value of ['Zoë', '😀', '大塚', 'a\u00a0b', "O'Brien"]) {
      const res = await call(fx.app, '/members', { key: fx.keys.demo.all, query: { firstName: value, lastName: value, email: value } });
      expect(res.status, value).toBe(200);
    }
  });
});
