/**
 * What the scenarios need from the running service: a real member's e-mail and a cursor deep
 * into /members, found the way a client would (walking pages), then checked against the
 * database itself so "deep" really means the N-th member by id.
 */
import Database from 'better-sqlite3';

export interface MemberItem {
  id: number;
  email: string;
  [field: string]: unknown;
}

export interface Page {
  items: MemberItem[];
  hasMore: boolean;
  nextCursor: string | undefined;
}

export class AdminClient {
  constructor(readonly baseUrl: string, readonly key: string) {}

  get membersUrl(): string {
    return `${this.baseUrl}/admin/v1/members`;
  }

  async members(options: { limit?: number; cursor?: string; email?: string } = {}): Promise<Page> {
    const url = new URL(this.membersUrl);
    if (options.email !== undefined) url.searchParams.set('email', options.email);
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (options.limit !== undefined) headers['x-items-after'] = String(options.limit);
    if (options.cursor !== undefined) headers['x-cursor'] = options.cursor;
    const response = await fetch(url, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${url.pathname}${url.search} answered ${response.status}: ${text.slice(0, 300)}`);
    if (!response.headers.get('content-type')?.startsWith('application/json')) {
      throw new Error(`GET ${url.pathname} answered content-type ${response.headers.get('content-type')}`);
    }
    const items = JSON.parse(text) as MemberItem[];
    if (!Array.isArray(items)) throw new Error(`GET ${url.pathname} answered no array: ${text.slice(0, 200)}`);
    return {
      items,
      hasMore: response.headers.get('x-has-more-items-after') === 'true',
      nextCursor: response.headers.get('x-next-cursor') ?? undefined,
    };
  }
}

/** The database's own view of the demo site: member count and the id at a given 0-based offset. */
export function openDbFacts(path: string): { count: number; idAtOffset(offset: number): number | undefined; close(): void } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const site = db.prepare("SELECT id FROM sites WHERE subdomain = 'demo'").get() as { id: number } | undefined;
  if (!site) {
    db.close();
    throw new Error(`no demo site in ${path}`);
  }
  const { n } = db.prepare('SELECT count(*) AS n FROM members WHERE site_id = ?').get(site.id) as { n: number };
  const at = db.prepare('SELECT id FROM members WHERE site_id = ? ORDER BY id LIMIT 1 OFFSET ?');
  return {
    count: n,
    idAtOffset: (offset) => (at.get(site.id, offset) as { id: number } | undefined)?.id,
    close: () => db.close(),
  };
}

export interface DeepCursor {
  cursor: string;
  /** Pages of 25 walked past: the cursor is the one page `page` hands out. */
  page: number;
  /** Items walked past: page × 25; the deep page holds items skipped + 1 … skipped + 25. */
  skipped: number;
  /** Id of the first item on that page, as the API answered it. */
  firstId: number;
  requests: number;
  walkSec: number;
}

/**
 * The cursor page `pageAt25` (at 25 per page) hands out, found by walking /members from the start
 * with X-Items-After: 100 (a smaller last step when the count is no multiple of 100): for page
 * 10,000 that is 2,500 requests past 250,000 items. Page size is not bound into the cursor, so
 * the next request at the default 25 per page answers items 250,001–250,025. Checks on the way
 * that every page is full, ids strictly rise, and the deep page itself has 25 items.
 */
export async function walkToDeepCursor(client: AdminClient, pageAt25: number): Promise<DeepCursor> {
  const skip = pageAt25 * 25;
  const started = performance.now();
  let cursor: string | undefined;
  let seen = 0;
  let lastId = 0;
  let requests = 0;
  while (seen < skip) {
    const limit = Math.min(100, skip - seen);
    const page = await client.members({ limit, ...(cursor !== undefined && { cursor }) });
    requests++;
    if (page.items.length !== limit || !page.hasMore || page.nextCursor === undefined) {
      throw new Error(`walk: page ${requests} had ${page.items.length}/${limit} items (hasMore ${page.hasMore}) after ${seen} items`);
    }
    for (const item of page.items) {
      if (!(item.id > lastId)) throw new Error(`walk: id ${item.id} after ${lastId} is not ascending`);
      lastId = item.id;
    }
    seen += page.items.length;
    cursor = page.nextCursor;
    if (requests % 500 === 0) process.stderr.write(`[bench] walked ${seen.toLocaleString('en-US')} members (${requests} requests)\n`);
  }
  const walkSec = (performance.now() - started) / 1000;
  const deep = await client.members(cursor === undefined ? {} : { cursor });
  const first = deep.items[0];
  if (deep.items.length !== 25 || first === undefined) throw new Error(`deep page ${pageAt25} has ${deep.items.length} items, not 25`);
  if (!(first.id > lastId)) throw new Error(`deep page starts at id ${first.id}, not after the walked ${lastId}`);
  return { cursor: cursor ?? '', page: pageAt25, skipped: skip, firstId: first.id, requests, walkSec };
}
