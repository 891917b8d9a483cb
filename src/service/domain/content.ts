/**
 * Writing a site owner's library to the store (spec 4.1, "Protected content"; 2.6): items in
 * spaces, opened by plans. Articles are sanitized here, when saved (sanitize-html is Node-only,
 * so the app itself never imports this file).
 */
import type { ContentNodeType } from '../../contract/admin';
import type { Store } from '../store/store';
import { sanitizeRichText } from './rich-text';
import { siteAddress } from './validation';

export interface ContentItemInput {
  name: string;
  type: ContentNodeType;
  /** Required for every type but `article`: an http(s) address, or a path on the site (`/…`). */
  url?: string;
  /** Required for an `article`: rich text, cut to the allowlist when saved. */
  body?: string;
}

export interface ContentSpaceInput {
  name: string;
  /** The plans (by id) whose active members may view the space's items. */
  planIds: number[];
  items: ContentItemInput[];
}

export class ContentInputError extends Error {
  override readonly name = 'ContentInputError';
}

function checkItem(item: ContentItemInput): ContentItemInput {
  if (!item.name.trim()) throw new ContentInputError('A content item needs a name');
  if (item.type === 'article') {
    const body = sanitizeRichText(item.body);
    if (!body) throw new ContentInputError(`The article "${item.name}" needs a body`);
    return { name: item.name, type: item.type, body };
  }
  // A path on the site itself (`/files/a.pdf`) is kept as a path: the browser resolves it
  // against the page, so it is an address on the site that shows the item.
  const url = siteAddress(item.url);
  if (!url) throw new ContentInputError(`The ${item.type} "${item.name}" needs an http(s) url or a path on the site (/…)`);
  return { name: item.name, type: item.type, url };
}

/** Writes a space and its items; answers the items' ids in order. Checks every item before writing any. */
export async function defineContentSpace(store: Store, siteId: number, input: ContentSpaceInput): Promise<number[]> {
  if (!input.name.trim()) throw new ContentInputError('A content space needs a name');
  const items = input.items.map(checkItem);
  const spaceId = await store.createContentSpace({ siteId, name: input.name, planIds: input.planIds });
  const ids: number[] = [];
  for (const item of items) ids.push(await store.createContentNode({ siteId, spaceId, ...item }));
  return ids;
}
