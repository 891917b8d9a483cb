/**
 * The memory store's side of the site file: a site's whole definition, and carrying out a change
 * set all or nothing (../site-definition, ./site-changes).
 */
import type { SiteChangeSet } from '../site-definition';
import type { Store } from '../store';
import { applyChanges, patchSite, type SiteDefinitionTables } from './site-changes';
import { copy } from './table';

export type { SiteDefinitionTables } from './site-changes';

type SiteDefinitionMethods = Pick<Store, 'getSiteDefinition' | 'applySiteChanges' | 'updateSite'>;

export function memorySiteDefinition(t: SiteDefinitionTables): SiteDefinitionMethods {
  const bump = (siteId: number) => t.revisions.set(siteId, (t.revisions.get(siteId) ?? 0) + 1);

  return {
    async updateSite(id, patch) {
      const site = t.sites.byId.get(id);
      if (!site) return undefined;
      patchSite(site, patch);
      bump(id);
      return copy(site);
    },

    async getSiteDefinition(siteId) {
      const site = t.sites.byId.get(siteId);
      if (!site) return undefined;
      const plans = t.plans.rows.filter((p) => p.siteId === siteId).map((plan) => {
        const held = t.memberships.rows.filter((m) => m.siteId === siteId && m.planId === plan.id);
        const active = new Set(held.filter((m) => m.status === 'active').map((m) => m.memberId));
        return { ...copy(plan), membershipCount: held.length, activeMemberCount: active.size };
      });
      return {
        site: copy(site),
        revision: t.revisions.get(siteId) ?? 0,
        plans,
        signupFields: t.fields.rows
          .filter((f) => f.siteId === siteId)
          .sort((x, y) => x.position - y.position || x.id - y.id)
          .map(copy),
        spaces: t.spaces.rows.filter((s) => s.siteId === siteId).map(copy),
        items: t.nodes.rows.filter((n) => n.siteId === siteId).map(copy),
      };
    },

    async applySiteChanges(changes: SiteChangeSet) {
      return applyChanges(t, changes);
    },
  };
}
