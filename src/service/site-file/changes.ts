/**
 * What applying a site file changes: the file compared with the site's definition as the store
 * has it, as one change set for the store (one transaction) and one line per change for the
 * owner, printed before anything is written. Nothing here writes.
 *
 * The rules (docs/decisions/0019-site-file.md):
 * - Things are matched by the owner's names: plans, sign-up fields and items by `key`, spaces by
 *   their name. A renamed key is a new thing, and the old one leaves the file.
 * - What leaves the file is archived, never deleted, while anything refers to it: a plan with
 *   memberships is archived (members keep it; a plan nobody ever held gets status `deleted`), a
 *   sign-up field keeps members' answers, an item keeps its views. Naming it again brings it back.
 * - A plan's or a field's type never changes: members hold them under their terms.
 * - A price change reaches new sign-ups; members keep what they joined under (the store copies
 *   the old billing onto their memberships).
 * - Public ids and colours are assigned once, on creation, and kept.
 */
import type { PlanStatus } from '../../contract/admin';
import type { AfterRegistration } from '../../contract/member';
import type { Clock } from '../domain/clock';
import { PLAN_COLORS, publicPlanId, withSanitizedRichText } from '../domain/plans';
import { sanitizeRichText } from '../domain/rich-text';
import type { CheckboxLabels, NewSite, PlanRecord, SignupFieldRecord, SitePatch, SiteRecord } from '../store/records';
import { sameJson, type PlanChange, type SiteChangeSet, type SiteDefinition } from '../store/site-definition';
import type { PathIssue } from './cross-check';
import type { ContentItemEntry, SiteFile } from './schema';

export type ChangeOp = '+' | '~' | '-';

/** One line of the plan of changes: `+ plan monthly (subscription)`. */
export interface ChangeLine {
  op: ChangeOp;
  text: string;
}

export interface SiteChanges {
  changeSet: SiteChangeSet;
  lines: ChangeLine[];
}

/** Whether the change set changes nothing: the site matches the file. */
export function changesNothing(changes: SiteChangeSet): boolean {
  const { site, at: _at, ...rows } = changes;
  return !('create' in site) && Object.keys(site.patch).length === 0 && Object.values(rows).every((list) => list.length === 0);
}

/** The file asks for something the rules refuse (a plan's type changed); nothing is applied. */
export class RefusedChangeError extends Error {
  override readonly name = 'RefusedChangeError';
  constructor(readonly issues: PathIssue[]) {
    super(issues.map((i) => i.message).join('; '));
  }
}

/** The after-registration action as the file writes it: `stay`, `plans`, or an address. */
export function afterRegistrationFrom(text: string): AfterRegistration {
  return text === 'stay' || text === 'plans' ? { action: text } : { action: 'redirect', url: text };
}
export function afterRegistrationText(action: AfterRegistration | undefined): string {
  return !action ? 'stay' : action.action === 'redirect' ? action.url : action.action;
}

const show = (value: unknown): string => {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/** `billing.price 12 → 15`, one entry per leaf that differs; long text is only said to change. */
function differences(before: unknown, after: unknown, path = ''): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => differences(before[k], after[k], path ? `${path}.${k}` : k));
  }
  if (sameJson(before, after)) return [];
  if ((typeof before === 'string' && before.length > 60) || (typeof after === 'string' && after.length > 60)) return [`${path} changed`];
  return [`${path} ${show(before)} → ${show(after)}`];
}

/** The fields of a plan the file defines (everything but identity, colour and creation), absent ones left out. */
function planFields(p: Omit<PlanChange, 'id'> | PlanRecord): Omit<PlanChange, 'id'> {
  const fields: Record<string, unknown> = {
    name: p.name, description: p.description, status: p.status, isPublic: p.isPublic, contentUrl: p.contentUrl,
    welcomeUrl: p.welcomeUrl, position: p.position, type: p.type, expiration: 'expiration' in p ? p.expiration : undefined,
    billing: 'billing' in p ? p.billing : undefined,
  };
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields as Omit<PlanChange, 'id'>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function siteChanges(current: SiteDefinition | undefined, file: SiteFile, clock: Clock): SiteChanges {
  const at = clock();
  const lines: ChangeLine[] = [];
  const refused: PathIssue[] = [];
  const line = (op: ChangeOp, text: string) => lines.push({ op, text });
  const s = file.site;

  // The site.
  const settings: Omit<NewSite, 'createdAt' | 'subdomain'> = {
    name: s.name,
    domain: s.domain ?? `${s.subdomain}.localhost`,
    defaultCurrency: s.currency,
    locale: s.locale,
    adminApiEnabled: s.adminApi,
    memberMenu: s.memberMenu,
    afterRegistration: afterRegistrationFrom(s.afterRegistration),
    ...(s.checkboxLabels && { checkboxLabels: s.checkboxLabels }),
    ...(s.theme && Object.keys(s.theme).length > 0 && { theme: s.theme }),
    ...(s.mail && Object.keys(s.mail).length > 0 && { mail: s.mail }),
  };
  let site: SiteChangeSet['site'];
  if (!current) {
    site = { create: { subdomain: s.subdomain, createdAt: at, ...settings } };
    line('+', `site ${s.subdomain}: ${show(s.name)} at ${settings.domain} (${s.currency}, ${s.locale})`);
  } else {
    const patch = sitePatch(current.site, settings);
    site = { id: current.site.id, revision: current.revision, patch };
    const after: SiteRecord = { ...current.site, ...settings };
    if (!settings.checkboxLabels) delete after.checkboxLabels;
    if (!settings.theme) delete after.theme;
    if (!settings.mail) delete after.mail;
    const shown = differences(siteSettingsOf(current.site), siteSettingsOf(after));
    if (shown.length > 0) line('~', `site ${s.subdomain}: ${shown.join(', ')}`);
  }

  // Plans, by key.
  const plans = current?.plans ?? [];
  const planByKey = new Map(plans.map((p) => [p.key, p]));
  const createPlans: SiteChangeSet['createPlans'] = [];
  const updatePlans: PlanChange[] = [];
  let moved = false;
  let listed = 0;
  file.plans.forEach((entry, i) => {
    const { key, ...definition } = entry;
    const withCurrency = 'billing' in definition ? { ...definition, billing: { ...definition.billing, currency: definition.billing.currency ?? s.currency } } : definition;
    // The file's order is the order the widget lists the plans in. Archived and deleted plans are
    // never listed, so they take no place in it (export writes them after the others).
    const position = definition.status === 'archived' || definition.status === 'deleted' ? undefined : listed++;
    const desired = planFields({ ...withSanitizedRichText(withCurrency), position } as Omit<PlanChange, 'id'>);
    const existing = planByKey.get(key);
    if (!existing) {
      createPlans.push({
        ...desired,
        key,
        publicId: publicPlanId(),
        colorCode: PLAN_COLORS[(plans.length + createPlans.length) % PLAN_COLORS.length]!,
        createdAt: at,
      } as SiteChangeSet['createPlans'][number]);
      line('+', `plan ${key}: ${show(desired.name)} (${desired.type}${desired.status === 'enabled' ? '' : `, ${desired.status}`})`);
      return;
    }
    if (existing.type !== desired.type) {
      refused.push({
        path: ['plans', i, 'type'],
        message: `plan ${key} is a ${existing.type} plan and a plan's type never changes (members hold it on its terms): give the new plan a new key, and leave this one out of the file to archive it`,
      });
      return;
    }
    const before = planFields(existing);
    // A move is said once for all plans (below), not as a position per plan.
    const shown = differences({ ...before, position: undefined }, { ...desired, position: undefined });
    if (before.position !== desired.position) moved = true;
    if (shown.length === 0 && before.position === desired.position) return;
    updatePlans.push({ ...desired, id: existing.id } as PlanChange);
    if (shown.length === 0) return;
    const billingChanged = !sameJson('billing' in before ? before.billing : undefined, 'billing' in desired ? desired.billing : undefined);
    const kept =
      billingChanged && existing.membershipCount > 0
        ? ` (new sign-ups only: ${plural(existing.membershipCount, 'membership')} ${existing.membershipCount === 1 ? 'keeps its' : 'keep their'} terms)`
        : '';
    line('~', `plan ${key}: ${shown.join(', ')}${kept}`);
  });
  if (moved) line('~', `plan order: ${file.plans.filter((p) => p.status !== 'archived' && p.status !== 'deleted').map((p) => p.key).join(', ')}`);
  const inFile = new Set(file.plans.map((p) => p.key));
  for (const plan of plans) {
    if (inFile.has(plan.key)) continue;
    const status: PlanStatus = plan.status === 'deleted' || plan.membershipCount === 0 ? 'deleted' : 'archived';
    // A plan out of the file has no place in its order: it goes after the file's plans (export writes it there).
    if (plan.status === status && plan.position === undefined) continue;
    const { position: _position, ...fields } = planFields(plan);
    updatePlans.push({ ...fields, status, id: plan.id } as PlanChange);
    const held = `${plural(plan.membershipCount, 'membership')} ${plan.membershipCount === 1 ? 'keeps' : 'keep'} it; ${plural(plan.activeMemberCount, 'member')} active`;
    line(
      '-',
      plan.status === status
        ? `plan ${plan.key}: left the file (stays ${status}${status === 'archived' ? `; ${held}` : ''})`
        : status === 'archived'
          ? `plan ${plan.key}: archived (${held})`
          : `plan ${plan.key}: deleted (no one ever held it)`,
    );
  }

  // Sign-up fields, by key; their order in the file is the form's.
  const fields = current?.signupFields ?? [];
  const fieldByKey = new Map(fields.map((f) => [f.key, f]));
  const createSignupFields: SiteChangeSet['createSignupFields'] = [];
  const updateSignupFields: SiteChangeSet['updateSignupFields'] = [];
  file.signupFields.forEach((entry, position) => {
    const desired = { label: entry.label, required: entry.required, ...('options' in entry && { options: entry.options }), position };
    const existing = fieldByKey.get(entry.key);
    if (!existing) {
      createSignupFields.push({ key: entry.key, type: entry.type, ...desired });
      line('+', `sign-up field ${entry.key}: ${show(entry.label)} (${entry.type}${entry.required ? ', required' : ''})`);
      return;
    }
    if (existing.type !== entry.type) {
      refused.push({
        path: ['signupFields', position, 'type'],
        message: `sign-up field ${entry.key} is a ${existing.type} field and a field's type never changes (members' answers are of that type): give the new field a new key`,
      });
      return;
    }
    const before = fieldSettings(existing);
    const shown = differences(before, desired);
    const restored = existing.archivedAt !== undefined;
    if (shown.length === 0 && !restored) return;
    updateSignupFields.push({ id: existing.id, ...desired, archived: false });
    line(restored ? '+' : '~', `sign-up field ${entry.key}: ${[...(restored ? ['restored with members\' answers'] : []), ...shown].join(', ')}`);
  });
  const fieldsInFile = new Set(file.signupFields.map((f) => f.key));
  for (const field of fields) {
    if (fieldsInFile.has(field.key) || field.archivedAt !== undefined) continue;
    updateSignupFields.push({ id: field.id, ...fieldSettings(field), archived: true });
    line('-', `sign-up field ${field.key}: archived (off the form; members' answers are kept)`);
  }

  // The library: spaces by name, items by key.
  const keyOfPlan = new Map(plans.map((p) => [p.id, p]));
  const spaces = current?.spaces ?? [];
  const createSpaces: SiteChangeSet['createSpaces'] = [];
  const updateSpaces: SiteChangeSet['updateSpaces'] = [];
  const matchedSpaces = new Set<number>();
  for (const entry of file.library) {
    const planKeys = [...new Set(entry.plans)].sort();
    const candidates = spaces.filter((sp) => sp.name === entry.space && !matchedSpaces.has(sp.id));
    const existing = candidates.find((sp) => sp.archivedAt === undefined) ?? candidates.at(-1);
    if (!existing) {
      createSpaces.push({ name: entry.space, planKeys });
      line('+', `space ${show(entry.space)}: opened by ${planKeys.join(', ') || 'no plan'}`);
      continue;
    }
    matchedSpaces.add(existing.id);
    const before = existing.planIds.map((id) => keyOfPlan.get(id)!.key).sort();
    const restored = existing.archivedAt !== undefined;
    if (sameJson(before, planKeys) && !restored) continue;
    updateSpaces.push({ id: existing.id, planKeys, archived: false });
    const opened = [...planKeys.filter((k) => !before.includes(k)).map((k) => `+${k}`), ...before.filter((k) => !planKeys.includes(k)).map((k) => `-${k}`)];
    const what = opened.length === 0 ? [] : [`opened by ${opened.join(' ')}`];
    if (restored || what.length > 0) line(restored ? '+' : '~', `space ${show(entry.space)}: ${[...(restored ? ['restored'] : []), ...what].join(', ')}`);
  }
  for (const space of spaces) {
    if (matchedSpaces.has(space.id) || space.archivedAt !== undefined) continue;
    updateSpaces.push({ id: space.id, planKeys: space.planIds.flatMap((id) => keyOfPlan.get(id)?.key ?? []), archived: true });
    line('-', `space ${show(space.name)}: archived (its items cannot be opened; their views are kept)`);
  }

  const items = current?.items ?? [];
  const itemByKey = new Map(items.map((n) => [n.key, n]));
  const spaceName = new Map(spaces.map((sp) => [sp.id, sp.name]));
  const createItems: SiteChangeSet['createItems'] = [];
  const updateItems: SiteChangeSet['updateItems'] = [];
  file.library.forEach((entry, i) => {
    entry.items.forEach((item, j) => {
      const desired = itemFields(item, entry.space);
      if (!desired) {
        refused.push({ path: ['library', i, 'items', j, 'body'], message: 'the article has no text left once cut to the allowed HTML' });
        return;
      }
      const existing = itemByKey.get(item.key);
      if (!existing) {
        createItems.push({ key: item.key, ...desired });
        line('+', `item ${item.key}: ${show(item.name)} (${item.type}) in ${show(entry.space)}`);
        return;
      }
      const before = { ...storedItemFields(existing), space: spaceName.get(existing.spaceId)! };
      const restored = existing.archivedAt !== undefined;
      const shown = differences(before, desired);
      if (shown.length === 0 && !restored) return;
      updateItems.push({ id: existing.id, ...desired, archived: false });
      line(restored ? '+' : '~', `item ${item.key}: ${[...(restored ? ['restored'] : []), ...shown].join(', ')}`);
    });
  });
  const itemsInFile = new Set(file.library.flatMap((sp) => sp.items.map((it) => it.key)));
  for (const item of items) {
    if (itemsInFile.has(item.key) || item.archivedAt !== undefined) continue;
    // Archived where it is: its space may be archived in the same change.
    updateItems.push({ id: item.id, ...storedItemFields(item), archived: true });
    line('-', `item ${item.key}: archived (members cannot open it; its views are kept)`);
  }

  if (refused.length > 0) throw new RefusedChangeError(refused);
  return {
    changeSet: { site, at, createPlans, updatePlans, createSignupFields, updateSignupFields, createSpaces, updateSpaces, createItems, updateItems },
    lines,
  };
}

function siteSettingsOf(site: SiteRecord) {
  return {
    name: site.name, domain: site.domain, currency: site.defaultCurrency, locale: site.locale, adminApi: site.adminApiEnabled,
    memberMenu: site.memberMenu ?? false, afterRegistration: afterRegistrationText(site.afterRegistration),
    checkboxLabels: site.checkboxLabels,
    theme: site.theme,
    mail: site.mail,
  };
}

function sitePatch(site: SiteRecord, wanted: Omit<NewSite, 'createdAt' | 'subdomain'>): SitePatch {
  const patch: SitePatch = {};
  if (site.name !== wanted.name) patch.name = wanted.name;
  if (site.domain !== wanted.domain) patch.domain = wanted.domain;
  if (site.defaultCurrency !== wanted.defaultCurrency) patch.defaultCurrency = wanted.defaultCurrency;
  if (site.locale !== wanted.locale) patch.locale = wanted.locale;
  if (site.adminApiEnabled !== wanted.adminApiEnabled) patch.adminApiEnabled = wanted.adminApiEnabled;
  if ((site.memberMenu ?? false) !== wanted.memberMenu) patch.memberMenu = wanted.memberMenu!;
  if (!sameJson(site.afterRegistration ?? { action: 'stay' }, wanted.afterRegistration)) patch.afterRegistration = wanted.afterRegistration!;
  const labels: CheckboxLabels | undefined = wanted.checkboxLabels;
  if (!sameJson(site.checkboxLabels, labels)) patch.checkboxLabels = labels ?? null;
  if (!sameJson(site.theme, wanted.theme)) patch.theme = wanted.theme ?? null;
  if (!sameJson(site.mail, wanted.mail)) patch.mail = wanted.mail ?? null;
  return patch;
}

function fieldSettings(f: SignupFieldRecord) {
  return { label: f.label, required: f.required, ...(f.options && { options: f.options }), position: f.position };
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
