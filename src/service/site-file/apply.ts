/**
 * Applying a site file to the store: read the site's definition, work out the changes, and
 * (unless it is a dry run) make them in one transaction. `svc sites apply` and the demo use it.
 */
import type { Clock } from '../domain/clock';
import type { Store } from '../store/store';
import { changesNothing, siteChanges, type ChangeLine } from './changes';
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
  const { changeSet, lines } = siteChanges(current, file, clock);
  if (dryRun || changesNothing(changeSet)) return { siteId: site?.id, created: false, lines, written: false };
  const siteId = await store.applySiteChanges(changeSet);
  return { siteId, created: !site, lines, written: true };
}

/** `3 to create, 1 to change, 2 to archive` (or, once done, `3 created, …`): what the lines add up to. */
export function summarize(lines: readonly ChangeLine[], { done = false } = {}): string {
  const count = (op: ChangeLine['op']) => lines.filter((l) => l.op === op).length;
  const words = done ? ['created', 'changed', 'archived'] : ['to create', 'to change', 'to archive'];
  return `${count('+')} ${words[0]}, ${count('~')} ${words[1]}, ${count('-')} ${words[2]}`;
}
