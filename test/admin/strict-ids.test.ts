/**
 * Ids are read in their one canonical spelling (`^[1-9][0-9]{0,14}$`, domain/validation.ts
 * parseId): `0372`, `372.0`, `+372`, `0x174` or `3.72e2` is not plan or member 372. A query
 * filter spelled any other way is a 400 `invalidParameter` naming it; GET /plans/{id} keeps its
 * documented rule that an id which cannot exist is simply not found (404, never a 400).
 */
import { expect, test } from 'vitest';
import { forEachStore, useAdminFixture } from '../support/admin-fixture';
import { call, demoData, expectError, expectInvalidParameters } from './helpers';

/** Other spellings of `id`, every one of which Number() reads as `id`. */
function respellings(id: number): string[] {
  return [
    `0${id}`, `00${id}`, `${id}.0`, `${id}.`, `+${id}`, ` ${id}`, `${id} `, `\t${id}`, `0x${id.toString(16)}`,
    `0o${id.toString(8)}`, `0b${id.toString(2)}`, `${id}e0`, `${id}0e-1`,
  ];
}

forEachStore((_name, newStore) => {
  const fixture = useAdminFixture(newStore);

  test('GET /plans/{id} with the id spelled any way but the canonical one is 404 notFound, not that plan', async () => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    const plan = (await demoData(fx)).plans[0]!;
    expect((await call(fx.app, `/plans/${plan.id}`, { key })).status).toBe(200);
    for (const spelled of respellings(plan.id)) {
      expectError(await call(fx.app, `/plans/${encodeURIComponent(spelled)}`, { key }), 404, 'notFound');
    }
    // The longest id there can be is well-formed: not found because no plan has it, not refused.
    expectError(await call(fx.app, '/plans/999999999999999', { key }), 404, 'notFound');
  });

  test('id filters spelled any way but the canonical one answer 400 invalidParameter naming the filter', async () => {
    const fx = fixture();
    const key = fx.keys.demo.all;
    const data = await demoData(fx);
    const membership = data.memberships[0]!;
    const view = data.views[0]!;
    const cases: Array<[path: string, name: string, id: number]> = [
      ['/memberships', 'planId', membership.planId],
      ['/memberships', 'memberId', membership.memberId],
      ['/memberEvents', 'memberId', data.events[0]!.memberId],
      ['/contentLibrary/views', 'memberId', view.memberId],
      ['/contentLibrary/views', 'nodeId', view.nodeId],
    ];
    for (const [path, name, id] of cases) {
      const canonical = await call(fx.app, path, { key, query: { [name]: String(id) } });
      expect(canonical.status, `${path}?${name}=${id}`).toBe(200);
      expect((canonical.body as unknown[]).length).toBeGreaterThan(0);
      for (const spelled of respellings(id)) {
        const res = await call(fx.app, path, { key, query: { [name]: spelled } });
        expect(res.status, `${path}?${name}=${JSON.stringify(spelled)}`).toBe(400);
        expectInvalidParameters(res, name);
      }
      // 15 digits is the longest id; it is well-formed and matches nothing.
      const longest = await call(fx.app, path, { key, query: { [name]: '999999999999999' } });
      expect(longest.status).toBe(200);
      expect(longest.body).toEqual([]);
    }
  });
});
