/**
 * The memory store's side of the site file: a site's whole definition, and carrying out a change
 * set all or nothing (../site-definition). Every reference is resolved and every rule checked
 * before the first row changes, so a failing change set leaves the tables as they were.
 */
import { ConflictError, MissingReferenceError } from '../errors';
import { Table, copy, requireIn } from './table';
import type {
  ContentNodeRecord,
  ContentSpaceRecord,
  MembershipRecord,
  PlanRecord,
  SignupFieldRecord,
  SitePatch,
  SiteRecord,
} from '../records';
import { sameJson, type SiteChangeSet } from '../site-definition';
import type { Store } from '../store';

export interface SiteDefinitionTables {
  sites: Table<SiteRecord>;
  /** Per site id; absent means 0. */
  revisions: Map<number, number>;
  plans: Table<PlanRecord>;
  memberships: Table<MembershipRecord>;
  fields: Table<SignupFieldRecord>;
  spaces: Table<ContentSpaceRecord>;
  nodes: Table<ContentNodeRecord>;
}

type SiteDefinitionMethods = Pick<Store, 'getSiteDefinition' | 'applySiteChanges' | 'updateSite'>;

function patchSite(site: SiteRecord, patch: SitePatch): void {
  if (patch.name !== undefined) site.name = patch.name;
  if (patch.domain !== undefined) site.domain = patch.domain;
  if (patch.defaultCurrency !== undefined) site.defaultCurrency = patch.defaultCurrency;
  if (patch.locale !== undefined) site.locale = patch.locale;
  if (patch.adminApiEnabled !== undefined) site.adminApiEnabled = patch.adminApiEnabled;
  // Like the SQLite store: the flag is present only when on.
  if (patch.memberMenu === true) site.memberMenu = true;
  if (patch.memberMenu === false) delete site.memberMenu;
  if (patch.afterRegistration !== undefined) site.afterRegistration = copy(patch.afterRegistration);
  if (patch.checkboxLabels === null) delete site.checkboxLabels;
  else if (patch.checkboxLabels !== undefined) site.checkboxLabels = copy(patch.checkboxLabels);
  if (patch.theme === null) delete site.theme;
  else if (patch.theme !== undefined) site.theme = copy(patch.theme);
  if (patch.mail === null) delete site.mail;
  else if (patch.mail !== undefined) site.mail = copy(patch.mail);
}

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
      // Check everything first.
      let existing: SiteRecord | undefined;
      if ('create' in changes.site) {
        const subdomain = changes.site.create.subdomain;
        if (t.sites.rows.some((s) => s.subdomain === subdomain)) throw new ConflictError('subdomain', `subdomain ${subdomain} is taken`);
      } else {
        existing = t.sites.byId.get(changes.site.id);
        if (!existing) throw new MissingReferenceError('siteId', `site ${changes.site.id} does not exist`);
        if ((t.revisions.get(existing.id) ?? 0) !== changes.site.revision) {
          throw new ConflictError('revision', 'the site changed since its definition was read');
        }
      }
      const siteId = existing?.id ?? -1;
      const ofSite = <R extends { siteId: number }>(rows: R[]) => rows.filter((r) => r.siteId === siteId);

      const planKeys = new Set(ofSite(t.plans.rows).map((p) => p.key));
      const publicIds = new Set(t.plans.rows.map((p) => p.publicId));
      for (const p of changes.createPlans) {
        if (planKeys.has(p.key)) throw new ConflictError('key', `plan key ${p.key} is taken`);
        if (publicIds.has(p.publicId)) throw new ConflictError('publicId', `plan public id ${p.publicId} is taken`);
        planKeys.add(p.key);
        publicIds.add(p.publicId);
      }
      const plansToUpdate = changes.updatePlans.map((change) => {
        const plan = requireIn(t.plans, siteId, change.id, 'planId');
        if (plan.type !== change.type) throw new ConflictError('type', `plan ${plan.id} is a ${plan.type} plan`);
        return { plan, change };
      });
      const fieldKeys = new Set(ofSite(t.fields.rows).map((f) => f.key));
      for (const f of changes.createSignupFields) {
        if (fieldKeys.has(f.key)) throw new ConflictError('key', `sign-up field key ${f.key} is taken`);
        fieldKeys.add(f.key);
      }
      const fieldsToUpdate = changes.updateSignupFields.map((change) => ({
        field: requireIn(t.fields, siteId, change.id, 'fieldId'),
        change,
      }));
      for (const s of [...changes.createSpaces, ...changes.updateSpaces]) {
        for (const key of s.planKeys) {
          if (!planKeys.has(key)) throw new MissingReferenceError('planKeys', `plan ${key} does not exist in site ${siteId}`);
        }
      }
      const spacesToUpdate = changes.updateSpaces.map((change) => ({ space: requireIn(t.spaces, siteId, change.id, 'spaceId'), change }));
      const liveSpaces = new Set(ofSite(t.spaces.rows).filter((s) => s.archivedAt === undefined).map((s) => s.name));
      for (const { space, change } of spacesToUpdate) {
        if (change.archived) liveSpaces.delete(space.name);
        else liveSpaces.add(space.name);
      }
      for (const s of changes.createSpaces) {
        if (liveSpaces.has(s.name)) throw new ConflictError('space', `the site has a space named ${s.name}`);
        liveSpaces.add(s.name);
      }
      const itemKeys = new Set(ofSite(t.nodes.rows).map((n) => n.key));
      for (const i of changes.createItems) {
        if (itemKeys.has(i.key)) throw new ConflictError('key', `content item key ${i.key} is taken`);
        itemKeys.add(i.key);
      }
      const itemsToUpdate = changes.updateItems.map((change) => ({ node: requireIn(t.nodes, siteId, change.id, 'itemId'), change }));
      for (const i of [...changes.createItems, ...changes.updateItems]) {
        if (i.space !== undefined && !liveSpaces.has(i.space)) throw new MissingReferenceError('space', `space ${i.space} does not exist in site ${siteId}`);
      }

      // Then write.
      let site: SiteRecord;
      if ('create' in changes.site) {
        const { memberMenu, ...rest } = copy(changes.site.create);
        site = t.sites.insert((id) => ({ ...rest, ...(memberMenu && { memberMenu }), id }));
      } else {
        site = existing!;
        patchSite(site, changes.site.patch);
        bump(site.id);
      }
      const at = changes.at;
      const archive = (row: { archivedAt?: number }, archived: boolean) => {
        if (!archived) delete row.archivedAt;
        else row.archivedAt ??= at;
      };

      for (const p of changes.createPlans) t.plans.insert((id) => ({ ...copy(p), siteId: site.id, id }) as PlanRecord);
      for (const { plan, change } of plansToUpdate) {
        const { id: _id, ...given } = copy(change);
        // An explicit undefined is an absent field, as SQLite's NULL reads back.
        const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as typeof given;
        const oldBilling = 'billing' in plan ? plan.billing : undefined;
        if (oldBilling && !sameJson(oldBilling, 'billing' in fields ? fields.billing : undefined)) {
          // Members keep what they joined under.
          for (const m of t.memberships.rows) {
            if (m.siteId === site.id && m.planId === plan.id && m.billing === undefined) m.billing = copy(oldBilling);
          }
        }
        const optional = plan as { description?: string; contentUrl?: string; welcomeUrl?: string; expiration?: unknown; billing?: unknown };
        for (const key of ['description', 'contentUrl', 'welcomeUrl', 'position', 'expiration', 'billing'] as const) delete (optional as Record<string, unknown>)[key];
        Object.assign(plan, fields);
      }

      for (const f of changes.createSignupFields) t.fields.insert((id) => ({ ...copy(f), siteId: site.id, id }));
      for (const { field, change } of fieldsToUpdate) {
        field.label = change.label;
        field.required = change.required;
        field.position = change.position;
        if (change.options === undefined) delete field.options;
        else field.options = copy(change.options);
        archive(field, change.archived);
      }

      const planIdOf = (key: string) => t.plans.rows.find((p) => p.siteId === site.id && p.key === key)!.id;
      const planIdsOf = (keys: readonly string[]) => [...new Set(keys.map(planIdOf))].sort((a, b) => a - b);
      for (const { space, change } of spacesToUpdate) {
        space.planIds = planIdsOf(change.planKeys);
        archive(space, change.archived);
      }
      for (const s of changes.createSpaces) t.spaces.insert((id) => ({ id, siteId: site.id, name: s.name, planIds: planIdsOf(s.planKeys) }));

      const spaceIdOf = (name: string) => t.spaces.rows.find((s) => s.siteId === site.id && s.name === name && s.archivedAt === undefined)!.id;
      for (const { node, change } of itemsToUpdate) {
        if (change.space !== undefined) node.spaceId = spaceIdOf(change.space);
        node.name = change.name;
        node.type = change.type;
        if (change.url === undefined) delete node.url;
        else node.url = change.url;
        if (change.body === undefined) delete node.body;
        else node.body = change.body;
        archive(node, change.archived);
      }
      for (const { space, ...item } of changes.createItems) {
        t.nodes.insert((id) => ({ ...copy(item), siteId: site.id, spaceId: spaceIdOf(space), id }));
      }
      return site.id;
    },
  };
}
