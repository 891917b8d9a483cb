/**
 * The PostgreSQL store with its definition reads kept (../definition-cache, decision 0027): the
 * reads every request makes (site by id and by subdomain, API key by hash, plan, sign-up fields)
 * answered from memory until a change is told. Another process's change is told by NOTIFY
 * (./definition-listener), a few milliseconds after it commits; this process's own writes clear
 * what is kept as soon as they return, so a process always reads its own writes.
 *
 * A read that was under way when a change was told is answered but not kept: it may have read
 * the rows from before the change.
 */
import { DefinitionCache } from '../definition-cache';
import type { Store } from '../store';
import type { DefinitionListener } from './definition-listener';

/** Store methods that write a site, plan, sign-up field or API key. */
const DEFINITION_WRITES = [
  'createSite', 'updateSite', 'applySiteChanges', 'createPlan', 'createSignupFields', 'createApiKey', 'revokeApiKey',
] as const satisfies ReadonlyArray<keyof Store>;

/** `listen` starts telling `changed` of the changes made in any process (./definition-listener). */
export async function keepDefinitionReads(store: Store, listen: (changed: () => void) => Promise<DefinitionListener>): Promise<Store> {
  const cache = new DefinitionCache();
  let generation = 0;
  const changed = () => {
    generation++;
    cache.clear();
  };
  const listener = await listen(changed);

  async function kept<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!listener.live()) return read();
    const found = cache.get<T>(key);
    if (found !== undefined) return found;
    const at = generation;
    const value = await read();
    return at === generation && listener.live() ? cache.keep(key, value) : value;
  }

  const writes = Object.fromEntries(DEFINITION_WRITES.map((name) => {
    const write = store[name] as (...args: unknown[]) => Promise<unknown>;
    return [name, async (...args: unknown[]) => {
      try {
        return await write(...args);
      } finally {
        changed();
      }
    }];
  })) as Pick<Store, (typeof DEFINITION_WRITES)[number]>;

  return {
    ...store,
    ...writes,
    getSite: (id) => kept(`site ${id}`, () => store.getSite(id)),
    getSiteBySubdomain: (subdomain) => kept(`subdomain ${subdomain}`, () => store.getSiteBySubdomain(subdomain)),
    // A load may write sites, plans or fields too; its store keeps nothing itself.
    async bulkLoad(work) {
      try {
        return await store.bulkLoad(work);
      } finally {
        changed();
      }
    },
    findApiKeyByHash: (hash) => kept(`key ${hash}`, () => store.findApiKeyByHash(hash)),
    getPlan: (siteId, id) => kept(`plan ${siteId} ${id}`, () => store.getPlan(siteId, id)),
    listSignupFields: (siteId) => kept(`fields ${siteId}`, () => store.listSignupFields(siteId)),
    async close() {
      await listener.close();
      await store.close();
    },
  };
}
