/**
 * The library: spaces matched by name, items by key. What leaves the file is archived where it
 * is, its views kept; naming it again restores it.
 */
import { sanitizeRichText } from '../../domain/rich-text';
import type { ContentNodeRecord, ContentSpaceRecord, PlanRecord } from '../../store/records';
import { sameJson, type SiteChangeSet } from '../../store/site-definition';
import type { ContentItemEntry, SiteFile } from '../schema';
import { differences, show, type ChangeNotes } from './describe';

export type SpaceChanges = Pick<SiteChangeSet, 'createSpaces' | 'updateSpaces'>;
export type ItemChanges = Pick<SiteChangeSet, 'createItems' | 'updateItems'>;

export function spaceChanges(spaces: ContentSpaceRecord[], plans: PlanRecord[], file: SiteFile, notes: ChangeNotes): SpaceChanges {
  const changes: SpaceChanges = { createSpaces: [], updateSpaces: [] };
  const planById = new Map(plans.map((p) => [p.id, p]));
  const matched = new Set<number>();
  for (const entry of file.library) {
    const planKeys = [...new Set(entry.plans)].sort();
    // Two spaces may share a name when one was archived: the live one, else the newest.
    const candidates = spaces.filter((sp) => sp.name === entry.space && !matched.has(sp.id));
    const existing = candidates.find((sp) => sp.archivedAt === undefined) ?? candidates.at(-1);
    if (!existing) {
      changes.createSpaces.push({ name: entry.space, planKeys });
      notes.line('+', `space ${show(entry.space)}: opened by ${planKeys.join(', ') || 'no plan'}`);
      continue;
    }
    matched.add(existing.id);
    const before = existing.planIds.map((id) => planById.get(id)!.key).sort();
    const restored = existing.archivedAt !== undefined;
    if (sameJson(before, planKeys) && !restored) continue;
    changes.updateSpaces.push({ id: existing.id, planKeys, archived: false });
    const opened = [...planKeys.filter((k) => !before.includes(k)).map((k) => `+${k}`), ...before.filter((k) => !planKeys.includes(k)).map((k) => `-${k}`)];
    const what = opened.length === 0 ? [] : [`opened by ${opened.join(' ')}`];
    if (restored || what.length > 0) notes.line(restored ? '+' : '~', `space ${show(entry.space)}: ${[...(restored ? ['restored'] : []), ...what].join(', ')}`);
  }
  for (const space of spaces) {
    if (matched.has(space.id) || space.archivedAt !== undefined) continue;
    changes.updateSpaces.push({ id: space.id, planKeys: space.planIds.flatMap((id) => planById.get(id)?.key ?? []), archived: true });
    notes.line('-', `space ${show(space.name)}: archived (its items cannot be opened; their views are kept)`);
  }
  return changes;
}

export function itemChanges(items: ContentNodeRecord[], spaces: ContentSpaceRecord[], file: SiteFile, notes: ChangeNotes): ItemChanges {
  const changes: ItemChanges = { createItems: [], updateItems: [] };
  const byKey = new Map(items.map((n) => [n.key, n]));
  const spaceName = new Map(spaces.map((sp) => [sp.id, sp.name]));
  file.library.forEach((entry, i) => {
    entry.items.forEach((item, j) => {
      const desired = itemFields(item, entry.space);
      if (!desired) {
        notes.refuse(['library', i, 'items', j, 'body'], 'the article has no text left once cut to the allowed HTML');
        return;
      }
      const existing = byKey.get(item.key);
      if (!existing) {
        changes.createItems.push({ key: item.key, ...desired });
        notes.line('+', `item ${item.key}: ${show(item.name)} (${item.type}) in ${show(entry.space)}`);
        return;
      }
      const before = { ...storedItemFields(existing), space: spaceName.get(existing.spaceId)! };
      const restored = existing.archivedAt !== undefined;
      const shown = differences(before, desired);
      if (shown.length === 0 && !restored) return;
      changes.updateItems.push({ id: existing.id, ...desired, archived: false });
      notes.line(restored ? '+' : '~', `item ${item.key}: ${[...(restored ? ['restored'] : []), ...shown].join(', ')}`);
    });
  });
  const inFile = new Set(file.library.flatMap((sp) => sp.items.map((it) => it.key)));
  for (const item of items) {
    if (inFile.has(item.key) || item.archivedAt !== undefined) continue;
    // Archived where it is: its space may be archived in the same change.
    changes.updateItems.push({ id: item.id, ...storedItemFields(item), archived: true });
    notes.line('-', `item ${item.key}: archived (members cannot open it; its views are kept)`);
  }
  return changes;
}

/** An item as the store keeps it: an article's body cut to the allowed HTML. Undefined when nothing of it is left. */
function itemFields(item: ContentItemEntry, space: string) {
  if (item.type === 'article') {
    const body = sanitizeRichText(item.body);
    return body === undefined ? undefined : { name: item.name, type: item.type, body, space };
  }
  return { name: item.name, type: item.type, url: item.url, space };
}

function storedItemFields(item: { name: string; type: ContentItemEntry['type']; url?: string; body?: string }) {
  return { name: item.name, type: item.type, ...(item.url !== undefined && { url: item.url }), ...(item.body !== undefined && { body: item.body }) };
}
