/**
 * Plans, matched by key. The file's order is the order the widget lists them in; a plan's type
 * never changes; a plan out of the file is archived while anyone holds it and deleted when no one
 * ever did.
 */
import type { PlanStatus } from '../../../contract/admin';
import { PLAN_COLORS, publicPlanId, withSanitizedRichText } from '../../domain/plans';
import type { EpochMs, PlanRecord } from '../../store/records';
import { sameJson, type DefinedPlan, type PlanChange, type SiteChangeSet } from '../../store/site-definition';
import type { SiteFile } from '../schema';
import { differences, plural, show, type ChangeNotes } from './describe';

type PlanFields = Omit<PlanChange, 'id'>;
type PlanEntry = SiteFile['plans'][number];

export interface PlanChanges {
  createPlans: SiteChangeSet['createPlans'];
  updatePlans: PlanChange[];
}

export function planChanges(plans: DefinedPlan[], file: SiteFile, at: EpochMs, notes: ChangeNotes): PlanChanges {
  const changes: PlanChanges = { createPlans: [], updatePlans: [] };
  const byKey = new Map(plans.map((p) => [p.key, p]));
  let moved = false;
  let listed = 0;
  file.plans.forEach((entry, i) => {
    // Archived and deleted plans are never listed, so they take no place in the order (export
    // writes them after the others).
    const position = entry.status === 'archived' || entry.status === 'deleted' ? undefined : listed++;
    const desired = planFields({ ...withSanitizedRichText(withCurrency(entry, file.site.currency)), position } as PlanFields);
    const existing = byKey.get(entry.key);
    if (!existing) {
      const colorCode = PLAN_COLORS[(plans.length + changes.createPlans.length) % PLAN_COLORS.length]!;
      changes.createPlans.push({ ...desired, key: entry.key, publicId: publicPlanId(), colorCode, createdAt: at } as SiteChangeSet['createPlans'][number]);
      notes.line('+', `plan ${entry.key}: ${show(desired.name)} (${desired.type}${desired.status === 'enabled' ? '' : `, ${desired.status}`})`);
    } else if (existing.type !== desired.type) {
      notes.refuse(
        ['plans', i, 'type'],
        `plan ${entry.key} is a ${existing.type} plan and a plan's type never changes (members hold it on its terms): give the new plan a new key, and leave this one out of the file to archive it`,
      );
    } else {
      moved = planUpdate(existing, desired, changes, notes) || moved;
    }
  });
  if (moved) notes.line('~', `plan order: ${file.plans.filter((p) => p.status !== 'archived' && p.status !== 'deleted').map((p) => p.key).join(', ')}`);
  plansLeftOut(plans, file, changes, notes);
  return changes;
}

/** A plan the file names again: its changes, and whether it moved (a move is said once for all plans). */
function planUpdate(existing: DefinedPlan, desired: PlanFields, changes: PlanChanges, notes: ChangeNotes): boolean {
  const before = planFields(existing);
  const shown = differences({ ...before, position: undefined }, { ...desired, position: undefined });
  const moved = before.position !== desired.position;
  if (shown.length === 0 && !moved) return false;
  changes.updatePlans.push({ ...desired, id: existing.id } as PlanChange);
  if (shown.length === 0) return moved;
  const billingChanged = !sameJson('billing' in before ? before.billing : undefined, 'billing' in desired ? desired.billing : undefined);
  const held = existing.membershipCount;
  const kept = billingChanged && held > 0 ? ` (new sign-ups only: ${plural(held, 'membership')} ${held === 1 ? 'keeps its' : 'keep their'} terms)` : '';
  notes.line('~', `plan ${existing.key}: ${shown.join(', ')}${kept}`);
  return moved;
}

/** Plans out of the file: archived while anyone holds them, deleted when no one ever did; after the file's plans in order. */
function plansLeftOut(plans: DefinedPlan[], file: SiteFile, changes: PlanChanges, notes: ChangeNotes): void {
  const inFile = new Set(file.plans.map((p) => p.key));
  for (const plan of plans) {
    if (inFile.has(plan.key)) continue;
    const status: PlanStatus = plan.status === 'deleted' || plan.membershipCount === 0 ? 'deleted' : 'archived';
    if (plan.status === status && plan.position === undefined) continue;
    const { position: _position, ...fields } = planFields(plan);
    changes.updatePlans.push({ ...fields, status, id: plan.id } as PlanChange);
    const held = `${plural(plan.membershipCount, 'membership')} ${plan.membershipCount === 1 ? 'keeps' : 'keep'} it; ${plural(plan.activeMemberCount, 'member')} active`;
    notes.line(
      '-',
      plan.status === status
        ? `plan ${plan.key}: left the file (stays ${status}${status === 'archived' ? `; ${held}` : ''})`
        : status === 'archived'
          ? `plan ${plan.key}: archived (${held})`
          : `plan ${plan.key}: deleted (no one ever held it)`,
    );
  }
}

/** The entry without its key, its billing in the site's currency when it names none. */
function withCurrency(entry: PlanEntry, siteCurrency: string) {
  const { key: _key, ...definition } = entry;
  return 'billing' in definition ? { ...definition, billing: { ...definition.billing, currency: definition.billing.currency ?? siteCurrency } } : definition;
}

/** The fields of a plan the file defines (everything but identity, colour and creation), absent ones left out. */
function planFields(p: PlanFields | PlanRecord): PlanFields {
  const fields: Record<string, unknown> = {
    name: p.name, description: p.description, status: p.status, isPublic: p.isPublic, contentUrl: p.contentUrl,
    welcomeUrl: p.welcomeUrl, position: p.position, type: p.type, expiration: 'expiration' in p ? p.expiration : undefined,
    billing: 'billing' in p ? p.billing : undefined, highlight: p.highlight || undefined, features: p.features,
  };
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields as PlanFields;
}
