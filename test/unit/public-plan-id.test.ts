/** A plan's public id is never all digits, so `plan(n)` in the widget cannot mistake it for a plan id. */
import { expect, test, vi } from 'vitest';

const ids = vi.hoisted(() => ['23456789', '98765432', 'ab3CDe7F']);
vi.mock('../../src/service/domain/random', () => ({ randomId: () => ids.shift() }));

const { definePlan } = await import('../../src/service/domain/plans');
const { createSite } = await import('../../src/service/domain/sites');
const { createMemoryStore } = await import('../../src/service/store/memory');

test('an all-digit random public id is drawn again', async () => {
  const store = createMemoryStore();
  const clock = () => Date.UTC(2026, 10, 23);
  const site = await createSite(store, clock, { subdomain: 'acme' });
  const plan = await definePlan(store, clock, site.id, { name: 'Free', type: 'free', expiration: { mode: 'none' } });
  expect(plan.publicId).toBe('ab3CDe7F');
  expect(ids).toEqual([]);
});
