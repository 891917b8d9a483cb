/**
 * The in-memory store, for tests and the mock server.
 * Rows live in arrays kept in id order, so keyset pages start with a binary search.
 * Batches validate every row before inserting any, so a failing batch changes nothing.
 */
import type { SiteMetrics } from '../../../contract/admin';
import { ConflictError, MissingReferenceError } from '../errors';
import { memoryAccounts } from './accounts';
import { memoryLeases } from './leases';
import { memoryLimits } from './limits';
import { memoryMemberTokens } from './member-tokens';
import { memoryOutbox } from './outbox';
import { memoryPayments } from './payments';
import { memoryPictures } from './pictures';
import { memorySiteDefinition } from './site-definition';
import { memoryProcessorEvents } from './processor-events';
import { memoryTestProcessor } from './test-processor';
import { memoryWebhooks } from './webhooks';
import { Table, copy, requireIn } from './table';
import type { MemberFilter, Page, Range } from '../queries';
import type {
  ApiKeyRecord,
  ContentViewRecord,
  MemberEventRecord,
  MemberTokenRecord,
  NewMemberEvent,
  MemberRecord,
  MembershipRecord,
  ContentNodeRecord,
  ContentSpaceRecord,
  PlanRecord,
  SignupFieldRecord,
  SiteRecord,
} from '../records';
import type { Store } from '../store';
import { DUE_AT_ONCE, announcedAt, batchWanted, eventMessages } from '../webhook-announcing';
import { memberMessage, membershipMessage } from '../../webhooks/messages';
import { mailedAddresses } from '../member-erasure';

function inRange(value: number | undefined, range: Range | undefined): boolean {
  // A range with neither end is no filter at all: rows without the value still match.
  if (!range || (range.from === undefined && range.to === undefined)) return true;
  if (value === undefined) return false;
  return (range.from === undefined || value >= range.from) && (range.to === undefined || value < range.to);
}

function eq<T>(wanted: T | undefined, actual: T): boolean {
  return wanted === undefined || wanted === actual;
}

export function createMemoryStore(): Store {
  const sites = new Table<SiteRecord>();
  const plans = new Table<PlanRecord>();
  const members = new Table<MemberRecord>();
  const memberships = new Table<MembershipRecord>();
  const events = new Table<MemberEventRecord>();
  const spaces = new Table<ContentSpaceRecord>();
  const fields = new Table<SignupFieldRecord>();
  const revisions = new Map<number, number>();
  const nodes = new Table<ContentNodeRecord>();
  const views = new Table<ContentViewRecord>();
  const keys = new Table<ApiKeyRecord>();
  const secrets = new Map<string, string>();
  const tokens = new Table<MemberTokenRecord>();

  function requireSite(siteId: number): void {
    if (!sites.byId.has(siteId)) throw new MissingReferenceError('siteId', `site ${siteId} does not exist`);
  }
  const isLive = (node: ContentNodeRecord) => node.archivedAt === undefined && spaces.byId.get(node.spaceId)?.archivedAt === undefined;
  const outbox = memoryOutbox(requireSite);
  const webhooks = memoryWebhooks(requireSite);
  const limits = memoryLimits();
  const leases = memoryLeases();
  const accounts = memoryAccounts({
    members, fields, memberships, requireSite, webhooks,
    dropUnusedTokens: (memberId) => void tokens.deleteWhere((t) => t.memberId === memberId && t.usedAt === undefined),
  });
  const payments = memoryPayments({ members, plans, memberships, requireSite, queueMail: outbox.queue, webhooks });
  const pictures = memoryPictures(members);
  const addEvents = (batch: readonly NewMemberEvent[]) => {
    for (const e of batch) requireIn(members, e.siteId, e.memberId, 'memberId');
    return batch.map((e) => events.insert((id) => ({ ...copy(e), id })).id);
  };
  const pageOf = <T>(page: Page<T>): Page<T> => ({ items: page.items.map(copy), hasMore: page.hasMore });

  function distinctActiveMembers(siteId: number, include: (m: MembershipRecord) => boolean): number {
    const seen = new Set<number>();
    for (const m of memberships.rows) {
      if (m.siteId === siteId && m.status === 'active' && include(m)) seen.add(m.memberId);
    }
    return seen.size;
  }

  const memberFilter = (siteId: number, f: MemberFilter) => (m: MemberRecord) =>
    m.siteId === siteId &&
    eq(f.email, m.email) &&
    eq(f.firstName, m.firstName) &&
    eq(f.lastName, m.lastName) &&
    eq(f.status, m.status) &&
    inRange(m.createdAt, f.created);

  return {
    async secret(name, create) {
      if (!secrets.has(name)) secrets.set(name, create());
      return secrets.get(name)!;
    },

    async createSite(site) {
      if (sites.rows.some((s) => s.subdomain === site.subdomain)) {
        throw new ConflictError('subdomain', `subdomain ${site.subdomain} is taken`);
      }
      const { memberMenu, ...rest } = copy(site);
      // Like the SQLite store: the flag is present only when on.
      return copy(sites.insert((id) => ({ ...rest, ...(memberMenu && { memberMenu }), id })));
    },
    async getSite(id) {
      const site = sites.byId.get(id);
      return site && copy(site);
    },
    async getSiteBySubdomain(subdomain) {
      const site = sites.rows.find((s) => s.subdomain === subdomain);
      return site && copy(site);
    },
    async listSites() {
      return sites.rows.map(copy);
    },
    // updateSite, getSiteDefinition and applySiteChanges: a site's settings and its whole definition.
    ...memorySiteDefinition({ sites, revisions, plans, memberships, fields, spaces, nodes }),
    async siteMetrics(siteId): Promise<SiteMetrics> {
      return {
        activeMemberCount: distinctActiveMembers(siteId, () => true),
        freeMemberCount: distinctActiveMembers(siteId, (m) => m.type === 'free'),
        paidMemberCount: distinctActiveMembers(siteId, (m) => m.type !== 'free'),
      };
    },

    async createPlan(plan) {
      requireSite(plan.siteId);
      if (plans.rows.some((p) => p.publicId === plan.publicId)) {
        throw new ConflictError('publicId', `plan public id ${plan.publicId} is taken`);
      }
      const key = plan.key ?? plan.publicId;
      if (plans.rows.some((p) => p.siteId === plan.siteId && p.key === key)) throw new ConflictError('key', `plan key ${key} is taken`);
      return copy(plans.insert((id) => ({ ...copy(plan), key, id })));
    },
    async getPlan(siteId, id) {
      const plan = plans.byId.get(id);
      return plan && plan.siteId === siteId ? copy(plan) : undefined;
    },
    async listPlans(siteId, filter, page) {
      return pageOf(
        plans.page(page, (p) => p.siteId === siteId && eq(filter.type, p.type) && filter.statuses.includes(p.status)),
      );
    },
    async countPlans(siteId, filter) {
      return plans.rows.filter(
        (p) => p.siteId === siteId && eq(filter.type, p.type) && filter.statuses.includes(p.status),
      ).length;
    },
    async planActiveMemberCounts(siteId, planIds) {
      const counts = new Map<number, number>();
      for (const planId of planIds) {
        counts.set(planId, distinctActiveMembers(siteId, (m) => m.planId === planId));
      }
      return counts;
    },

    // Sign-up fields, members' accounts (createMembers and the reads of one member), sessions, metadata.
    ...accounts.methods,
    ...pictures.methods,
    // Mailed tokens, and the writes that go with them (sign-up, redeeming a token).
    ...memoryMemberTokens({
      tokens, members, outbox, webhooks, requireSite, addEvents,
      createMember: (member) => accounts.createMembers([member])[0]!,
      patchMember: accounts.updateMember,
      memberState: accounts.memberState,
      createSession: accounts.createSession,
      revokeSessions: accounts.revokeMemberSessions,
      sessionExists: accounts.sessionExists,
      emailTaken: accounts.emailTaken,
    }),

    listMembers: async (siteId, f, page) => pageOf(members.page(page, memberFilter(siteId, f))),
    async listMemberSummaries(siteId, f, page) {
      const { items, hasMore } = pageOf(members.page(page, memberFilter(siteId, f)));
      return {
        items: items.map(({ id, email, firstName, lastName, status, createdAt }) => ({
          id, email, status, createdAt, ...(firstName !== undefined && { firstName }), ...(lastName !== undefined && { lastName }),
        })),
        hasMore,
      };
    },

    async createMemberships(batch) {
      const resolved = batch.map((m) => {
        requireIn(members, m.siteId, m.memberId, 'memberId');
        const plan = requireIn(plans, m.siteId, m.planId, 'planId') as PlanRecord;
        return { row: m, plan };
      });
      const ids = resolved.map(
        ({ row: { comp, ...row }, plan }) =>
          // `comp: false` is kept as the SQL stores read it back: absent.
          memberships.insert((id) => ({ ...copy(row), id, type: plan.type, planPublicId: plan.publicId, ...(comp && { comp }) })).id,
      );
      const hooks = webhooks.announcer();
      if (batchWanted(hooks, batch, 'membership.created')) {
        hooks.write(ids.map((id) => {
          const membership = memberships.byId.get(id)!;
          return membershipMessage('membership.created', membership, membership.createdAt);
        }));
      }
      return ids;
    },
    async listMemberships(siteId, f, page) {
      return pageOf(
        memberships.page(
          page,
          (m) =>
            m.siteId === siteId &&
            eq(f.planId, m.planId) &&
            eq(f.memberId, m.memberId) &&
            eq(f.status, m.status) &&
            inRange(m.createdAt, f.created) &&
            inRange(m.billingPeriodEnd, f.billingPeriodEnd) &&
            inRange(m.expiresAt, f.expires) &&
            inRange(m.cancelsAt, f.cancels) &&
            (!f.billable || members.byId.get(m.memberId)?.processorCustomerId !== undefined),
        ),
      );
    },
    async updateMembership(siteId, id, patch, announce) {
      const membership = memberships.byId.get(id);
      if (!membership || membership.siteId !== siteId) return undefined;
      if (patch.status !== undefined) membership.status = patch.status;
      if (patch.paymentFailure !== undefined) membership.paymentFailure = patch.paymentFailure;
      if (patch.paymentsMade !== undefined) membership.paymentsMade = patch.paymentsMade;
      if (patch.planId !== undefined) {
        const plan = plans.byId.get(patch.planId);
        if (!plan || plan.siteId !== siteId) throw new MissingReferenceError('planId', `plan ${patch.planId} does not exist in site ${siteId}`);
        membership.planId = plan.id;
        membership.planPublicId = plan.publicId;
      }
      if (patch.billing === null) delete membership.billing;
      else if (patch.billing !== undefined) membership.billing = copy(patch.billing);
      for (const key of ['expiresAt', 'cancelsAt', 'billingPeriodEnd', 'nextPlanId'] as const) {
        const value = patch[key];
        if (value === null) delete membership[key];
        else if (value !== undefined) membership[key] = value;
      }
      const hooks = webhooks.announcer();
      if (announce && hooks.wants(siteId, announce)) hooks.write([membershipMessage(announce, membership, announcedAt())], DUE_AT_ONCE);
      return copy(membership);
    },

    // Saved cards and the invoice ledger.
    ...payments.methods,
    ...memoryTestProcessor(),
    ...memoryProcessorEvents(),
    ...outbox.methods,
    // Webhook endpoints and their deliveries (issue 31).
    ...webhooks.methods,

    // Conversions and abandoned ones are webhooks; the events sign-up and token redemption write are not.
    async createMemberEvents(batch) {
      const ids = addEvents(batch);
      const hooks = webhooks.announcer();
      hooks.write(eventMessages(hooks, batch, ids));
      return ids;
    },
    async listMemberEvents(siteId, f, page) {
      return pageOf(
        events.page(
          page,
          (e) => e.siteId === siteId && eq(f.memberId, e.memberId) && inRange(e.createdAt, f.created),
        ),
      );
    },

    // What the owner's actions read and write (issue 32).
    async getMembership(siteId, id) {
      const membership = memberships.byId.get(id);
      return membership?.siteId === siteId ? copy(membership) : undefined;
    },
    async getInvoice(siteId, id) {
      const invoice = payments.invoices.byId.get(id);
      return invoice?.siteId === siteId ? copy(invoice) : undefined;
    },
    async listInvoices(siteId, f, page) {
      return pageOf(
        payments.invoices.page(page, (i) => i.siteId === siteId && eq(f.memberId, i.memberId) && eq(f.status, i.status) && inRange(i.createdAt, f.created)),
      );
    },
    async eraseMember(siteId, memberId, erasedEmail) {
      const before = members.byId.get(memberId);
      if (before?.siteId !== siteId) return undefined;
      const ofMember = (row: { siteId: number; memberId: number }) => row.siteId === siteId && row.memberId === memberId;
      const emailChanges = events.rows.filter((e) => ofMember(e) && e.eventType === 'emailChanged');
      outbox.dropMailTo(siteId, mailedAddresses(before.email, emailChanges.map((e) => e.details)));
      for (const event of emailChanges) event.details = {};
      // The member's uploaded picture (decision 0039), unless another member of the site has it.
      pictures.dropPictureOf(siteId, memberId);
      const member = accounts.eraseAccount(siteId, memberId, erasedEmail)!;
      payments.dropCardOf(siteId, memberId);
      views.deleteWhere(ofMember);
      tokens.deleteWhere(ofMember);
      const hooks = webhooks.announcer();
      if (hooks.wants(siteId, 'member.updated')) hooks.write([memberMessage('member.updated', siteId, member, announcedAt())], DUE_AT_ONCE);
      return member;
    },

    async createContentSpace(space) {
      requireSite(space.siteId);
      for (const planId of space.planIds ?? []) requireIn(plans, space.siteId, planId, 'planIds');
      const planIds = [...new Set(space.planIds ?? [])].sort((a, b) => a - b);
      return spaces.insert((id) => ({ id, siteId: space.siteId, name: space.name, planIds })).id;
    },
    async createContentNode(node) {
      requireIn(spaces, node.siteId, node.spaceId, 'spaceId');
      const key = node.key ?? `item-${nodes.nextInsertId}`;
      if (nodes.rows.some((n) => n.siteId === node.siteId && n.key === key)) throw new ConflictError('key', `content item key ${key} is taken`);
      return nodes.insert((id) => ({ ...copy(node), key: node.key ?? `item-${id}`, id })).id;
    },
    async listContentNodes(siteId) {
      return nodes.rows.filter((n) => n.siteId === siteId && isLive(n)).map(copy);
    },
    async getContentItem(siteId, nodeId) {
      const node = nodes.byId.get(nodeId);
      // An archived item, or one in an archived space, cannot be opened.
      if (!node || node.siteId !== siteId || !isLive(node)) return undefined;
      const space = spaces.byId.get(node.spaceId)!;
      return { ...copy(node), space: { id: space.id, name: space.name }, planIds: [...space.planIds] };
    },
    async createContentViews(batch) {
      const resolved = batch.map((v) => {
        requireIn(members, v.siteId, v.memberId, 'memberId');
        const node = requireIn(nodes, v.siteId, v.nodeId, 'nodeId') as ContentNodeRecord;
        return { row: v, node, space: spaces.byId.get(node.spaceId)! };
      });
      return resolved.map(
        ({ row, node, space }) =>
          views.insert((id) => ({
            ...copy(row),
            id,
            node: { id: node.id, name: node.name, type: node.type },
            space: { id: space.id, name: space.name },
          })).id,
      );
    },
    async listContentViews(siteId, f, page) {
      const found = views.page(
        page,
        (v) => v.siteId === siteId && eq(f.memberId, v.memberId) && eq(f.nodeId, v.nodeId) && inRange(v.viewedAt, f.viewed),
      );
      // Names as they are now, as the SQLite store's join reads them: the site file may rename an item.
      const items = found.items.map((v) => {
        const node = nodes.byId.get(v.nodeId)!;
        const space = spaces.byId.get(node.spaceId)!;
        return { ...copy(v), node: { id: node.id, name: node.name, type: node.type }, space: { id: space.id, name: space.name } };
      });
      return { items, hasMore: found.hasMore };
    },

    async createApiKey(key) {
      requireSite(key.siteId);
      if (keys.rows.some((k) => k.hash === key.hash)) throw new ConflictError('hash', 'key exists');
      return copy(keys.insert((id) => ({ ...copy(key), id })));
    },
    async findApiKeyByHash(hash) {
      const key = keys.rows.find((k) => k.hash === hash);
      return key && copy(key);
    },
    async revokeApiKey(hash, at) {
      const key = keys.rows.find((k) => k.hash === hash);
      if (!key || key.revokedAt !== undefined) return false;
      key.revokedAt = at;
      return true;
    },

    // Rate cells, throttled checks and leases: state every process must share (issue 16).
    ...limits.methods,
    ...leases.methods,
    deleteExpiredLimits: async (now) => limits.deleteExpired(now) + leases.deleteExpired(now),

    bulkLoad(work) {
      return work(this);
    },
    async close() {},
  };
}
