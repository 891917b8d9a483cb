/**
 * A site's definition as the requests read it: the site, its API keys, its plans and its sign-up
 * fields. Every request reads some of it (the Admin API the key and the site, the member API the
 * site, then fields and plans for /me) and it changes a few times a day, so each SQL store keeps
 * what it read here until the definition changes (docs/decisions/0027-request-cost.md). How a
 * store learns of a change is its own: SQLite reads a version the schema's triggers move (one
 * cheap read, exact across processes), PostgreSQL is told by NOTIFY from its triggers. The
 * tables the triggers watch (sites, plans, signup_fields, api_keys) are written in each store's
 * migration, which never changes once shipped.
 *
 * Values are frozen (deeply) before they are kept: a caller that changed a record it was given
 * would otherwise change every later answer. Only found records are kept, so unknown keys (an
 * attacker's guesses) cost no memory, and the whole cache is bounded.
 */

/** Cached entries at most; past it the cache starts over (it refills from a handful of queries). */
const MAX_ENTRIES = 10_000;

export class DefinitionCache {
  readonly #entries = new Map<string, unknown>();

  get<T>(key: string): T | undefined {
    return this.#entries.get(key) as T | undefined;
  }

  /** Keeps `value` (frozen) when it is a found record; answers it. */
  keep<T>(key: string, value: T): T {
    if (value === undefined || value === null) return value;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, deepFreeze(value));
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value as object)) deepFreeze(inner);
  return value;
}
