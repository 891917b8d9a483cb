/**
 * Row mapping for the SQLite store (./sqlite): columns to records, with absent optionals left
 * out (never null), and the WHERE-clause builder of its list queries.
 */
import type {
  ApiKeyRecord,
  ContentNodeRecord,
  ContentViewRecord,
  MemberEventRecord,
  MemberRecord,
  MembershipRecord,
  PlanRecord,
  SiteRecord,
} from './records';
import type { Range } from './queries';

export type Row = Record<string, unknown>;
export type Value = string | number | null;

/** Copies `value` to `record[key]` unless the column was NULL: absent optionals stay absent. */
export function opt(record: Row, key: string, value: unknown): void {
  if (value !== null && value !== undefined) record[key] = value;
}
export const orNull = (value: string | number | undefined): Value => value ?? null;

export const siteFrom = (r: Row): SiteRecord => ({
  id: r.id as number,
  name: r.name as string,
  subdomain: r.subdomain as string,
  domain: r.domain as string,
  defaultCurrency: r.default_currency as string,
  locale: r.locale as string,
  adminApiEnabled: r.admin_api_enabled === 1,
  createdAt: r.created_at as number,
});

export function planFrom(r: Row): PlanRecord {
  const plan: Row = {
    id: r.id, siteId: r.site_id, publicId: r.public_id, name: r.name, status: r.status,
    isPublic: r.is_public === 1, colorCode: r.color_code, createdAt: r.created_at, type: r.type,
    ...(JSON.parse(r.terms as string) as Row),
  };
  opt(plan, 'description', r.description);
  opt(plan, 'contentUrl', r.content_url);
  opt(plan, 'welcomeUrl', r.welcome_url);
  return plan as unknown as PlanRecord;
}

export function memberFrom(r: Row): MemberRecord {
  const member: Row = { id: r.id, siteId: r.site_id, email: r.email, status: r.status, createdAt: r.created_at };
  opt(member, 'firstName', r.first_name);
  opt(member, 'lastName', r.last_name);
  return member as unknown as MemberRecord;
}

export function membershipFrom(r: Row): MembershipRecord {
  const m: Row = {
    id: r.id, siteId: r.site_id, memberId: r.member_id, planId: r.plan_id, planPublicId: r.plan_public_id,
    type: r.type, status: r.status, createdAt: r.created_at, paymentFailure: r.payment_failure === 1,
  };
  opt(m, 'expiresAt', r.expires_at);
  opt(m, 'cancelsAt', r.cancels_at);
  opt(m, 'billingPeriodEnd', r.billing_period_end);
  return m as unknown as MembershipRecord;
}

export const eventFrom = (r: Row): MemberEventRecord => ({
  id: r.id as number,
  siteId: r.site_id as number,
  memberId: r.member_id as number,
  eventType: r.event_type as MemberEventRecord['eventType'],
  details: JSON.parse(r.details as string) as Record<string, unknown>,
  createdAt: r.created_at as number,
});

export const viewFrom = (r: Row): ContentViewRecord => ({
  id: r.id as number,
  siteId: r.site_id as number,
  memberId: r.member_id as number,
  nodeId: r.node_id as number,
  viewedAt: r.viewed_at as number,
  node: { id: r.node_id as number, name: r.node_name as string, type: r.node_type as ContentViewRecord['node']['type'] },
  space: { id: r.space_id as number, name: r.space_name as string },
});

export function apiKeyFrom(r: Row): ApiKeyRecord {
  const key: Row = {
    id: r.id, siteId: r.site_id, hash: r.hash, scopes: JSON.parse(r.scopes as string), createdAt: r.created_at,
  };
  opt(key, 'expiresAt', r.expires_at);
  opt(key, 'revokedAt', r.revoked_at);
  return key as unknown as ApiKeyRecord;
}

/** WHERE clause under construction: `site_id = ?` plus each filter that is set. */
export class Where {
  readonly parts: string[];
  readonly params: Value[];
  constructor(column: string, siteId: number) {
    this.parts = [`${column} = ?`];
    this.params = [siteId];
  }
  /** `column` may carry a unary `+` so SQLite will not pick an index unordered by id for it. */
  eq(column: string, value: Value | undefined): this {
    if (value !== undefined) this.add(`${column} = ?`, value);
    return this;
  }
  range(column: string, range: Range | undefined): this {
    if (range?.from !== undefined) this.add(`${column} >= ?`, range.from);
    if (range?.to !== undefined) this.add(`${column} < ?`, range.to);
    return this;
  }
  add(sql: string, ...params: Value[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }
  toString(): string {
    return this.parts.join(' AND ');
  }
}

/** Which column a UNIQUE failure names (`UNIQUE constraint failed: members.site_id, members.email`). */
export const UNIQUE_FIELDS: Array<[column: string, field: string]> = [
  ['sites.subdomain', 'subdomain'],
  ['plans.public_id', 'publicId'],
  ['members.email', 'email'],
  ['api_keys.hash', 'hash'],
];

export function isConstraint(error: unknown, ...codes: string[]): error is Error & { code: string } {
  return error instanceof Error && codes.includes((error as { code?: string }).code ?? '');
}

export const contentNodeFrom = (r: Row): ContentNodeRecord => ({
  id: r.id as number,
  siteId: r.site_id as number,
  spaceId: r.space_id as number,
  name: r.name as string,
  type: r.type as ContentNodeRecord['type'],
});
