import { openStore } from '../service/store/open';
import type { Store } from '../service/store/store';
import { dbPath } from './config';

/** Opens the database a command names (or SVC_DB, or the default), runs, and always closes it. */
export async function withStore<T>(flag: string | undefined, env: NodeJS.ProcessEnv, run: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dbPath(flag, env));
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
