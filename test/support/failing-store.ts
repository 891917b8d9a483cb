/**
 * A store whose named methods fail as a lost database would (a rejected promise with `message`),
 * while `failing()` says so; every other method is the store's own. For the answers a fault of
 * the service itself gets (500 internalError, /healthz's 503).
 */
import type { Store } from '../../src/service/store/store';

export function failingStore(store: Store, methods: readonly string[], message: string, failing: () => boolean = () => true): Store {
  const names = new Set(methods);
  return new Proxy(store, {
    get: (target, name, receiver) => (names.has(String(name)) && failing() ? () => Promise.reject(new Error(message)) : Reflect.get(target, name, receiver)),
  });
}
