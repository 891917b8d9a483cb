/**
 * The store implementations every Admin API suite runs against, one `describe` each. PostgreSQL
 * is among them with a server (./postgres: SVC_TEST_POSTGRES_URL or the throwaway cluster);
 * without one its suites show as skipped, and fail under CI=true.
 */
import { describe } from 'vitest';
import { createMemoryStore } from '../../../src/service/store/memory';
import { openSqliteStore } from '../../../src/service/store/sqlite';
import type { Store } from '../../../src/service/store/store';
import { POSTGRES_URL, describePostgres, newPostgresStore } from '../postgres';

export type StoreFactory = () => Store | Promise<Store>;

const POSTGRES: [name: string, newStore: StoreFactory] = ['postgres', () => newPostgresStore()];

/** The stores a suite can open here: PostgreSQL only when there is a server. */
export const STORES: ReadonlyArray<[name: string, newStore: StoreFactory]> = [
  ['memory', createMemoryStore],
  ['sqlite', () => openSqliteStore(':memory:')],
  ...(POSTGRES_URL ? [POSTGRES] : []),
];

/** Registers the suite `run` declares once per store implementation. */
export function forEachStore(run: (name: string, newStore: StoreFactory) => void): void {
  for (const [name, newStore] of STORES) describe(`${name} store`, () => run(name, newStore));
  if (!POSTGRES_URL) describePostgres(`${POSTGRES[0]} store`, () => run(...POSTGRES));
}
