/**
 * Webhook endpoints, matched by URL (issue 31). The file owns the endpoints it made (`source:
 * 'siteFile'`): one out of the file is deleted, with its deliveries (an endpoint has nothing
 * members hold, so there is nothing to archive for). Endpoints added with `svc webhooks add` are
 * never touched; a file naming one's URL is refused rather than made a second endpoint that would
 * get every delivery twice.
 */
import type { NewWebhookEndpoint, WebhookEndpointPatch, WebhookEndpointRecord } from '../../store/webhook-records';
import type { SiteFile, WebhookEntry } from '../schema';
import { differences, type ChangeNotes } from './describe';

/** What apply does to the endpoints, after the site's own changes (../apply.ts says why apart). */
export interface WebhookChanges {
  create: Omit<NewWebhookEndpoint, 'siteId' | 'createdAt'>[];
  update: { id: number; patch: WebhookEndpointPatch }[];
  remove: number[];
}

export function webhookChanges(endpoints: readonly WebhookEndpointRecord[], file: SiteFile, notes: ChangeNotes): WebhookChanges {
  const changes: WebhookChanges = { create: [], update: [], remove: [] };
  const added = new Map(endpoints.filter((e) => e.source !== 'siteFile').map((e) => [e.url, e]));
  const ours = new Map<string, WebhookEndpointRecord>();
  for (const endpoint of endpoints) {
    if (endpoint.source !== 'siteFile') continue;
    // Two of the file's endpoints on one URL (two applies at once): the first is kept, the other goes.
    if (ours.has(endpoint.url)) leftOut(endpoint, changes, notes);
    else ours.set(endpoint.url, endpoint);
  }
  file.webhooks.forEach((entry, i) => {
    const existing = ours.get(entry.url);
    ours.delete(entry.url);
    const other = added.get(entry.url);
    if (!existing && other) {
      notes.refuse(
        ['webhooks', i, 'url'],
        `${entry.url} is endpoint ${other.id} already, added with svc webhooks add: remove it there (svc webhooks remove) or leave it out of the file`,
      );
    } else if (!existing) {
      changes.create.push({ url: entry.url, ...(entry.events && { events: entry.events }), allowPrivate: entry.allowPrivate, secretEnv: entry.secretEnv, source: 'siteFile' });
      notes.line('+', `webhook ${entry.url}: ${describeEntry(entry)}`);
    } else {
      const shown = differences(settingsOf(existing), settingsOf(entry));
      if (shown.length === 0) return;
      changes.update.push({ id: existing.id, patch: { events: entry.events ?? null, allowPrivate: entry.allowPrivate, secretEnv: entry.secretEnv } });
      notes.line('~', `webhook ${entry.url}: ${shown.join(', ')}`);
    }
  });
  for (const endpoint of ours.values()) leftOut(endpoint, changes, notes);
  return changes;
}

export function webhooksUnchanged(changes: WebhookChanges): boolean {
  return changes.create.length === 0 && changes.update.length === 0 && changes.remove.length === 0;
}

function leftOut(endpoint: WebhookEndpointRecord, changes: WebhookChanges, notes: ChangeNotes): void {
  changes.remove.push(endpoint.id);
  notes.line('-', `webhook ${endpoint.url}: deleted with its deliveries`);
}

/** `every event, secret in SHOP_HOOK` */
function describeEntry(entry: WebhookEntry): string {
  return [entry.events ? entry.events.join(', ') : 'every event', `secret in ${entry.secretEnv}`, ...(entry.allowPrivate ? ['private addresses allowed'] : [])].join('; ');
}

/** What the file sets of an endpoint, in its names; `events: "all"` for an endpoint that takes every event. */
function settingsOf(endpoint: Pick<WebhookEntry, 'events' | 'allowPrivate'> & { secretEnv?: string | undefined }) {
  return { events: endpoint.events ?? 'all', allowPrivate: endpoint.allowPrivate, secretEnv: endpoint.secretEnv };
}
