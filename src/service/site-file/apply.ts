/**
 * Applying a site file to the store: read the site's definition, work out the changes, and
 * (unless it is a dry run) make them in one transaction, then the webhook endpoints'.
 * `svc sites apply` and the demo use it.
 */
import type { Clock } from '../domain/clock';
import type { EpochMs } from '../store/records';
import type { Store } from '../store/store';
import { changesNothing, siteChanges, webhooksUnchanged, type ChangeLine, type WebhookChanges } from './changes';
import type { SiteFile } from './schema';

export interface ApplyOutcome {
  siteId: number | undefined;
  /** True when the site did not exist before. */
  created: boolean;
  /** One line per change, in the order they are made; empty when the site matches the file. */
  lines: ChangeLine[];
  /** False on a dry run and when there was nothing to change. */
  written: boolean;
}

/** Throws RefusedChangeError (./changes) when the rules refuse the file; nothing is written then. */
export async function applySiteFile(store: Store, clock: Clock, file: SiteFile, { dryRun = false } = {}): Promise<ApplyOutcome> {
  const site = await store.getSiteBySubdomain(file.site.subdomain);
  const current = site && (await store.getSiteDefinition(site.id));
  const endpoints = site ? await store.listWebhookEndpoints(site.id) : [];
  // Every refusal, the endpoints' too, is thrown here, before anything is written.
  const { changeSet, webhooks, lines } = siteChanges(current, file, clock, endpoints);
  const siteUnchanged = changesNothing(changeSet);
  if (dryRun || (siteUnchanged && webhooksUnchanged(webhooks))) return { siteId: site?.id, created: false, lines, written: false };
  const siteId = siteUnchanged ? site!.id : await store.applySiteChanges(changeSet);
  await applyWebhookChanges(store, siteId, webhooks, changeSet.at);
  return { siteId, created: !site, lines, written: true };
}

/**
 * The endpoints are a step of their own, after the site's: the change set is one store
 * transaction over the site's definition (applySiteChanges), which knows nothing of endpoints,
 * and a new site has no id for them until it has run. What the file could be refused for was
 * found before either step, so a refused file writes nothing; a failure between the two leaves
 * the endpoints as they were, and the next apply finds the same differences and makes them.
 */
async function applyWebhookChanges(store: Store, siteId: number, changes: WebhookChanges, at: EpochMs): Promise<void> {
  for (const id of changes.remove) await store.deleteWebhookEndpoint(siteId, id);
  for (const { id, patch } of changes.update) await store.updateWebhookEndpoint(siteId, id, patch);
  for (const endpoint of changes.create) await store.createWebhookEndpoint({ ...endpoint, siteId, createdAt: at });
}

/** `3 to create, 1 to change, 2 to archive` (or, once done, `3 created, …`): what the lines add up to. */
export function summarize(lines: readonly ChangeLine[], { done = false } = {}): string {
  const count = (op: ChangeLine['op']) => lines.filter((l) => l.op === op).length;
  const words = done ? ['created', 'changed', 'archived'] : ['to create', 'to change', 'to archive'];
  return `${count('+')} ${words[0]}, ${count('~')} ${words[1]}, ${count('-')} ${words[2]}`;
}
