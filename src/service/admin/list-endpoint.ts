/**
 * One definition per list endpoint (what it filters on, how it reads the store, how it shows a
 * row); paging, cursors and headers are the same for all of them and live here once.
 */
import type { Context } from 'hono';
import type { Scope } from '../../contract/admin';
import type { Page, PageRequest } from '../store/queries';
import type { SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import type { AdminEnv } from './auth';
import { requireScope } from './auth';
import { canonicalFilters, type CursorCodec } from './cursor';
import { AdminError } from './errors';
import { jsonResponse } from '../http/json';
import { QueryReader, readPagingHeaders } from './params';

export interface ListEndpoint<F extends object, R extends { id: number }, W> {
  path: string;
  scope: Scope;
  filters(query: QueryReader): F;
  list(store: Store, siteId: number, filter: F, page: PageRequest): Promise<Page<R>>;
  toWire(store: Store, site: SiteRecord, records: R[]): W[] | Promise<W[]>;
  /** When set, the response carries `X-Total-Count` (items matching, ignoring paging). */
  total?(store: Store, siteId: number, filter: F): Promise<number>;
}

export function listHandler<F extends object, R extends { id: number }, W>(
  def: ListEndpoint<F, R, W>,
  store: Store,
  cursors: CursorCodec,
) {
  return async (c: Context<AdminEnv>): Promise<Response> => {
    const site = c.get('site');
    requireScope(c.get('key'), def.scope);
    // Parsing the URL again costs more than the rest of reading the request: only when it has a query.
    const query = new QueryReader(c.req.url.includes('?') ? new URL(c.req.url).searchParams : new URLSearchParams());
    const filter = def.filters(query);
    const paging = readPagingHeaders(c.req.raw.headers, query);
    query.done();
    const cursorScope = { siteId: site.id, endpoint: def.path, filters: canonicalFilters(filter) };
    let afterId: number | undefined;
    if (paging.cursor !== undefined) {
      afterId = cursors.decode(cursorScope, paging.cursor);
      if (afterId === undefined) {
        throw AdminError.of(
          400,
          'invalidCursor',
          'X-Cursor is not a cursor this endpoint issued for these filters; start again without it',
          'X-Cursor',
        );
      }
    }
    const list = def.list(store, site.id, filter, { limit: paging.limit, ...(afterId !== undefined && { afterId }) });
    const [page, total] = def.total ? await Promise.all([list, def.total(store, site.id, filter)]) : [await list];
    const headers: Record<string, string> = { 'x-has-more-items-after': String(page.hasMore) };
    const last = page.items[page.items.length - 1];
    if (page.hasMore && last) headers['x-next-cursor'] = cursors.encode(cursorScope, last.id);
    if (total !== undefined) headers['x-total-count'] = String(total);
    return jsonResponse(await def.toWire(store, site, page.items), 200, headers);
  };
}
