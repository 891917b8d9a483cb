/**
 * Tells the store when a site's definition changed in any process: schema triggers (migration 3)
 * send NOTIFY svc_definition on every statement that writes a site, plan, sign-up field or API
 * key, and this listens on a connection of its own. While that connection is down, `live` is
 * false and the store keeps nothing (../definition-cache); it reconnects by itself, and tells of
 * a change then too, since any could have happened meanwhile.
 */
import pg from 'pg';

export const DEFINITION_CHANNEL = 'svc_definition';
const RETRY_MS = [250, 1000, 5000, 15_000];

export interface DefinitionListener {
  /** Listening now: a change made elsewhere will be told. */
  live(): boolean;
  close(): Promise<void>;
}

export async function listenForDefinitionChanges(url: string, changed: () => void): Promise<DefinitionListener> {
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const lost = (from: pg.Client) => {
    if (client !== from) return;
    client = undefined;
    live = false;
    changed();
    from.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]).unref();
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, application_name: 'svc definition listener' });
    client = next;
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      if (message.channel === DEFINITION_CHANNEL) changed();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${DEFINITION_CHANNEL}`);
      if (client !== next || closed) return;
      failures = 0;
      live = true;
      changed();
    } catch {
      lost(next);
    }
  }

  await connect();
  return {
    live: () => live,
    async close() {
      closed = true;
      live = false;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

/**
 * One listening connection whose changes are told to every store subscribed to it: the test
 * suites open hundreds of stores, one after another, on the few schemas they keep (with their
 * pools: ./index.ts's openPostgresStoreOver), and a connection of its own a store was about 27 ms
 * of CPU and 28 ms of waiting each. A process opens one store, with a listener of its own.
 */
export interface SharedDefinitionListener {
  /** `changed` is called on every change told from now on, until the subscription is closed. */
  subscribe(changed: () => void): DefinitionListener;
  close(): Promise<void>;
}

export async function shareDefinitionListener(url: string): Promise<SharedDefinitionListener> {
  const subscribers = new Set<() => void>();
  const listener = await listenForDefinitionChanges(url, () => {
    for (const changed of subscribers) changed();
  });
  return {
    subscribe(changed) {
      subscribers.add(changed);
      return { live: () => listener.live(), close: async () => void subscribers.delete(changed) };
    },
    close: () => listener.close(),
  };
}
