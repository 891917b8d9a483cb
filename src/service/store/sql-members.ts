/**
 * The members' side of what both SQL stores (./sqlite, ./postgres) run as it is, beside
 * ./sql-rows: the statements of accounts, sessions, metadata, mailed tokens, the mail outbox and
 * billing, each with the function that lists its values in order, and the row mappers of tokens
 * and mails. A store adds only what its dialect needs (PostgreSQL appends `RETURNING id` where
 * SQLite reads the rowid); how a sender claims mail is each store's own.
 */
import type { MemberMetadata } from '../../contract/member';
import type {
  EpochMs,
  MailOutcome,
  MailQueueOutcome,
  MailRecord,
  MailStatus,
  MemberLogin,
  MemberPatch,
  MemberRecord,
  MemberTokenRecord,
  NewInvoice,
  NewMail,
  NewMember,
  NewMemberToken,
  NewSession,
  NewPaymentMethod,
  RedeemOutcome,
  SendLimits,
  SessionRecord,
  SignupValueRecord,
} from './records';
import type { InvoiceFilter } from './queries';
import {
  type RawRow,
  type Row,
  type Value,
  Where,
  INVOICE_COLUMNS,
  MEMBER_COLUMNS,
  MEMBERSHIP_COLUMNS,
  PAYMENT_METHOD_COLUMNS,
  SIGNUP_FIELD_COLUMNS,
  memberFrom,
  opt,
  orNull,
} from './sql-rows';

// Members, their sign-up values and metadata.

/** The reads of one member's account. */
export const ACCOUNT_READS = {
  /** The site's live sign-up fields, as listSignupFields orders them (raw rows). */
  signupFields: `SELECT ${SIGNUP_FIELD_COLUMNS} FROM signup_fields WHERE site_id = ? AND archived_at IS NULL ORDER BY position, id`,
  /** Raw rows. Values: site id, member id. */
  member: `SELECT ${MEMBER_COLUMNS} FROM members WHERE site_id = ? AND id = ?`,
  /** Raw rows, after a write that found the member. Values: member id. */
  memberById: `SELECT ${MEMBER_COLUMNS} FROM members WHERE id = ?`,
  login: 'SELECT id, status, password_hash, email_confirmed_at FROM members WHERE site_id = ? AND email = ?',
  signupValues: 'SELECT field_id, value FROM signup_values WHERE site_id = ? AND member_id = ? ORDER BY field_id',
  /** Raw rows. */
  memberships: `SELECT ${MEMBERSHIP_COLUMNS} FROM memberships m JOIN plans p ON p.id = m.plan_id
    WHERE m.site_id = ? AND m.member_id = ? ORDER BY m.id`,
} as const;
export const loginFrom = (row: Row): MemberLogin => ({
  memberId: row.id as number,
  status: row.status as MemberLogin['status'],
  ...(row.password_hash !== null && { passwordHash: row.password_hash as string }),
  ...(row.email_confirmed_at !== null && { emailConfirmedAt: row.email_confirmed_at as number }),
});
export const signupValueFrom = (r: Row): SignupValueRecord => ({ fieldId: r.field_id as number, value: JSON.parse(r.value as string) });

export const INSERT_MEMBER = `INSERT INTO members (site_id, email, first_name, last_name, status, created_at, password_hash,
    profile_image_url, processor_customer_id, email_confirmed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const memberValues = (m: NewMember): Value[] => [
  m.siteId, m.email, orNull(m.firstName), orNull(m.lastName), m.status, m.createdAt, orNull(m.passwordHash), orNull(m.profileImageUrl),
  orNull(m.processorCustomerId), orNull(m.emailConfirmedAt),
];

/** A field given twice keeps its last value (as in the memory store). */
export const UPSERT_VALUE = `INSERT INTO signup_values (site_id, member_id, field_id, value) VALUES (?, ?, ?, ?)
  ON CONFLICT (member_id, field_id) DO UPDATE SET value = excluded.value`;

/** updateMember's statements besides the UPDATE of memberUpdate. */
export const MEMBER_PATCH = {
  exists: 'SELECT id FROM members WHERE site_id = ? AND id = ?',
  /** A new e-mail is unconfirmed until a patch says otherwise (a redeemed emailChange token does). Values: member id, new e-mail. */
  unconfirm: 'UPDATE members SET email_confirmed_at = NULL WHERE id = ? AND email <> ?',
  /** Links and codes mailed before a new password or address no longer work. Values: member id. */
  voidTokens: 'DELETE FROM member_tokens WHERE member_id = ? AND used_at IS NULL',
  clearValue: 'DELETE FROM signup_values WHERE member_id = ? AND field_id = ?',
} as const;

/** The UPDATE of the member's columns a patch sets, with its values; undefined when it sets none. */
export function memberUpdate(memberId: number, patch: MemberPatch): { text: string; values: Value[] } | undefined {
  const columns: Array<[string, Value]> = [];
  if (patch.firstName !== undefined) columns.push(['first_name', patch.firstName]);
  if (patch.lastName !== undefined) columns.push(['last_name', patch.lastName]);
  if (patch.email !== undefined) columns.push(['email', patch.email]);
  if (patch.passwordHash !== undefined) columns.push(['password_hash', patch.passwordHash]);
  if (patch.processorCustomerId !== undefined) columns.push(['processor_customer_id', patch.processorCustomerId]);
  if (patch.emailConfirmedAt !== undefined) columns.push(['email_confirmed_at', patch.emailConfirmedAt]);
  if (patch.status !== undefined) columns.push(['status', patch.status]);
  if (columns.length === 0) return undefined;
  return {
    text: `UPDATE members SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ?`,
    values: [...columns.map(([, v]) => v), memberId],
  };
}

export const METADATA = {
  /** No row without such a member; `data` NULL before the first update (metadataFrom reads it). */
  read: 'SELECT d.data FROM members m LEFT JOIN member_metadata d ON d.member_id = m.id WHERE m.site_id = ? AND m.id = ?',
  /** Values: member id, site id, the JSON. */
  write: `INSERT INTO member_metadata (member_id, site_id, data) VALUES (?, ?, ?)
    ON CONFLICT (member_id) DO UPDATE SET data = excluded.data`,
} as const;
/** A row of SESSIONS.withMember as the session and its member. */
export function sessionWithMemberFrom(r: RawRow): { session: SessionRecord; member: MemberRecord } {
  const session: Row = { id: r[0], siteId: r[1], memberId: r[2], tokenHash: r[3], createdAt: r[4], lastUsedAt: r[5], expiresAt: r[6] };
  opt(session, 'revokedAt', r[7]);
  return { session: session as unknown as SessionRecord, member: memberFrom(r.slice(SESSION_COLUMNS.length)) };
}

/** The member's stored metadata: undefined without such a member, `{}` before the first update. */
export const metadataFrom = (row: Row | undefined): MemberMetadata | undefined =>
  row === undefined ? undefined : row.data === null ? {} : (JSON.parse(row.data as string) as MemberMetadata);

// Sessions.

/** A session's columns as sessionWithMemberFrom reads them, first in SESSIONS.withMember's rows. */
const SESSION_COLUMNS = ['id', 'site_id', 'member_id', 'token_hash', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'];

export const SESSIONS = {
  byHash: 'SELECT * FROM sessions WHERE token_hash = ?',
  /** Raw rows: the session's columns, then the member's (MEMBER_COLUMNS). Values: token hash. */
  withMember: `SELECT ${SESSION_COLUMNS.map((c) => `s.${c}`).join(', ')}, ${MEMBER_COLUMNS.split(', ').map((c) => `m.${c}`).join(', ')}
    FROM sessions s JOIN members m ON m.site_id = s.site_id AND m.id = s.member_id WHERE s.token_hash = ?`,
  /** Values: last used at, expires at, id. */
  touch: 'UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE id = ?',
  /** Values: at, token hash. */
  revoke: 'UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL',
} as const;

export const INSERT_SESSION = `INSERT INTO sessions (site_id, member_id, token_hash, created_at, last_used_at, expires_at)
  VALUES (?, ?, ?, ?, ?, ?)`;
export const sessionValues = (s: NewSession): Value[] => [s.siteId, s.memberId, s.tokenHash, s.createdAt, s.lastUsedAt, s.expiresAt];

/** Values: at, site id, member id, the token hash of the session to keep (NULL: none). */
export const REVOKE_MEMBER_SESSIONS = `UPDATE sessions SET revoked_at = ? WHERE site_id = ? AND member_id = ? AND revoked_at IS NULL
  AND token_hash IS DISTINCT FROM ?`;
/** Values: now, how many at most. */
export const SWEEP_SESSIONS = 'DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= ? LIMIT ?)';

// Mailed tokens.

export const TOKEN_COLUMNS = 'id, site_id, member_id, purpose, token_hash, code_hash, new_email, sign_up, created_at, expires_at, attempts, used_at';
export function tokenFrom(r: Row): MemberTokenRecord {
  return {
    id: r.id as number,
    siteId: r.site_id as number,
    memberId: r.member_id as number,
    purpose: r.purpose as MemberTokenRecord['purpose'],
    tokenHash: r.token_hash as string,
    createdAt: r.created_at as number,
    expiresAt: r.expires_at as number,
    attempts: r.attempts as number,
    ...(r.code_hash !== null && { codeHash: r.code_hash as string }),
    ...(r.new_email !== null && { newEmail: r.new_email as string }),
    ...(r.used_at !== null && { usedAt: r.used_at as number }),
    ...(r.sign_up === 1 && { signUp: true }),
  };
}

/** The token to redeem at `at`, or why it cannot be: none with that id, used, or expired (at `expiresAt` and after). */
export function tokenToRedeem(row: Row | undefined, at: EpochMs): MemberTokenRecord | Extract<RedeemOutcome, { redeemed: false }> {
  if (!row) return { redeemed: false, reason: 'missing' };
  const token = tokenFrom(row);
  if (token.usedAt !== undefined) return { redeemed: false, reason: 'used' };
  if (token.expiresAt <= at) return { redeemed: false, reason: 'expired' };
  return token;
}

export const INSERT_TOKEN = `INSERT INTO member_tokens (site_id, member_id, purpose, token_hash, code_hash, new_email, sign_up, created_at,
    expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const tokenValues = (t: NewMemberToken): Value[] => [
  t.siteId, t.memberId, t.purpose, t.tokenHash, orNull(t.codeHash), orNull(t.newEmail), t.signUp ? 1 : 0, t.createdAt, t.expiresAt,
];

export const TOKENS = {
  byHash: `SELECT ${TOKEN_COLUMNS} FROM member_tokens WHERE token_hash = ?`,
  byId: `SELECT ${TOKEN_COLUMNS} FROM member_tokens WHERE id = ?`,
  /** The member's newest unused token of the purpose with a code. Values: site id, member id, purpose. */
  code: `SELECT ${TOKEN_COLUMNS} FROM member_tokens
    WHERE site_id = ? AND member_id = ? AND purpose = ? AND used_at IS NULL AND code_hash IS NOT NULL ORDER BY id DESC LIMIT 1`,
  /** Only the newest code works, so its tries are the only ones; older links still do (they cannot be guessed). Values: member id, purpose. */
  uncode: 'UPDATE member_tokens SET code_hash = NULL WHERE member_id = ? AND purpose = ? AND used_at IS NULL AND code_hash IS NOT NULL',
  /** One UPDATE, so concurrent tries never pass `max` between them. Values: id, max. */
  spendTry: 'UPDATE member_tokens SET attempts = attempts + 1 WHERE id = ? AND used_at IS NULL AND code_hash IS NOT NULL AND attempts < ?',
  /** Values: at, id. */
  use: 'UPDATE member_tokens SET used_at = ? WHERE id = ?',
} as const;

/** The mails a request's send limits count, per address (`address`) and per site (`site`), in one statement. */
export function sendLimitCounts(mail: NewMail, limits: SendLimits): { text: string; values: Value[] } {
  return {
    text: `SELECT count(*) AS site, count(*) FILTER (WHERE recipient = ?) AS address FROM mail_outbox
      WHERE site_id = ? AND kind IN (${limits.kinds.map(() => '?').join(', ')}) AND created_at >= ?`,
    values: [mail.to, mail.siteId, ...limits.kinds, limits.since],
  };
}
/** Which limit sendLimitCounts' row has reached, if any: the address's before the site's. */
export const sendLimitReached = (counts: Row, limits: SendLimits): MailQueueOutcome | undefined =>
  (counts.address as number) >= limits.perAddress ? 'addressLimit' : (counts.site as number) >= limits.perSite ? 'siteLimit' : undefined;

// The mail outbox.

export const MAIL_COLUMNS =
  'id, site_id, kind, recipient, subject, text_body, html_body, from_name, reply_to, created_at, status, attempts, next_attempt_at, sent_at, last_error, once_key';
export function mailFrom(r: RawRow): MailRecord {
  const [id, siteId, kind, to, subject, text, html, fromName, replyTo, createdAt, status, attempts, nextAttemptAt, sentAt, lastError, onceKey] = r as [
    number, number, string, string, string, string, string | null, string | null, string | null, number, MailStatus, number, number, number | null, string | null,
    string | null,
  ];
  return {
    id, siteId, kind, to, subject, text, createdAt, status, attempts, nextAttemptAt,
    ...(html !== null && { html }),
    ...(fromName !== null && { fromName }),
    ...(replyTo !== null && { replyTo }),
    ...(sentAt !== null && { sentAt }),
    ...(lastError !== null && { lastError }),
    ...(onceKey !== null && { onceKey }),
  };
}

/** A mail with an `onceKey` the site has queued before is not inserted (MAILS.once finds the earlier one). */
export const INSERT_MAIL = `INSERT INTO mail_outbox (site_id, kind, recipient, subject, text_body, html_body, from_name, reply_to, once_key,
    created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (site_id, once_key) WHERE once_key IS NOT NULL DO NOTHING`;
/** A new mail is due at once. */
export const mailValues = (m: NewMail): Value[] => [
  m.siteId, m.kind, m.to, m.subject, m.text, orNull(m.html), orNull(m.fromName), orNull(m.replyTo), orNull(m.onceKey), m.createdAt,
  m.createdAt,
];

export const MAILS = {
  once: 'SELECT id FROM mail_outbox WHERE site_id = ? AND once_key = ?',
  byId: `SELECT ${MAIL_COLUMNS} FROM mail_outbox WHERE id = ?`,
  countSite: 'SELECT count(*) FROM mail_outbox WHERE site_id = ? AND created_at >= ?',
  countRecipient: 'SELECT count(*) FROM mail_outbox WHERE site_id = ? AND recipient = ? AND created_at >= ?',
} as const;

/** How an attempt ended, as one UPDATE of a mail still queued (a finished one is left as it is). */
export function finishedMail(id: number, outcome: MailOutcome): { text: string; values: Value[] } {
  if ('sent' in outcome) {
    return { text: `UPDATE mail_outbox SET status = 'sent', sent_at = ?, last_error = NULL WHERE id = ? AND status = 'queued'`, values: [outcome.sent, id] };
  }
  if ('retryAt' in outcome) {
    return { text: `UPDATE mail_outbox SET next_attempt_at = ?, last_error = ? WHERE id = ? AND status = 'queued'`, values: [outcome.retryAt, outcome.error, id] };
  }
  return {
    text: `UPDATE mail_outbox SET status = 'failed', next_attempt_at = ?, last_error = ? WHERE id = ? AND status = 'queued'`,
    values: [outcome.failedAt, outcome.error, id],
  };
}

// Saved cards and invoices: values written into a multi-row statement's parameters from `at`.

export const INSERT_METHOD =
  'INSERT INTO payment_methods (site_id, member_id, processor_id, brand, last4, exp_month, exp_year, created_at)';
export const methodValues = (m: NewPaymentMethod, p: Value[], at: number) => {
  p[at] = m.siteId; p[at + 1] = m.memberId; p[at + 2] = m.processorId; p[at + 3] = m.brand;
  p[at + 4] = m.last4; p[at + 5] = m.expMonth; p[at + 6] = m.expYear; p[at + 7] = m.createdAt;
};
export const INSERT_INVOICE = `INSERT INTO invoices (site_id, member_id, plan_id, membership_id, processor_invoice_id, processor_charge_id,
  sub_total_cents, tax_cents, total_cents, currency, status, description, created_at)`;
export const invoiceValues = (i: NewInvoice, p: Value[], at: number) => {
  p[at] = i.siteId; p[at + 1] = i.memberId; p[at + 2] = i.planId; p[at + 3] = orNull(i.membershipId);
  p[at + 4] = i.processorInvoiceId; p[at + 5] = i.processorChargeId; p[at + 6] = i.subTotalCents; p[at + 7] = i.taxCents;
  p[at + 8] = i.totalCents; p[at + 9] = i.currency; p[at + 10] = i.status; p[at + 11] = i.description; p[at + 12] = i.createdAt;
};
/** One row's values, for a single-row statement. */
export const valuesOf = <T>(values: (row: T, p: Value[], at: number) => void, row: T): Value[] => {
  const p: Value[] = [];
  values(row, p, 0);
  return p;
};

export const BILLING = {
  /** Values: site id, member id, membership id. */
  membershipOfMember: 'SELECT 1 FROM memberships WHERE site_id = ? AND member_id = ? AND id = ?',
  /** Newest first. */
  invoicesOfMember: `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE site_id = ? AND member_id = ? ORDER BY created_at DESC, id DESC`,
  methodOfMember: `SELECT ${PAYMENT_METHOD_COLUMNS} FROM payment_methods WHERE site_id = ? AND member_id = ?`,
} as const;

/**
 * What a processor's events change (decision 0033), each write one statement so it is atomic
 * across processes. RETURNING has no order: the stores sort what it answers.
 */
export const PROCESSOR_EFFECTS = {
  /** The first by id: a charge should have one invoice. Values: site id, charge id. */
  invoiceByCharge: `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE site_id = ? AND processor_charge_id = ? ORDER BY id LIMIT 1`,
  /**
   * Raises the paid invoices of the charge to `amount` refunded (at most their total; all of it:
   * `refunded`), answering those it changed: a refund the processor tells again, or an older
   * smaller one, changes nothing. Values: refundInvoiceValues.
   */
  refund: `UPDATE invoices SET refunded_cents = CASE WHEN total_cents < ? THEN total_cents ELSE ? END,
      status = CASE WHEN total_cents <= ? THEN 'refunded' ELSE status END
    WHERE site_id = ? AND processor_charge_id = ? AND status = 'paid' AND refunded_cents < CASE WHEN total_cents < ? THEN total_cents ELSE ? END
    RETURNING ${INVOICE_COLUMNS}`,
  /** What markInvoiceRefunded answers: the first by id of the charge's paid or refunded invoices. Values: site id, charge id. */
  refundable: `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE site_id = ? AND processor_charge_id = ? AND status IN ('paid', 'refunded')
    ORDER BY id LIMIT 1`,
  /** Values: site id, the card's processor id. */
  removeCard: 'DELETE FROM payment_methods WHERE site_id = ? AND processor_id = ? RETURNING member_id',
  /** Values: site id, site id, processor customer id. */
  removeCustomerCards: `DELETE FROM payment_methods WHERE site_id = ?
    AND member_id IN (SELECT id FROM members WHERE site_id = ? AND processor_customer_id = ?) RETURNING member_id`,
} as const;
/** PROCESSOR_EFFECTS.refund's values; no amount: all of it. */
export function refundInvoiceValues(siteId: number, chargeId: string, refundedCents: number | undefined): Value[] {
  const amount = refundedCents ?? Number.MAX_SAFE_INTEGER;
  return [amount, amount, amount, siteId, chargeId, amount, amount];
}
/** The member ids a statement answered (raw rows of one column), ascending. */
export const idsAscending = (rows: RawRow[]): number[] => rows.map((r) => r[0] as number).sort((x, y) => x - y);

// The owner's actions (issue 32).

export const OWNER = {
  /** Values: site id, invoice id. */
  invoice: `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE site_id = ? AND id = ?`,
  /** The member's earlier addresses, which mail to them was sent to. Values: site id, member id. */
  formerEmails: "SELECT details FROM member_events WHERE site_id = ? AND member_id = ? AND event_type = 'emailChanged'",
} as const;

/** eraseMember's deletions, in order, each with the values site id and member id. */
export const ERASE_MEMBER_DATA = [
  'DELETE FROM signup_values WHERE site_id = ? AND member_id = ?',
  'DELETE FROM member_metadata WHERE site_id = ? AND member_id = ?',
  'DELETE FROM sessions WHERE site_id = ? AND member_id = ?',
  'DELETE FROM member_tokens WHERE site_id = ? AND member_id = ?',
  'DELETE FROM payment_methods WHERE site_id = ? AND member_id = ?',
  'DELETE FROM content_views WHERE site_id = ? AND member_id = ?',
  "UPDATE member_events SET details = '{}' WHERE site_id = ? AND member_id = ? AND event_type = 'emailChanged'",
  // The member's uploaded picture (decision 0039), unless another member of the site has the same
  // one; before ERASE_MEMBER_ROW clears picture_hash, which names it.
  `DELETE FROM member_pictures WHERE site_id = ? AND hash = (SELECT picture_hash FROM members WHERE id = ?)
    AND (SELECT count(*) FROM members m WHERE m.site_id = member_pictures.site_id AND m.picture_hash = member_pictures.hash) = 1`,
] as const;
/** Values: site id, then the addresses as one JSON array (both dialects read it: json_each, jsonb_array_elements_text). */
export const eraseMailTo = (dialect: 'sqlite' | 'postgres') =>
  `DELETE FROM mail_outbox WHERE site_id = ? AND recipient IN (SELECT value FROM ${dialect === 'sqlite' ? 'json_each(?)' : 'jsonb_array_elements_text(?::jsonb)'})`;
/** The member's row made anonymous. Values: the erased address, site id, member id. */
export const ERASE_MEMBER_ROW = `UPDATE members SET email = ?, first_name = NULL, last_name = NULL, password_hash = NULL,
    profile_image_url = NULL, picture_hash = NULL, processor_customer_id = NULL, email_confirmed_at = NULL, status = 'erased'
  WHERE site_id = ? AND id = ?`;
/** GET /invoices' conditions (both dialects). */
export const invoiceWhere = (siteId: number, f: InvoiceFilter): Where =>
  new Where('site_id', siteId).eq('member_id', f.memberId).eq('status', f.status).range('created_at', f.created);
