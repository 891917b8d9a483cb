/**
 * A site's definition as the store keeps it, and a change to it: what `svc sites apply` reads,
 * compares with the site file, and writes back in one transaction (site-file/, DESIGN.md).
 *
 * The change set is computed outside the store, from one read of the definition; the store only
 * carries it out. New rows refer to each other by the owner's names (plan keys, space names),
 * which the store resolves inside the transaction, because their ids do not exist before it.
 */
import type { ContentNodeType } from '../../contract/admin';
import type {
  ContentNodeRecord,
  ContentSpaceRecord,
  EpochMs,
  NewPlan,
  NewSignupField,
  NewSite,
  PlanRecord,
  SignupFieldRecord,
  SitePatch,
  SiteRecord,
} from './records';

/** A plan with how many memberships it has: the site file's rules differ for a plan members hold. */
export type DefinedPlan = PlanRecord & {
  /** Memberships of any status: a plan with any is archived, never deleted. */
  membershipCount: number;
  /** Members with an active membership. */
  activeMemberCount: number;
};

export interface SiteDefinition {
  site: SiteRecord;
  /** Counts every change to the site's definition; applySiteChanges refuses a change computed from an older one. */
  revision: number;
  /** Every plan, by id, whatever its status. */
  plans: DefinedPlan[];
  /** Every sign-up field, archived ones included, by position then id. */
  signupFields: SignupFieldRecord[];
  /** Every content space, archived ones included, by id. */
  spaces: ContentSpaceRecord[];
  /** Every content item, archived ones included, by id. */
  items: ContentNodeRecord[];
}

/** Omit for each member of a union (a plan's fields depend on its type). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Every field of a plan but its identity, colour and creation; `type` must be the plan's (it never changes). */
export type PlanChange = { id: number } & DistributiveOmit<NewPlan, 'siteId' | 'key' | 'publicId' | 'colorCode' | 'createdAt'>;

export interface SignupFieldChange {
  id: number;
  label: string;
  required: boolean;
  options?: NewSignupField['options'];
  position: number;
  archived: boolean;
}

export interface ContentItemFields {
  name: string;
  type: ContentNodeType;
  url?: string;
  body?: string;
  /** The name of the live space the item is in after the change. */
  space: string;
}
/** A change to an item; without `space` it stays in the space it is in (archiving an item of a space archived in the same change). */
export type ContentItemChange = Omit<ContentItemFields, 'space'> & { id: number; space?: string; archived: boolean };

export interface SiteChangeSet {
  site: { create: NewSite } | { id: number; revision: number; patch: SitePatch };
  /** When the change is made: the time archived rows record. */
  at: EpochMs;
  createPlans: (DistributiveOmit<NewPlan, 'siteId'> & { key: string })[];
  /**
   * Plans whose fields change. When a plan's billing changes, its members keep what they
   * joined under: their memberships get a copy of the billing before the change.
   */
  updatePlans: PlanChange[];
  createSignupFields: (Omit<NewSignupField, 'siteId'> & { key: string })[];
  updateSignupFields: SignupFieldChange[];
  createSpaces: { name: string; planKeys: string[] }[];
  updateSpaces: { id: number; planKeys: string[]; archived: boolean }[];
  createItems: (ContentItemFields & { key: string })[];
  updateItems: ContentItemChange[];
}

/** Whether two JSON values are equal whatever the order of their keys: a billing changed or did not. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
