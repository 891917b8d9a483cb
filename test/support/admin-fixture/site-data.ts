/** Reading back what the store holds, through the store's own list methods. */
import { PLAN_STATUSES } from '../../../src/contract/admin';
import type { Page, PageRequest } from '../../../src/service/store/queries';
import type {
  ContentNodeRecord,
  ContentViewRecord,
  InvoiceRecord,
  MemberEventRecord,
  MemberRecord,
  MembershipRecord,
  PlanRecord,
  SiteRecord,
} from '../../../src/service/store/records';
import type { Store } from '../../../src/service/store/store';

/** Every row a keyset-paged store query returns, page by page. */
export async function readAll<T extends { id: number }>(list: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let afterId: number | undefined;
  for (;;) {
    const page = await list({ limit: 250, ...(afterId !== undefined && { afterId }) });
    rows.push(...page.items);
    if (!page.hasMore) return rows;
    afterId = page.items[page.items.length - 1]!.id;
  }
}

/** Everything the store holds for one site, read through the store's own list methods. */
export interface SiteData {
  site: SiteRecord;
  plans: PlanRecord[];
  members: MemberRecord[];
  memberships: MembershipRecord[];
  events: MemberEventRecord[];
  views: ContentViewRecord[];
  nodes: ContentNodeRecord[];
  /** The ledger (GET /invoices, issue 32). */
  invoices: InvoiceRecord[];
}

export async function readSiteData(store: Store, siteId: number): Promise<SiteData> {
  return {
    site: (await store.getSite(siteId))!,
    plans: await readAll((page) => store.listPlans(siteId, { statuses: PLAN_STATUSES }, page)),
    members: await readAll((page) => store.listMembers(siteId, {}, page)),
    memberships: await readAll((page) => store.listMemberships(siteId, {}, page)),
    events: await readAll((page) => store.listMemberEvents(siteId, {}, page)),
    views: await readAll((page) => store.listContentViews(siteId, {}, page)),
    nodes: await store.listContentNodes(siteId),
    invoices: await readAll((page) => store.listInvoices(siteId, {}, page)),
  };
}
