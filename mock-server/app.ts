/**
 * The service app over a fresh in-memory store holding the fixture set: what both MSW
 * mountings serve. Portable (no Node module), so it runs in a browser too.
 */
import type { Hono } from 'hono';
import { createPasswordHasher, TEST_SCRYPT } from '../src/service/auth/passwords';
import { portableScrypt } from '../src/service/auth/portable-scrypt';
import { createServiceApp } from '../src/service/app';
import { type PictureEncoder, refusingPictures } from '../src/service/member/pictures/encoder';
import { systemClock, type Clock } from '../src/service/domain/clock';
import { createMemoryStore } from '../src/service/store/memory';
import type { Store } from '../src/service/store/store';
import { FIXTURES, type FixtureSite } from './fixtures';
import { loadFixtures, type LoadedSite } from './load-fixtures';

export interface MockApp {
  app: Hono;
  store: Store;
  /** Ids the store gave the fixtures, per site in FIXTURES order (demo first). */
  sites: LoadedSite[];
}

export interface MockAppOptions {
  clock?: Clock;
  fixtures?: readonly FixtureSite[];
  /** An empty store to load the fixtures into; a fresh memory store by default. */
  store?: Store;
  /** Re-encodes uploaded pictures; by default none is taken (no sharp in a browser). Tests in Node give sharp's. */
  pictures?: PictureEncoder;
  /**
   * Puts the fixtures in the store: `load` writes them through it. A test may answer from rows it
   * copied in another way (the same fixtures at the same time), as long as it answers what `load` would.
   */
  seed?: (load: () => Promise<LoadedSite[]>) => Promise<LoadedSite[]>;
}

export async function createMockApp(options: MockAppOptions = {}): Promise<MockApp> {
  const store = options.store ?? createMemoryStore();
  // The cheap cost is for mocks and tests only; svc serve uses production cost.
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const clock = options.clock ?? systemClock;
  const load = () => loadFixtures(store, passwords, options.fixtures ?? FIXTURES, clock());
  const sites = await (options.seed ? options.seed(load) : load());
  // The demo's mailbox: the examples show what the mail flows sent (src/service/member/demo-mailbox.ts).
  // No sharp in a browser: an upload is refused in words (400), never a failure of the mock.
  const pictures = options.pictures ?? refusingPictures('The mock server keeps no pictures: upload one to svc serve');
  const app = await createServiceApp({ store, passwords, clock, demoMailbox: true, pictures });
  return { app, store, sites };
}
