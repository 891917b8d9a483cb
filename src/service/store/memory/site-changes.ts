/**
 * The memory store carries out a site's change set all or nothing: every reference is resolved
 * and every rule checked first (checkChanges), and only then do rows change (writeChanges), so a
 * refused change set leaves the tables as they were. The SQL stores get the same from a
 * transaction (../site-change-steps).
 */
import { ConflictError, MissingReferenceError } from '../errors';
import type { ContentNodeRecord, ContentSpaceRecord, MembershipRecord, PlanRecord, SignupFieldRecord, SitePatch, SiteRecord } from '../records';
import { sameJson, type ContentItemChange, type PlanChange, type SignupFieldChange, type SiteChangeSet } from '../site-definition';
import { type Table, copy, requireIn } from './table';

/** The tables a site's definition lives in. */
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

/** The change set with its rows resolved: what writeChanges changes, each row beside its change. */
interface CheckedChanges {
  changes: SiteChangeSet;
  existing: SiteRecord | undefined;
  plans: { plan: PlanRecord; change: PlanChange }[];
  fields: { field: SignupFieldRecord; change: SignupFieldChange }[];
  spaces: { space: ContentSpaceRecord; change: SiteChangeSet['updateSpaces'][number] }[];
  items: { node: ContentNodeRecord; change: ContentItemChange }[];
}

export function applyChanges(t: SiteDefinitionTables, changes: SiteChangeSet): number {
  return writeChanges(t, checkChanges(t, changes));
}

function checkChanges(t: SiteDefinitionTables, changes: SiteChangeSet): CheckedChanges {
  const existing = checkSite(t, changes.site);
  const siteId = existing?.id ?? -1;
  const ofSite = <R extends { siteId: number }>(rows: R[]) => rows.filter((r) => r.siteId === siteId);
  const unique = (taken: Set<string | undefined>, key: string, refusal: () => ConflictError) => {
    if (taken.has(key)) throw refusal();
    taken.add(key);
  };

  const planKeys = new Set(ofSite(t.plans.rows).map((p) => p.key));
  const publicIds = new Set(t.plans.rows.map((p) => p.publicId));
  for (const p of changes.createPlans) {
    unique(planKeys, p.key, () => new ConflictError('key', `plan key ${p.key} is taken`));
    unique(publicIds, p.publicId, () => new ConflictError('publicId', `plan public id ${p.publicId} is taken`));
  }
  const plans = changes.updatePlans.map((change) => {
    const plan = requireIn(t.plans, siteId, change.id, 'planId');
    if (plan.type !== change.type) throw new ConflictError('type', `plan ${plan.id} is a ${plan.type} plan`);
    return { plan, change };
  });

  const fieldKeys = new Set(ofSite(t.fields.rows).map((f) => f.key));
  for (const f of changes.createSignupFields) unique(fieldKeys, f.key, () => new ConflictError('key', `sign-up field key ${f.key} is taken`));
  const fields = changes.updateSignupFields.map((change) => ({ field: requireIn(t.fields, siteId, change.id, 'fieldId'), change }));

  for (const key of [...changes.createSpaces, ...changes.updateSpaces].flatMap((s) => s.planKeys)) {
    if (!planKeys.has(key)) throw new MissingReferenceError('planKeys', `plan ${key} does not exist in site ${siteId}`);
  }
  const spaces = changes.updateSpaces.map((change) => ({ space: requireIn(t.spaces, siteId, change.id, 'spaceId'), change }));
  // The live space names after the change: archiving frees a name, and a new space may take it.
  const liveSpaces = new Set(ofSite(t.spaces.rows).filter((s) => s.archivedAt === undefined).map((s) => s.name));
  for (const { space, change } of spaces) {
    if (change.archived) liveSpaces.delete(space.name);
    else liveSpaces.add(space.name);
  }
  for (const s of changes.createSpaces) unique(liveSpaces, s.name, () => new ConflictError('space', `the site has a space named ${s.name}`));

  const itemKeys = new Set(ofSite(t.nodes.rows).map((n) => n.key));
  for (const i of changes.createItems) unique(itemKeys, i.key, () => new ConflictError('key', `content item key ${i.key} is taken`));
  const items = changes.updateItems.map((change) => ({ node: requireIn(t.nodes, siteId, change.id, 'itemId'), change }));
  for (const i of [...changes.createItems, ...changes.updateItems]) {
    if (i.space !== undefined && !liveSpaces.has(i.space)) throw new MissingReferenceError('space', `space ${i.space} does not exist in site ${siteId}`);
  }
  return { changes, existing, plans, fields, spaces, items };
}

/** The site a change set patches (undefined for one it creates), checked against the revision it was computed from. */
function checkSite(t: SiteDefinitionTables, site: SiteChangeSet['site']): SiteRecord | undefined {
  if ('create' in site) {
    const { subdomain } = site.create;
    if (t.sites.rows.some((s) => s.subdomain === subdomain)) throw new ConflictError('subdomain', `subdomain ${subdomain} is taken`);
    return undefined;
  }
  const existing = t.sites.byId.get(site.id);
  if (!existing) throw new MissingReferenceError('siteId', `site ${site.id} does not exist`);
  if ((t.revisions.get(existing.id) ?? 0) !== site.revision) throw new ConflictError('revision', 'the site changed since its definition was read');
  return existing;
}

function writeChanges(t: SiteDefinitionTables, checked: CheckedChanges): number {
  const { changes } = checked;
  const siteId = writeSite(t, changes.site, checked.existing);
  const archive = (row: { archivedAt?: number }, archived: boolean) => {
    if (!archived) delete row.archivedAt;
    else row.archivedAt ??= changes.at;
  };

  for (const p of changes.createPlans) t.plans.insert((id) => ({ ...copy(p), siteId, id }) as PlanRecord);
  for (const { plan, change } of checked.plans) writePlan(t, plan, change);

  for (const f of changes.createSignupFields) t.fields.insert((id) => ({ ...copy(f), siteId, id }));
  for (const { field, change } of checked.fields) {
    field.label = change.label;
    field.required = change.required;
    field.position = change.position;
    if (change.options === undefined) delete field.options;
    else field.options = copy(change.options);
    archive(field, change.archived);
  }

  const planIdOf = (key: string) => t.plans.rows.find((p) => p.siteId === siteId && p.key === key)!.id;
  const planIdsOf = (keys: readonly string[]) => [...new Set(keys.map(planIdOf))].sort((a, b) => a - b);
  for (const { space, change } of checked.spaces) {
    space.planIds = planIdsOf(change.planKeys);
    archive(space, change.archived);
  }
  for (const s of changes.createSpaces) t.spaces.insert((id) => ({ id, siteId, name: s.name, planIds: planIdsOf(s.planKeys) }));

  const spaceIdOf = (name: string) => t.spaces.rows.find((s) => s.siteId === siteId && s.name === name && s.archivedAt === undefined)!.id;
  for (const { node, change } of checked.items) {
    if (change.space !== undefined) node.spaceId = spaceIdOf(change.space);
    node.name = change.name;
    node.type = change.type;
    if (change.url === undefined) delete node.url;
    else node.url = change.url;
    if (change.body === undefined) delete node.body;
    else node.body = change.body;
    archive(node, change.archived);
  }
  for (const { space, ...item } of changes.createItems) t.nodes.insert((id) => ({ ...copy(item), siteId, spaceId: spaceIdOf(space), id }));
  return siteId;
}

function writeSite(t: SiteDefinitionTables, site: SiteChangeSet['site'], existing: SiteRecord | undefined): number {
  if ('create' in site) {
    const { memberMenu, ...rest } = copy(site.create);
    return t.sites.insert((id) => ({ ...rest, ...(memberMenu && { memberMenu }), id })).id;
  }
  patchSite(existing!, site.patch);
  t.revisions.set(existing!.id, (t.revisions.get(existing!.id) ?? 0) + 1);
  return existing!.id;
}

/** A plan's new fields; when its billing changes, members keep what they joined under. */
function writePlan(t: SiteDefinitionTables, plan: PlanRecord, change: PlanChange): void {
  const { id: _id, ...given } = copy(change);
  // An explicit undefined is an absent field, as SQLite's NULL reads back.
  const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as typeof given;
  const oldBilling = 'billing' in plan ? plan.billing : undefined;
  if (oldBilling && !sameJson(oldBilling, 'billing' in fields ? fields.billing : undefined)) {
    for (const m of t.memberships.rows) {
      if (m.siteId === plan.siteId && m.planId === plan.id && m.billing === undefined) m.billing = copy(oldBilling);
    }
  }
  for (const key of ['description', 'contentUrl', 'welcomeUrl', 'position', 'expiration', 'billing', 'highlight', 'features']) delete (plan as unknown as Record<string, unknown>)[key];
  Object.assign(plan, fields);
}

export function patchSite(site: SiteRecord, patch: SitePatch): void {
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
  if (patch.payments === null) delete site.payments;
  else if (patch.payments !== undefined) site.payments = copy(patch.payments);
}
