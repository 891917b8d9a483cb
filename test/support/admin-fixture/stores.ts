/** The store implementations every Admin API suite runs against, one `describe` each. */
import { describe } from 'vitest';
import { createMemoryStore } from '../../../src/service/store/memory';
import { openSqliteStore } from '../../../src/service/store/sqlite';
import type { Store } from '../../../src/service/store/store';

export type StoreFactory = () => Store;

export const STORES: ReadonlyArray<[name: string, newStore: StoreFactory]> = [
  ['memory', createMemoryStore],
  ['sqlite', () => openSqliteStore(':memory:')],
];

/** Registers the suite `run` declares once per store implementation. */
export function forEachStore(run: (name: string, newStore: StoreFactory) => void): void {
  for (const [name, newStore] of STORES) describe(`${name} store`, () => run(name, newStore));
}
