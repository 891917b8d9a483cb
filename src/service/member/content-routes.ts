/**
 * Protected content (spec 4.1, "Protected content"): GET /content/{contentId} hands an item to a
 * member whose active membership is on a plan that opens its space, and records the viewing
 * (Admin API, /contentLibrary/views). GET /content/{contentId}/plans names the public plans
 * that open it, so a visitor without access can be offered one.
 */
import type { Context, Hono } from 'hono';
import type { ContentAccessPlans, ContentItem, ContentViewingPreference } from '../../contract/member';
import { CONTENT_VIEWS } from '../../contract/member';
import { membershipStatus } from '../billing/membership-terms';
import type { Clock } from '../domain/clock';
import { contentViewFor } from '../domain/content-views';
import { OWNER_KEY } from '../domain/plan-schema';
import { parseId } from '../domain/validation';
import { jsonResponse } from '../http/json';
import type { ContentItemRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { MemberError } from './errors';
import { listedPlans, toPlanOffer } from './plan-offers';
import type { Authenticated } from './sessions';

type Env = { Variables: { site: SiteRecord } };

export interface ContentRouteDeps {
  store: Store;
  clock: Clock;
  authenticate(c: Context<Env>): Promise<Authenticated>;
}

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The item `contentId` names: its id (`372`, spelled canonically), or the owner's key from the
 * site file (`issue-41`), so a page links an item by the name it has in the file. Anything else
 * (`0372`, `372.0`) names no item: 404, like an unknown one.
 */
async function findItem(store: Store, site: SiteRecord, contentId: string): Promise<ContentItemRecord> {
  let id = parseId(contentId);
  if (id === undefined && OWNER_KEY.test(contentId)) {
    // Live items only (archived ones and those of archived spaces are left out), as getContentItem answers.
    id = (await store.listContentNodes(site.id)).find((node) => node.key === contentId)?.id;
  }
  const item = id === undefined ? undefined : await store.getContentItem(site.id, id);
  if (!item) throw MemberError.of(404, 'notFound', 'No content with that id', 'contentId');
  return item;
}

function readView(value: string | undefined): ContentViewingPreference | undefined {
  if (value === undefined) return undefined;
  if ((CONTENT_VIEWS as readonly string[]).includes(value)) return value as ContentViewingPreference;
  throw MemberError.of(400, 'invalidField', 'view is "download" or "popup"', 'view');
}

export function contentRoutes(app: Hono<Env>, { store, clock, authenticate }: ContentRouteDeps): void {
  app.get('/sites/:subdomain/content/:contentId', async (c) => {
    const site = c.get('site');
    const { member } = await authenticate(c);
    const asked = readView(c.req.query('view'));
    const item = await findItem(store, site, c.req.param('contentId'));
    const now = clock();
    const memberships = await store.listMembershipsOfMember(site.id, member.id);
    const opens = memberships.some((m) => membershipStatus(m, now) === 'active' && item.planIds.includes(m.planId));
    if (!opens) throw MemberError.of(403, 'noAccess', 'None of your plans opens this content', 'contentId');

    await store.createContentViews([{ siteId: site.id, memberId: member.id, nodeId: item.id, viewedAt: now }]);
    // An article's body was cut to the rich-text allowlist when it was saved (domain/content.ts).
    const body = item.type === 'article' ? item.body : undefined;
    const answer: ContentItem = {
      id: item.id,
      name: item.name,
      type: item.type,
      space: item.space,
      view: contentViewFor(item.type, asked),
      ...(item.url !== undefined && { url: item.url }),
      ...(body !== undefined && { body }),
    };
    return jsonResponse(answer, 200, NO_STORE);
  });

  app.get('/sites/:subdomain/content/:contentId/plans', async (c) => {
    const site = c.get('site');
    const item = await findItem(store, site, c.req.param('contentId'));
    const plans = (await listedPlans(store, site.id)).filter((p) => item.planIds.includes(p.id));
    const now = clock();
    const answer: ContentAccessPlans = { name: item.name, plans: plans.map((p) => toPlanOffer(p, now)) };
    return jsonResponse(answer);
  });
}
