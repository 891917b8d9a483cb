/**
 * Row mapping shared by the SQL stores (./sqlite, ./postgres: one schema, the same columns and
 * column types): columns to records, with absent optionals left out (never null), and the
 * WHERE-clause builder of their list queries (`?` placeholders; PostgreSQL numbers them). Below
 * the mappers, the statements of sites, plans, memberships, events and content both stores run
 * as they are (./sql-members has the members' side).
 */
import type { PlanType } from '../../contract/admin';
import type {
  ApiKeyRecord,
  ContentNodeRecord,
  ContentViewRecord,
  InvoiceRecord,
  MemberEventRecord,
  MemberRecord,
  MemberSummary,
  MembershipPatch,
  MembershipRecord,
  NewApiKey,
  NewContentNode,
  NewContentView,
  NewMemberEvent,
  NewMembership,
  NewPlan,
  NewSignupField,
  NewSite,
  PaymentMethodRecord,
  PlanRecord,
  SessionRecord,
  SignupFieldRecord,
  SitePatch,
  SiteRecord,
} from './records';
import type { ContentViewFilter, MemberEventFilter, MemberFilter, MembershipFilter, PlanFilter, Range } from './queries';
import type { ContentItemChange, PlanChange, SignupFieldChange, SiteDefinition } from './site-definition';

/** Omit for each member of a union (a plan's fields depend on its type). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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
  ...(r.payments !== null && r.payments !== undefined && { payments: JSON.parse(r.payments as string) }),
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
  'id, site_id, email, first_name, last_name, status, created_at, profile_image_url, processor_customer_id, email_confirmed_at, picture_hash';
/** The columns of a MemberSummary, read by memberSummaryFrom. */
export const MEMBER_SUMMARY_COLUMNS = 'id, email, first_name, last_name, status, created_at';
export function memberSummaryFrom(r: RawRow): MemberSummary {
  const member: Row = { id: r[0], email: r[1], status: r[4], createdAt: r[5] };
  opt(member, 'firstName', r[2]);
  opt(member, 'lastName', r[3]);
  return member as unknown as MemberSummary;
}

export function memberFrom(r: RawRow): MemberRecord {
  const member: Row = { id: r[0], siteId: r[1], email: r[2], status: r[5], createdAt: r[6] };
  opt(member, 'firstName', r[3]);
  opt(member, 'lastName', r[4]);
  opt(member, 'profileImageUrl', r[7]);
  opt(member, 'processorCustomerId', r[8]);
  opt(member, 'emailConfirmedAt', r[9]);
  opt(member, 'pictureHash', r[10]);
  return member as unknown as MemberRecord;
}

export const MEMBERSHIP_COLUMNS =
  'm.id, m.site_id, m.member_id, m.plan_id, p.public_id, m.type, m.status, m.created_at, m.payment_failure, ' +
  'm.expires_at, m.cancels_at, m.billing_period_end, m.payments_made, m.billing, m.next_plan_id, m.comp';
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
  opt(m, 'nextPlanId', r[14]);
  if (r[15] === 1) m.comp = true;
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
  'tax_cents, total_cents, currency, status, description, created_at, refunded_cents';
export function invoiceFrom(r: RawRow): InvoiceRecord {
  const invoice: Row = {
    id: r[0], siteId: r[1], memberId: r[2], planId: r[3], processorInvoiceId: r[5], processorChargeId: r[6],
    subTotalCents: r[7], taxCents: r[8], totalCents: r[9], currency: r[10], status: r[11], description: r[12],
    createdAt: r[13],
  };
  opt(invoice, 'membershipId', r[4]);
  if ((r[14] as number) > 0) invoice.refundedCents = r[14];
  return invoice as unknown as InvoiceRecord;
}

/*
 * Statements, filters and values both SQL stores run as they are (`?` placeholders, SQL both
 * dialects read alike), each with the function that lists its values in order. A store adds
 * only what its driver needs (PostgreSQL appends `RETURNING id` where SQLite reads the rowid).
 */

/** A JSON column's value: NULL for an absent one. */
export const json = (value: unknown): Value => (value === undefined || value === null ? null : JSON.stringify(value));
const flag = (on: boolean): number => (on ? 1 : 0);

/**
 * The type-dependent part of a plan, as the `terms` column holds it, and how the widget shows it
 * (`highlight`, `features`: read back with the rest by planFrom, so no column of their own).
 */
export function planTerms(p: { type: PlanType; expiration?: unknown; billing?: unknown; highlight?: boolean; features?: string[] }): Row {
  const shown = { ...(p.highlight && { highlight: true }), ...(p.features?.length && { features: p.features }) };
  return p.type === 'subscription' ? { billing: p.billing, ...shown } : p.type === 'free' ? { expiration: p.expiration, ...shown } : { expiration: p.expiration, billing: p.billing, ...shown };
}

export const INSERT_SITE = `INSERT INTO sites (name, subdomain, domain, default_currency, locale, admin_api_enabled, created_at,
    member_menu, after_registration, checkbox_labels, theme, mail, payments) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const siteValues = (s: NewSite): Value[] => [
  s.name, s.subdomain, s.domain, s.defaultCurrency, s.locale, flag(s.adminApiEnabled), s.createdAt, flag(s.memberMenu ?? false),
  json(s.afterRegistration), json(s.checkboxLabels), json(s.theme), json(s.mail), json(s.payments),
];

/** Absent keys keep the column; `null` clears the JSON settings that may be cleared. */
export const UPDATE_SITE = `UPDATE sites SET name = coalesce(?, name), domain = coalesce(?, domain),
    default_currency = coalesce(?, default_currency), locale = coalesce(?, locale),
    admin_api_enabled = coalesce(?, admin_api_enabled), member_menu = coalesce(?, member_menu),
    after_registration = coalesce(?, after_registration),
    checkbox_labels = CASE WHEN ? = 1 THEN ? ELSE checkbox_labels END,
    theme = CASE WHEN ? = 1 THEN ? ELSE theme END,
    mail = CASE WHEN ? = 1 THEN ? ELSE mail END,
    payments = CASE WHEN ? = 1 THEN ? ELSE payments END,
    revision = revision + 1
  WHERE id = ?`;
export function sitePatchValues(id: number, patch: SitePatch): Value[] {
  const maybe = (on: boolean | undefined) => (on === undefined ? null : flag(on));
  const given = (value: unknown) => flag(value !== undefined);
  return [
    orNull(patch.name), orNull(patch.domain), orNull(patch.defaultCurrency), orNull(patch.locale), maybe(patch.adminApiEnabled),
    maybe(patch.memberMenu), json(patch.afterRegistration), given(patch.checkboxLabels), json(patch.checkboxLabels),
    given(patch.theme), json(patch.theme), given(patch.mail), json(patch.mail), given(patch.payments), json(patch.payments), id,
  ];
}

export const INSERT_PLAN = `INSERT INTO plans (site_id, key, public_id, name, description, status, is_public, color_code, content_url,
    welcome_url, position, created_at, type, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const planValues = (siteId: number, p: DistributiveOmit<NewPlan, 'siteId'>): Value[] => [
  siteId, orNull(p.key), p.publicId, p.name, orNull(p.description), p.status, flag(p.isPublic), p.colorCode, orNull(p.contentUrl),
  orNull(p.welcomeUrl), orNull(p.position), p.createdAt, p.type, JSON.stringify(planTerms(p)),
];
export const planWhere = (siteId: number, filter: PlanFilter): Where =>
  new Where('site_id', siteId).eq('type', filter.type).add(`status IN (${filter.statuses.map(() => '?').join(', ')})`, ...filter.statuses);

export const INSERT_SIGNUP_FIELD = 'INSERT INTO signup_fields (site_id, key, type, label, required, options, position) VALUES (?, ?, ?, ?, ?, ?, ?)';
export const signupFieldValues = (siteId: number, f: Omit<NewSignupField, 'siteId'>): Value[] => [
  siteId, orNull(f.key), f.type, f.label, flag(f.required), json(f.options), f.position,
];

export const memberWhere = (siteId: number, f: MemberFilter): Where =>
  new Where('site_id', siteId).eq('email', f.email).eq('+first_name', f.firstName).eq('+last_name', f.lastName)
    .eq('+status', f.status).range('+created_at', f.created);

/** The membership's type is its plan's, copied at insert: NULL, which the column refuses, for a plan not in the site. */
export const INSERT_MEMBERSHIP = `INSERT INTO memberships (site_id, member_id, plan_id, type, status, created_at, expires_at, cancels_at,
    billing_period_end, payment_failure, payments_made, comp)
  VALUES (?, ?, ?, (SELECT type FROM plans WHERE id = ? AND site_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)`;
export const membershipValues = (m: NewMembership): Value[] => [
  m.siteId, m.memberId, m.planId, m.planId, m.siteId, m.status, m.createdAt, orNull(m.expiresAt), orNull(m.cancelsAt),
  orNull(m.billingPeriodEnd), flag(m.paymentFailure), orNull(m.paymentsMade), flag(m.comp === true),
];
/** Memberships with their plan's public id: what MEMBERSHIP_COLUMNS reads. */
export const MEMBERSHIPS_FROM = 'memberships m JOIN plans p ON p.id = m.plan_id';
/** One membership of a site, as membershipFrom reads it. Values: site id, membership id. */
export const MEMBERSHIP_BY_ID = `SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS_FROM} WHERE m.site_id = ? AND m.id = ?`;
export function membershipWhere(siteId: number, f: MembershipFilter): Where {
  const where = new Where('m.site_id', siteId).eq('m.plan_id', f.planId).eq('m.member_id', f.memberId).eq('+m.status', f.status)
    .range('+m.created_at', f.created).range('+m.billing_period_end', f.billingPeriodEnd)
    .range('+m.expires_at', f.expires).range('+m.cancels_at', f.cancels);
  // A primary-key look-up per membership the other conditions left (the due ones, a few).
  if (f.billable) where.add('EXISTS (SELECT 1 FROM members mb WHERE mb.id = m.member_id AND mb.processor_customer_id IS NOT NULL)');
  return where;
}
/** The columns a membership patch sets, with their values. */
export function membershipPatchColumns(patch: MembershipPatch): Array<[column: string, value: Value]> {
  const columns: Array<[string, Value]> = [];
  if (patch.status !== undefined) columns.push(['status', patch.status]);
  if (patch.expiresAt !== undefined) columns.push(['expires_at', patch.expiresAt]);
  if (patch.cancelsAt !== undefined) columns.push(['cancels_at', patch.cancelsAt]);
  if (patch.billingPeriodEnd !== undefined) columns.push(['billing_period_end', patch.billingPeriodEnd]);
  if (patch.paymentFailure !== undefined) columns.push(['payment_failure', flag(patch.paymentFailure)]);
  if (patch.paymentsMade !== undefined) columns.push(['payments_made', patch.paymentsMade]);
  if (patch.planId !== undefined) columns.push(['plan_id', patch.planId]);
  if (patch.billing !== undefined) columns.push(['billing', json(patch.billing)]);
  if (patch.nextPlanId !== undefined) columns.push(['next_plan_id', patch.nextPlanId]);
  return columns;
}

export const eventValues = (e: NewMemberEvent): Value[] => [e.siteId, e.memberId, e.eventType, JSON.stringify(e.details), e.createdAt];
export const eventWhere = (siteId: number, f: MemberEventFilter): Where =>
  new Where('site_id', siteId).eq('member_id', f.memberId).range('+created_at', f.created);

export const INSERT_CONTENT_SPACE = 'INSERT INTO content_spaces (site_id, name) VALUES (?, ?)';
/** A plan named twice opens the space once. */
export const LINK_SPACE_PLAN = 'INSERT INTO content_space_plans (site_id, space_id, plan_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING';
export const INSERT_CONTENT_NODE = 'INSERT INTO content_nodes (site_id, key, space_id, name, type, url, body) VALUES (?, ?, ?, ?, ?, ?, ?)';
export const contentNodeValues = (siteId: number, spaceId: number, n: Omit<NewContentNode, 'siteId' | 'spaceId'>): Value[] => [
  siteId, orNull(n.key), spaceId, n.name, n.type, orNull(n.url), orNull(n.body),
];
/** The site's items that are open: neither they nor their space archived (values: the site id twice). */
export const LIVE_CONTENT_NODES = `SELECT ${NODE_COLUMNS} FROM content_nodes WHERE site_id = ? AND archived_at IS NULL
  AND space_id IN (SELECT id FROM content_spaces WHERE site_id = ? AND archived_at IS NULL) ORDER BY id`;

export const INSERT_CONTENT_VIEW = 'INSERT INTO content_views (site_id, member_id, node_id, viewed_at) VALUES (?, ?, ?, ?)';
export const contentViewValues = (v: NewContentView): Value[] => [v.siteId, v.memberId, v.nodeId, v.viewedAt];
/** Views with their item and its space: what VIEW_COLUMNS reads. */
export const VIEWS_FROM = 'content_views v JOIN content_nodes n ON n.id = v.node_id JOIN content_spaces s ON s.id = n.space_id';
export const viewWhere = (siteId: number, f: ContentViewFilter): Where =>
  new Where('v.site_id', siteId).eq('v.member_id', f.memberId).eq('v.node_id', f.nodeId).range('+v.viewed_at', f.viewed);

export const INSERT_API_KEY = 'INSERT INTO api_keys (site_id, hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?)';
export const apiKeyValues = (k: NewApiKey): Value[] => [k.siteId, k.hash, JSON.stringify(k.scopes), k.createdAt, orNull(k.expiresAt)];

/** getSiteDefinition's reads, each by the site id, run at one moment (one read transaction). */
export const SITE_DEFINITION_READS = {
  site: 'SELECT * FROM sites WHERE id = ?',
  counts: `SELECT plan_id, count(*) AS memberships, count(DISTINCT CASE WHEN status = 'active' THEN member_id END) AS active
    FROM memberships WHERE site_id = ? GROUP BY plan_id`,
  /** Raw rows (PLAN_COLUMNS). */
  plans: `SELECT ${PLAN_COLUMNS} FROM plans WHERE site_id = ? ORDER BY id`,
  links: 'SELECT space_id, plan_id FROM content_space_plans WHERE site_id = ? ORDER BY plan_id',
  spaces: 'SELECT id, site_id, name, archived_at FROM content_spaces WHERE site_id = ? ORDER BY id',
  /** Raw rows (SIGNUP_FIELD_COLUMNS). */
  signupFields: `SELECT ${SIGNUP_FIELD_COLUMNS} FROM signup_fields WHERE site_id = ? ORDER BY position, id`,
  items: `SELECT ${NODE_COLUMNS} FROM content_nodes WHERE site_id = ? ORDER BY id`,
} as const;
export interface SiteDefinitionRows {
  site: Row;
  counts: Row[];
  plans: RawRow[];
  links: Row[];
  spaces: Row[];
  signupFields: RawRow[];
  items: Row[];
}
export function siteDefinitionFrom(r: SiteDefinitionRows): SiteDefinition {
  const counts = new Map(r.counts.map((c) => [c.plan_id as number, c]));
  return {
    site: siteFrom(r.site),
    revision: r.site.revision as number,
    plans: r.plans.map((row) => {
      const plan = planFrom(row);
      const c = counts.get(plan.id);
      return { ...plan, membershipCount: (c?.memberships as number) ?? 0, activeMemberCount: (c?.active as number) ?? 0 };
    }),
    signupFields: r.signupFields.map(signupFieldFrom),
    spaces: r.spaces.map((s) => ({
      id: s.id as number,
      siteId: s.site_id as number,
      name: s.name as string,
      planIds: r.links.filter((l) => l.space_id === s.id).map((l) => l.plan_id as number),
      ...(s.archived_at !== null && { archivedAt: s.archived_at as number }),
    })),
    items: r.items.map(contentNodeFrom),
  };
}

/** The statements of applySiteChanges beyond the inserts above. `?` = 1 flags: archived or not. */
export const SITE_CHANGES = {
  subdomainTaken: 'SELECT 1 FROM sites WHERE subdomain = ?',
  revision: 'SELECT revision FROM sites WHERE id = ?',
  planBefore: 'SELECT type, terms FROM plans WHERE site_id = ? AND id = ?',
  /** Members keep what they joined under: memberships still reading the plan's billing get a copy of it. */
  keepBilling: 'UPDATE memberships SET billing = ? WHERE site_id = ? AND plan_id = ? AND billing IS NULL',
  updatePlan: `UPDATE plans SET name = ?, description = ?, status = ?, is_public = ?, content_url = ?, welcome_url = ?, position = ?,
    terms = ? WHERE site_id = ? AND id = ?`,
  updateSignupField: `UPDATE signup_fields SET label = ?, required = ?, options = ?, position = ?,
    archived_at = CASE WHEN ? = 1 THEN coalesce(archived_at, ?) ELSE NULL END WHERE site_id = ? AND id = ?`,
  planIdByKey: 'SELECT id FROM plans WHERE site_id = ? AND key = ?',
  unlinkSpace: 'DELETE FROM content_space_plans WHERE site_id = ? AND space_id = ?',
  updateSpace: 'UPDATE content_spaces SET archived_at = CASE WHEN ? = 1 THEN coalesce(archived_at, ?) ELSE NULL END WHERE site_id = ? AND id = ?',
  liveSpaceByName: 'SELECT id FROM content_spaces WHERE site_id = ? AND name = ? AND archived_at IS NULL',
  /** A NULL space keeps the item where it is. */
  updateItem: `UPDATE content_nodes SET space_id = coalesce(?, space_id), name = ?, type = ?, url = ?, body = ?,
    archived_at = CASE WHEN ? = 1 THEN coalesce(archived_at, ?) ELSE NULL END WHERE site_id = ? AND id = ?`,
} as const;
export const planChangeValues = (siteId: number, p: PlanChange): Value[] => [
  p.name, orNull(p.description), p.status, flag(p.isPublic), orNull(p.contentUrl), orNull(p.welcomeUrl), orNull(p.position),
  JSON.stringify(planTerms(p)), siteId, p.id,
];
export const signupFieldChangeValues = (siteId: number, at: number, f: SignupFieldChange): Value[] => [
  f.label, flag(f.required), json(f.options), f.position, flag(f.archived), at, siteId, f.id,
];
export const itemChangeValues = (siteId: number, at: number, spaceId: number | null, i: ContentItemChange): Value[] => [
  spaceId, i.name, i.type, orNull(i.url), orNull(i.body), flag(i.archived), at, siteId, i.id,
];

/** A processor's event, recorded once: no row changes when it was recorded before (decision 0033). */
export const PROCESSOR_EVENT_INSERT =
  'INSERT INTO processor_events (site_id, event_id, type, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING';
