/**
 * `svc webhooks …` (issue 31): a site's webhook endpoints and their deliveries. `add` and
 * `rotate-secret` print the signing secret once, on stdout (it is stored to sign with, and never
 * shown again); everything else prints to stdout one line a row and says what it did on stderr.
 */
import { parseArgs } from 'node:util';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../contract/webhooks';
import { systemClock } from '../../service/domain/clock';
import { findSite } from '../../service/domain/sites';
import { isoTime } from '../../service/http/json';
import type { SiteRecord } from '../../service/store/records';
import type { Store } from '../../service/store/store';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../service/store/webhook-records';
import { checkEndpointUrl } from '../../service/webhooks/address-policy';
import { newWebhookSecret } from '../../service/webhooks/secret';
import { actionNamed, UsageError } from '../config';
import type { Io } from '../io';
import { withStore } from '../store';

export const WEBHOOKS_USAGE = [
  'svc webhooks add --site S --url U [--events a,b,…] [--allow-private] [--db PATH]   (prints the secret once)',
  'svc webhooks list [--site S] [--db PATH]   (every site\'s without --site)',
  'svc webhooks remove|enable [--site S] ENDPOINT [--db PATH]',
  'svc webhooks rotate-secret [--site S] ENDPOINT [--db PATH]   (the old secret stays valid 24 h)',
  'svc webhooks deliveries [--site S] [--failed] [--endpoint ID] [--limit N] [--db PATH]',
  'svc webhooks attempts [--site S] DELIVERY [--db PATH]   (each attempt: time, status, duration, error, the answer\'s first 1 KB)',
  'svc webhooks replay [--site S] DELIVERY [--db PATH]',
];

/** How long a rotated-out secret still signs deliveries, as Standard Webhooks allows: receivers switch over meanwhile. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

type Action = (site: SiteRecord, store: Store, options: Options, io: Io) => Promise<number>;
interface Options {
  url?: string;
  events?: string;
  'allow-private'?: boolean;
  failed?: boolean;
  endpoint?: string;
  limit?: string;
  positionals: string[];
}

export async function webhooksCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [name, ...rest] = args;
  const action = actionNamed(ACTIONS, 'webhooks', name);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      site: { type: 'string' },
      db: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      'allow-private': { type: 'boolean' },
      failed: { type: 'boolean' },
      endpoint: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  if (!values.site && action.scope === 'site') throw new UsageError(`webhooks ${name} needs --site`);
  const options = { ...values, positionals };
  // Checked before the database is opened: a bad argument changes nothing and costs nothing.
  action.check?.(options);
  return withStore(values.db, env, async (store) => {
    if (values.site) {
      const site = await findSite(store, values.site);
      if (!site) {
        io.err(`no site ${values.site}`);
        return 1;
      }
      return action.run(site, store, options, io);
    }
    const sites = await store.listSites();
    if (action.scope === 'every') {
      // Every site's rows, each line starting with its site's subdomain.
      let code = 0;
      for (const site of sites) code = Math.max(code, await action.run(site, store, options, { ...io, out: (line) => io.out(`${site.subdomain}\t${line}`) }));
      return code;
    }
    // Ids are the installation's: the site is the one that has it.
    const id = Number(options.positionals[0]);
    for (const site of sites) if (await owns(store, action.scope, site.id, id)) return action.run(site, store, options, io);
    io.err(`no ${action.scope} ${id}`);
    return 1;
  });
}

/**
 * What an action needs to know its site without --site: `site` (add: always given), `every`
 * (list, deliveries: every site's), or the endpoint or delivery its id names.
 */
type Scope = 'site' | 'every' | 'endpoint' | 'delivery';

async function owns(store: Store, scope: Scope, siteId: number, id: number): Promise<boolean> {
  if (scope === 'endpoint') return (await store.getWebhookEndpoint(siteId, id)) !== undefined;
  return (await store.getWebhookDelivery(siteId, id)) !== undefined;
}

const ACTIONS: Record<string, { scope: Scope; check?: (options: Options) => void; run: Action }> = {
  add: {
    scope: 'site',
    check(options) {
      if (options.positionals.length > 0) throw new UsageError('webhooks add takes no arguments, only options');
      if (!options.url) throw new UsageError('webhooks add needs --url');
      endpointUrl(options);
      if (options.events !== undefined) parseEvents(options.events);
    },
    async run(site, store, options, io) {
      const secret = newWebhookSecret();
      const events = options.events === undefined ? undefined : parseEvents(options.events);
      const endpoint = await store.createWebhookEndpoint({
        siteId: site.id, url: endpointUrl(options), ...(events && { events }), allowPrivate: options['allow-private'] === true,
        secret, source: 'cli', createdAt: systemClock(),
      });
      io.out(secret);
      io.err(`endpoint ${endpoint.id} added: ${endpoint.url} (${events ? events.join(', ') : 'every event'})`);
      io.err('The secret above signs its deliveries and is shown once: keep it now (svc webhooks rotate-secret makes a new one).');
      return 0;
    },
  },
  list: {
    scope: 'every',
    check: noArguments('list'),
    async run(site, store, _options, io) {
      const endpoints = await store.listWebhookEndpoints(site.id);
      if (endpoints.length === 0) io.err(`site ${site.subdomain} has no webhook endpoints (add one: svc webhooks add)`);
      for (const endpoint of endpoints) io.out(endpointLine(endpoint, systemClock()));
      return 0;
    },
  },
  remove: {
    scope: 'endpoint',
    check: oneId('remove', 'ENDPOINT'),
    async run(site, store, options, io) {
      const id = Number(options.positionals[0]);
      const endpoint = await store.getWebhookEndpoint(site.id, id);
      if (endpoint?.source === 'siteFile') {
        io.err(`endpoint ${id} comes from the site file: remove it there and apply the file`);
        return 1;
      }
      if (!(await store.deleteWebhookEndpoint(site.id, id))) return missing(io, 'endpoint', id);
      io.err(`endpoint ${id} removed, with its deliveries`);
      return 0;
    },
  },
  enable: {
    scope: 'endpoint',
    check: oneId('enable', 'ENDPOINT'),
    async run(site, store, options, io) {
      const id = Number(options.positionals[0]);
      // Its failing time starts again: it gets the five days anew.
      const endpoint = await store.updateWebhookEndpoint(site.id, id, { disabledAt: null, disabledReason: null });
      if (!endpoint) return missing(io, 'endpoint', id);
      io.err(`endpoint ${id} enabled: its waiting deliveries go out now`);
      return 0;
    },
  },
  'rotate-secret': {
    scope: 'endpoint',
    check: oneId('rotate-secret', 'ENDPOINT'),
    async run(site, store, options, io) {
      const id = Number(options.positionals[0]);
      const endpoint = await store.getWebhookEndpoint(site.id, id);
      if (!endpoint) return missing(io, 'endpoint', id);
      if (endpoint.secret === undefined) {
        io.err(`endpoint ${id} takes its secret from ${endpoint.secretEnv} (the site file): change it there`);
        return 1;
      }
      const secret = newWebhookSecret();
      const until = systemClock() + ROTATION_OVERLAP_MS;
      await store.updateWebhookEndpoint(site.id, id, { secret, previousSecret: endpoint.secret, previousSecretUntil: until });
      io.out(secret);
      io.err(`endpoint ${id} has a new secret (shown once); deliveries are signed with the old one too until ${isoTime(until)}`);
      return 0;
    },
  },
  deliveries: {
    scope: 'every',
    check(options) {
      noArguments('deliveries')(options);
      if (options.endpoint !== undefined) positiveId(options.endpoint, '--endpoint');
      if (options.limit !== undefined) positiveId(options.limit, '--limit');
    },
    async run(site, store, options, io) {
      const page = await store.listWebhookDeliveries(
        site.id,
        { ...(options.endpoint !== undefined && { endpointId: Number(options.endpoint) }), ...(options.failed && { status: 'failed' as const }) },
        { limit: options.limit === undefined ? 50 : Number(options.limit) },
      );
      if (page.items.length === 0) io.err('no deliveries');
      for (const delivery of page.items) io.out(await deliveryLine(store, site, delivery, systemClock()));
      if (page.hasMore) io.err('(more: raise --limit)');
      return 0;
    },
  },
  attempts: {
    scope: 'delivery',
    check: oneId('attempts', 'DELIVERY'),
    async run(site, store, options, io) {
      const id = Number(options.positionals[0]);
      if (!(await store.getWebhookDelivery(site.id, id))) return missing(io, 'delivery', id);
      const attempts = await store.listWebhookAttempts(site.id, id);
      if (attempts.length === 0) io.err(`delivery ${id} has not been attempted yet`);
      // One line an attempt; the answer (its first 1 KB) as a JSON string, so a line stays a line.
      for (const a of attempts) io.out(`${isoTime(a.at)}\t${a.status ?? '-'}\t${a.durationMs} ms\t${a.ok ? 'ok' : (a.error ?? 'failed')}\t${JSON.stringify(a.answer)}`);
      return 0;
    },
  },
  replay: {
    scope: 'delivery',
    check: oneId('replay', 'DELIVERY'),
    async run(site, store, options, io) {
      const id = Number(options.positionals[0]);
      const replay = await store.replayWebhookDelivery(site.id, id, systemClock());
      if (!replay) return missing(io, 'delivery', id);
      io.out(String(replay.id));
      io.err(`delivery ${replay.id} queued: ${replay.type} ${replay.messageId} to endpoint ${replay.endpointId} again, with the same webhook-id`);
      return 0;
    },
  },
};

function endpointUrl(options: Options): string {
  const url = checkEndpointUrl(options.url!, { allowPrivate: options['allow-private'] === true });
  if (url instanceof URL) return url.href;
  const hint = url.allowedPrivately ? ' (for a receiver on this machine or your network, add --allow-private)' : '';
  throw new UsageError(`--url: the URL ${url.problem}${hint}`);
}

/** `a,b` → the types in WEBHOOK_EVENT_TYPES order; an unknown one is named with the known ones. */
export function parseEvents(list: string): WebhookEventType[] {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError('--events names at least one event');
  const unknown = names.filter((n) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new UsageError(`--events: unknown ${unknown.join(', ')}; the events are ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  return WEBHOOK_EVENT_TYPES.filter((type) => names.includes(type));
}

function endpointLine(endpoint: WebhookEndpointRecord, now: number): string {
  const state = endpoint.disabledAt !== undefined
    ? `disabled since ${isoTime(endpoint.disabledAt)}: ${endpoint.disabledReason ?? ''} (svc webhooks enable)`
    : endpoint.failingSince !== undefined
      ? `enabled, failing since ${isoTime(endpoint.failingSince)}`
      : 'enabled';
  const rotating = endpoint.previousSecretUntil !== undefined && endpoint.previousSecretUntil > now ? `; old secret valid until ${isoTime(endpoint.previousSecretUntil)}` : '';
  const from = endpoint.source === 'siteFile' ? `; site file, secret in ${endpoint.secretEnv}` : '';
  return `${endpoint.id}\t${endpoint.url}\t${endpoint.events?.join(',') ?? 'all events'}\t${state}${endpoint.allowPrivate ? '; private addresses allowed' : ''}${rotating}${from}`;
}

async function deliveryLine(store: Store, site: SiteRecord, delivery: WebhookDeliveryRecord, now: number): Promise<string> {
  const attempts = await store.listWebhookAttempts(site.id, delivery.id);
  const last = attempts.at(-1);
  const lastText = last ? `last ${isoTime(last.at)} ${last.status ?? '-'}${last.error ? ` ${last.error}` : ''} ${last.durationMs} ms` : 'not attempted yet';
  // A delivery written by a change with no time of its own is due at once (its nextAttemptAt is 0).
  const next = delivery.status !== 'pending' ? '' : delivery.nextAttemptAt <= now ? '; due now' : `; next ${isoTime(delivery.nextAttemptAt)}`;
  const replay = delivery.replayOf === undefined ? '' : `; replay of ${delivery.replayOf}`;
  return `${delivery.id}\t${delivery.type}\t${delivery.messageId}\tendpoint ${delivery.endpointId}\t${delivery.status}\t${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'}; ${lastText}${next}${replay}`;
}

function missing(io: Io, what: string, id: number): number {
  io.err(`no ${what} ${id} on this site`);
  return 1;
}

function noArguments(action: string) {
  return (options: Options) => {
    if (options.positionals.length > 0) throw new UsageError(`webhooks ${action} takes no arguments, got ${options.positionals[0]}`);
  };
}

function oneId(action: string, what: string) {
  return (options: Options) => {
    if (options.positionals.length !== 1) throw new UsageError(`webhooks ${action} takes exactly one ${what} id`);
    positiveId(options.positionals[0]!, what);
  };
}

function positiveId(text: string, what: string): void {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(`${what} must be a positive whole number, got ${text}`);
}
