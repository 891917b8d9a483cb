/**
 * Row mapping shared by the SQL stores (./sqlite, ./postgres: one schema, the same columns and
 * column types): columns to records, with absent optionals left out (never null), and the
 * WHERE-clause builder of their list queries (`?` placeholders; PostgreSQL numbers them).
 */
import type {
  ApiKeyRecord,
  ContentNodeRecord,
  ContentViewRecord,
  InvoiceRecord,
  MemberEventRecord,
  MemberRecord,
  MembershipRecord,
  PaymentMethodRecord,
  PlanRecord,
  SessionRecord,
  SignupFieldRecord,
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
  ...(r.member_menu === 1 && { memberMenu: true }),
  ...(r.after_registration !== null && { afterRegistration: JSON.parse(r.after_registration as string) }),
  ...(r.checkbox_labels !== null && { checkboxLabels: JSON.parse(r.checkbox_labels as string) }),
  ...(r.theme !== null && { theme: JSON.parse(r.theme as string) }),
  ...(r.mail !== null && r.mail !== undefined && { mail: JSON.parse(r.mail as string) }),
});

/*
 * List rows come back from SQLite as arrays (`statement.raw()`), which costs about a third less
 * than named objects on a page of members; each mapper reads the columns of the list beside it.
 */
export type RawRow = unknown[];

export const PLAN_COLUMNS =
  'id, site_id, public_id, name, description, status, is_public, color_code, content_url, welcome_url, created_at, type, terms, key, position';
export function planFrom(r: RawRow): PlanRecord {
  const plan: Row = {
    id: r[0], siteId: r[1], publicId: r[2], name: r[3], status: r[5], isPublic: r[6] === 1, colorCode: r[7],
    createdAt: r[10], type: r[11], ...(JSON.parse(r[12] as string) as Row), key: r[13],
  };
  opt(plan, 'description', r[4]);
  opt(plan, 'contentUrl', r[8]);
  opt(plan, 'welcomeUrl', r[9]);
  opt(plan, 'position', r[14]);
  return plan as unknown as PlanRecord;
}

/** Never the password hash: reads of members do not carry it (sign-in reads it on its own). */
export const INSERT_EVENT = 'INSERT INTO member_events (site_id, member_id, event_type, details, created_at) VALUES (?, ?, ?, ?, ?)';

export const MEMBER_COLUMNS =
  'id, site_id, email, first_name, last_name, status, created_at, profile_image_url, processor_customer_id, email_confirmed_at';
export function memberFrom(r: RawRow): MemberRecord {
  const member: Row = { id: r[0], siteId: r[1], email: r[2], status: r[5], createdAt: r[6] };
  opt(member, 'firstName', r[3]);
  opt(member, 'lastName', r[4]);
  opt(member, 'profileImageUrl', r[7]);
  opt(member, 'processorCustomerId', r[8]);
  opt(member, 'emailConfirmedAt', r[9]);
  return member as unknown as MemberRecord;
}

export const MEMBERSHIP_COLUMNS =
  'm.id, m.site_id, m.member_id, m.plan_id, p.public_id, m.type, m.status, m.created_at, m.payment_failure, ' +
  'm.expires_at, m.cancels_at, m.billing_period_end, m.payments_made, m.billing';
export function membershipFrom(r: RawRow): MembershipRecord {
  const m: Row = {
    id: r[0], siteId: r[1], memberId: r[2], planId: r[3], planPublicId: r[4], type: r[5], status: r[6],
    createdAt: r[7], paymentFailure: r[8] === 1,
  };
  opt(m, 'expiresAt', r[9]);
  opt(m, 'cancelsAt', r[10]);
  opt(m, 'billingPeriodEnd', r[11]);
  opt(m, 'paymentsMade', r[12]);
  if (r[13] !== null) m.billing = JSON.parse(r[13] as string);
  return m as unknown as MembershipRecord;
}

export const EVENT_COLUMNS = 'id, site_id, member_id, event_type, details, created_at';
export const eventFrom = (r: RawRow): MemberEventRecord => ({
  id: r[0] as number,
  siteId: r[1] as number,
  memberId: r[2] as number,
  eventType: r[3] as MemberEventRecord['eventType'],
  details: JSON.parse(r[4] as string) as Record<string, unknown>,
  createdAt: r[5] as number,
});

export const VIEW_COLUMNS = 'v.id, v.site_id, v.member_id, v.node_id, v.viewed_at, n.name, n.type, s.id, s.name';
export const viewFrom = (r: RawRow): ContentViewRecord => ({
  id: r[0] as number,
  siteId: r[1] as number,
  memberId: r[2] as number,
  nodeId: r[3] as number,
  viewedAt: r[4] as number,
  node: { id: r[3] as number, name: r[5] as string, type: r[6] as ContentViewRecord['node']['type'] },
  space: { id: r[7] as number, name: r[8] as string },
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
  ['sessions.token_hash', 'tokenHash'],
  ['invoices.processor_invoice_id', 'processorInvoiceId'],
  ['plans.key', 'key'],
  ['signup_fields.key', 'key'],
  ['content_nodes.key', 'key'],
];

export function isConstraint(error: unknown, ...codes: string[]): error is Error & { code: string } {
  return error instanceof Error && codes.includes((error as { code?: string }).code ?? '');
}

export const NODE_COLUMNS = 'id, site_id, key, space_id, name, type, url, body, archived_at';
export const contentNodeFrom = (r: Row): ContentNodeRecord => ({
  id: r.id as number,
  siteId: r.site_id as number,
  key: r.key as string,
  spaceId: r.space_id as number,
  name: r.name as string,
  type: r.type as ContentNodeRecord['type'],
  ...(r.url !== null && { url: r.url as string }),
  ...(r.body !== null && { body: r.body as string }),
  ...(r.archived_at !== null && { archivedAt: r.archived_at as number }),
});

export const SIGNUP_FIELD_COLUMNS = 'id, site_id, type, label, required, options, position, key, archived_at';
export function signupFieldFrom(r: RawRow): SignupFieldRecord {
  const field: Row = { id: r[0], siteId: r[1], key: r[7], type: r[2], label: r[3], required: r[4] === 1, position: r[6] };
  if (r[5] !== null) field.options = JSON.parse(r[5] as string);
  opt(field, 'archivedAt', r[8]);
  return field as unknown as SignupFieldRecord;
}

export function sessionFrom(r: Row): SessionRecord {
  const session: Row = {
    id: r.id, siteId: r.site_id, memberId: r.member_id, tokenHash: r.token_hash, createdAt: r.created_at,
    lastUsedAt: r.last_used_at, expiresAt: r.expires_at,
  };
  opt(session, 'revokedAt', r.revoked_at);
  return session as unknown as SessionRecord;
}

export const PAYMENT_METHOD_COLUMNS = 'id, site_id, member_id, processor_id, brand, last4, exp_month, exp_year, created_at';
export const paymentMethodFrom = (r: RawRow): PaymentMethodRecord => ({
  id: r[0] as number,
  siteId: r[1] as number,
  memberId: r[2] as number,
  processorId: r[3] as string,
  brand: r[4] as PaymentMethodRecord['brand'],
  last4: r[5] as string,
  expMonth: r[6] as number,
  expYear: r[7] as number,
  createdAt: r[8] as number,
});

export const INVOICE_COLUMNS =
  'id, site_id, member_id, plan_id, membership_id, processor_invoice_id, processor_charge_id, sub_total_cents, ' +
  'tax_cents, total_cents, currency, status, description, created_at';
export function invoiceFrom(r: RawRow): InvoiceRecord {
  const invoice: Row = {
    id: r[0], siteId: r[1], memberId: r[2], planId: r[3], processorInvoiceId: r[5], processorChargeId: r[6],
    subTotalCents: r[7], taxCents: r[8], totalCents: r[9], currency: r[10], status: r[11], description: r[12],
    createdAt: r[13],
  };
  opt(invoice, 'membershipId', r[4]);
  return invoice as unknown as InvoiceRecord;
}
