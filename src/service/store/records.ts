/**
 * What the store keeps. Times are epoch milliseconds (UTC); optional fields are `undefined`
 * when absent, never `null`. Records carry their `siteId`: every read is scoped by it.
 */
import type { AfterRegistration, MemberMetadata, SignupFieldOption, SignupFieldType, SignupFieldValue, SiteTheme } from '../../contract/member';
import type { CardBrand, DeclineCode } from '../payments/card-kinds';
import type {
  ContentNodeType,
  MemberEventType,
  MemberStatus,
  MembershipStatus,
  MultiPaymentBilling,
  OneTimePaymentBilling,
  PlanExpiration,
  PlanStatus,
  PlanType,
  Scope,
  SubscriptionBilling,
} from '../../contract/admin';

export type EpochMs = number;

export interface NewSite {
  name: string;
  subdomain: string;
  domain: string;
  defaultCurrency: string;
  locale: string;
  adminApiEnabled: boolean;
  createdAt: EpochMs;
  /** A logged-in member gets the member menu where the account screen would open. Absent: off. */
  memberMenu?: boolean;
  /** What the widget does after a registration naming no plan. Default `{ action: 'stay' }`. */
  afterRegistration?: AfterRegistration;
  /** How a checkbox field reads as text, when the owner chose the words. Absent: by `locale` (domain/yes-no.ts). */
  checkboxLabels?: CheckboxLabels;
  /** The dialog's colours and shapes on this site. Absent: the widget's own. */
  theme?: SiteTheme;
  /** What and how the site mails its members (issue 15). Absent: the defaults of SiteMailSettings. */
  mail?: SiteMailSettings;
  /** How the site takes payments (the site file's `payments:`). Absent: the built-in test processor. */
  payments?: SitePayments;
}
export interface SiteRecord extends NewSite {
  id: number;
}
/** A change to a site's settings. Absent keys stay as they are; `null` clears `checkboxLabels`. */
export interface SitePatch {
  name?: string;
  domain?: string;
  defaultCurrency?: string;
  locale?: string;
  adminApiEnabled?: boolean;
  memberMenu?: boolean;
  afterRegistration?: AfterRegistration;
  checkboxLabels?: CheckboxLabels | null;
  theme?: SiteTheme | null;
  mail?: SiteMailSettings | null;
  payments?: SitePayments | null;
}

/**
 * How a site takes payments: the built-in test processor (moves no money), or the owner's own
 * Stripe account. Only the names of the environment variables that hold Stripe's secrets are
 * kept, never the secrets (decision 0033).
 */
export type SitePayments =
  | { processor: 'test' }
  | { processor: 'stripe'; publishableKey: string; secretKeyEnv: string; webhookSecretEnv: string };

/** The notices a site may send its members; each is on unless the site turns it off. */
export const MAIL_NOTICES = ['welcome', 'receipt', 'paymentFailed', 'endingSoon'] as const;
export type MailNotice = (typeof MAIL_NOTICES)[number];

/** A site's mail settings (the site file's `mail:`). Every key is optional; absent ones take the default named. */
export interface SiteMailSettings {
  /** The sender's name members see. Default: the site's name. */
  fromName?: string;
  /** Where members' answers go. Default: none (the service's sender address). */
  replyTo?: string;
  /**
   * Whether a member must confirm their address before they may use the site. Default false:
   * sign-up signs in at once, and (the cost) answers a taken address with `emailTaken`.
   */
  requireConfirmedEmail?: boolean;
  /** Notices turned on or off; each absent one is on. */
  notices?: Partial<Record<MailNotice, boolean>>;
}
export interface CheckboxLabels {
  yes: string;
  no: string;
}

/** The parts of a plan that depend on its type, exactly as 2.2 arranges them. */
export type PlanTerms =
  | { type: 'free'; expiration: PlanExpiration }
  | { type: 'oneTimePayment'; expiration: PlanExpiration; billing: OneTimePaymentBilling }
  | { type: 'multiPayment'; expiration: PlanExpiration; billing: MultiPaymentBilling }
  | { type: 'subscription'; billing: SubscriptionBilling };

export type NewPlan = {
  siteId: number;
  /**
   * The owner's stable name for the plan, unique per site: what the site file calls it. Absent:
   * the public id (plans made by code before there was a site file).
   */
  key?: string;
  publicId: string;
  name: string;
  description?: string;
  status: PlanStatus;
  isPublic: boolean;
  colorCode: string;
  contentUrl?: string;
  welcomeUrl?: string;
  /** The plan the owner recommends (the site file's `highlight: true`): the widget makes it stand out. */
  highlight?: boolean;
  /** What the plan includes, a line each: listed under its price. */
  features?: string[];
  /** Where the widget lists the plan among the site's (the site file's order); absent: after those that have one, by id. */
  position?: number;
  createdAt: EpochMs;
} & PlanTerms;
export type PlanRecord = NewPlan & { id: number; key: string };

/** What a plan charges: the billing of its type, as 2.2 arranges it. */
export type PlanBilling = OneTimePaymentBilling | MultiPaymentBilling | SubscriptionBilling;

interface MemberProfile {
  siteId: number;
  /** Unique per site, compared exactly: callers lower-case it before storing and before filtering. */
  email: string;
  firstName?: string;
  lastName?: string;
  profileImageUrl?: string;
  status: MemberStatus;
  createdAt: EpochMs;
  /** The member's customer at the payment processor, set by their first paid sign-up. Never in the Admin API. */
  processorCustomerId?: string;
  /** When the member proved they read mail at `email` (a mailed code or link). Absent: not confirmed. */
  emailConfirmedAt?: EpochMs;
}
export interface NewMember extends MemberProfile {
  /** The password hasher's encoded hash. Members created without one cannot sign in. */
  passwordHash?: string;
  /** Values of the site's custom sign-up fields; every fieldId must be one of the site's. */
  signupValues?: SignupValueRecord[];
}
/** What reads give back: never the password hash. */
export interface MemberRecord extends MemberProfile {
  id: number;
  /**
   * The picture the member uploaded (SHA-256 of its bytes, a MemberPictureRecord of the site),
   * which their profile image then is; set and cleared only by setMemberPicture and
   * removeMemberPicture, never by a batch writer.
   */
  pictureHash?: string;
}

/** What the Admin API's member list shows of a member (Store.listMemberSummaries). */
export type MemberSummary = Pick<MemberRecord, 'id' | 'email' | 'firstName' | 'lastName' | 'status' | 'createdAt'>;

/**
 * A change to a member's own account (the widget's account screens). Absent keys stay as they
 * are; `null` clears a name or a sign-up field's value (the one place a record type uses null).
 */
export interface MemberPatch {
  firstName?: string | null;
  lastName?: string | null;
  /** Unique per site, lower-cased by the caller, as in NewMember. */
  email?: string;
  /** `null` removes the password: the member then signs in by mailed code or link (or sets one by a reset). */
  passwordHash?: string | null;
  /** Each given field's value replaces the stored one; every fieldId must be one of the site's. */
  signupValues?: { fieldId: number; value: SignupFieldValue | null }[];
  /** Set when the first paid sign-up creates the member's customer; cannot be cleared. */
  processorCustomerId?: string;
  /** Set when a mailed code or link proves the address; a new `email` without it is unconfirmed. */
  emailConfirmedAt?: EpochMs;
  /** The owner blocks, unblocks or erases the member (issue 32). */
  status?: MemberStatus;
}

/** What sign-in needs to know about an e-mail address. */
export interface MemberLogin {
  memberId: number;
  status: MemberStatus;
  passwordHash?: string;
  emailConfirmedAt?: EpochMs;
}

/** A custom sign-up field the site defines (spec 2.7); `position` orders the sign-up form. */
export interface NewSignupField {
  siteId: number;
  /** The owner's stable name for the field, unique per site. Absent: `field-<id>`. */
  key?: string;
  type: SignupFieldType;
  label: string;
  required: boolean;
  /** Present exactly for `select` and `multiple-select`. */
  options?: SignupFieldOption[];
  position: number;
}
export interface SignupFieldRecord extends NewSignupField {
  id: number;
  key: string;
  /**
   * Set when the field left the site file: it is off the sign-up form and the member's account,
   * and members' values are kept (the field comes back with them if the file names it again).
   * Only getSiteDefinition lists archived fields.
   */
  archivedAt?: EpochMs;
}
export interface SignupValueRecord {
  fieldId: number;
  value: SignupFieldValue;
}

/** A member's session. Only the SHA-256 of its bearer token is kept. */
export interface NewSession {
  siteId: number;
  memberId: number;
  /** SHA-256 of the whole token, hex. */
  tokenHash: string;
  createdAt: EpochMs;
  lastUsedAt: EpochMs;
  expiresAt: EpochMs;
}
export interface SessionRecord extends NewSession {
  id: number;
  revokedAt?: EpochMs;
}

/** Runs inside the store's transaction for one metadata update; throwing aborts the update. */
export type MetadataUpdate = (current: MemberMetadata) => MemberMetadata;

export interface NewMembership {
  siteId: number;
  memberId: number;
  planId: number;
  status: MembershipStatus;
  createdAt: EpochMs;
  expiresAt?: EpochMs;
  cancelsAt?: EpochMs;
  billingPeriodEnd?: EpochMs;
  paymentFailure: boolean;
  /** Multi-payment plans only: instalments paid so far (0 during a trial). */
  paymentsMade?: number;
  /** Given for free by the owner (issue 32): it has no billing, so nothing ever charges it. */
  comp?: boolean;
}
export interface MembershipRecord extends NewMembership {
  id: number;
  /** Copied from the plan when the membership is created: a plan's type never changes. */
  type: PlanType;
  planPublicId: string;
  /**
   * What the plan charged when the member joined, kept here once the plan's billing changed
   * after that (applySiteChanges copies it then). Absent: the plan's billing now. Renewals
   * charge this, so a price change reaches new members only.
   */
  billing?: PlanBilling;
  /** A downgrade waiting for the period's end (decision 0036): the plan the next renewal charges and moves the membership to. */
  nextPlanId?: number;
}

/**
 * A change to a membership's state (payments, renewals, cancellation). Absent keys stay as they
 * are; `null` clears a date. Member, plan, type and creation time never change.
 */
export interface MembershipPatch {
  status?: MembershipStatus;
  expiresAt?: EpochMs | null;
  cancelsAt?: EpochMs | null;
  billingPeriodEnd?: EpochMs | null;
  paymentFailure?: boolean;
  paymentsMade?: number;
  /** Another plan (a change of plan, decision 0036): the membership then pays it at its price now. */
  planId?: number;
  /** The billing the membership pays when the plan's own has changed since it joined; null: the plan's own. */
  billing?: PlanBilling | null;
  /** A downgrade waiting for the period's end; null: none. */
  nextPlanId?: number | null;
}

/** The member's saved card: one per member, a new one replaces it. Never the number or CVC. */
export interface NewPaymentMethod {
  siteId: number;
  memberId: number;
  /** The processor's payment-method id. */
  processorId: string;
  brand: CardBrand;
  last4: string;
  /** 1-12. */
  expMonth: number;
  /** Four digits. */
  expYear: number;
  createdAt: EpochMs;
}
export interface PaymentMethodRecord extends NewPaymentMethod {
  /** A new one per saved card: replacing the card never reuses the id. */
  id: number;
}

/** `refunded`: paid, then refunded through the processor (Stripe's `charge.refunded`). */
export type InvoiceStatus = 'paid' | 'failed' | 'refunded';

/**
 * One charge attempt in the service's own ledger, kept so that what a member sees does not
 * depend on the processor remembering it. Amounts in minor units of `currency` (billing/money.ts).
 */
export interface NewInvoice {
  siteId: number;
  memberId: number;
  planId: number;
  /** The member's membership the charge paid for; absent when a failed first charge created none. */
  membershipId?: number;
  /** Unique per site. */
  processorInvoiceId: string;
  processorChargeId: string;
  subTotalCents: number;
  taxCents: number;
  totalCents: number;
  /** Lower-case ISO 4217. */
  currency: string;
  status: InvoiceStatus;
  description: string;
  createdAt: EpochMs;
}
export interface InvoiceRecord extends NewInvoice {
  id: number;
  /**
   * How much of `totalCents` the processor has refunded (issue 32: the owner may refund part);
   * absent when nothing. All of it: `status` is `refunded`.
   */
  refundedCents?: number;
}

export interface NewMemberEvent {
  siteId: number;
  memberId: number;
  eventType: MemberEventType;
  details: Record<string, unknown>;
  createdAt: EpochMs;
}
export interface MemberEventRecord extends NewMemberEvent {
  id: number;
}

export interface NewContentSpace {
  siteId: number;
  /** Unique among the site's live spaces: the site file names a space by it. */
  name: string;
  /** The plans whose active members may view the space's content; none: nobody may. */
  planIds?: number[];
}
export interface NewContentNode {
  siteId: number;
  /** The owner's stable name for the item, unique per site. Absent: `item-<id>`. */
  key?: string;
  spaceId: number;
  name: string;
  type: ContentNodeType;
  /** Where the file, recording or page is (every type but `article`). */
  url?: string;
  /** An article's text, rich text written by the site owner. */
  body?: string;
}
export interface ContentNodeRecord extends NewContentNode {
  id: number;
  key: string;
  /** Set when the item left the site file: members cannot open it; its views are kept. */
  archivedAt?: EpochMs;
}
/** A content space with the plans (by id) that open it. */
export interface ContentSpaceRecord {
  id: number;
  siteId: number;
  name: string;
  planIds: number[];
  /** Set when the space left the site file: its items cannot be opened. */
  archivedAt?: EpochMs;
}
/** One content item with what a viewing needs: its space, and the plans that open it. */
export interface ContentItemRecord extends ContentNodeRecord {
  space: { id: number; name: string };
  planIds: number[];
}
export interface NewContentView {
  siteId: number;
  memberId: number;
  nodeId: number;
  viewedAt: EpochMs;
}
export interface ContentViewRecord extends NewContentView {
  id: number;
  node: { id: number; name: string; type: ContentNodeType };
  space: { id: number; name: string };
}

export interface NewApiKey {
  siteId: number;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  scopes: Scope[];
  createdAt: EpochMs;
  expiresAt?: EpochMs;
}
export interface ApiKeyRecord extends NewApiKey {
  id: number;
  revokedAt?: EpochMs;
}

/**
 * A mail to send, queued in the store (issue 15) in the same transaction as the change that
 * causes it, so it is neither lost nor sent for a change that did not happen. `kind` names the
 * message for limits and logs (`passwordReset`, `signInCode`, …).
 */
export interface NewMail {
  siteId: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Shown as the sender's name (the site's), and where answers go. */
  fromName?: string;
  replyTo?: string;
  /**
   * A mail that must go at most once, e.g. `endingSoon:<membership>:<end>`: queueing another
   * with the key the site used before queues nothing (the billing run may find the same reason twice).
   */
  onceKey?: string;
  createdAt: EpochMs;
}

export type MailStatus = 'queued' | 'sent' | 'failed';

export interface MailRecord extends NewMail {
  id: number;
  status: MailStatus;
  /** Attempts started so far (a claim is an attempt). */
  attempts: number;
  /** Not claimed again before this; the next attempt of a queued mail. */
  nextAttemptAt: EpochMs;
  sentAt?: EpochMs;
  lastError?: string;
}

/** How an attempt ended: sent, to be tried again at `retryAt`, or given up (`failed`). */
export type MailOutcome = { sent: EpochMs } | { retryAt: EpochMs; error: string } | { failedAt: EpochMs; error: string };

/**
 * What a mailed token proves and what redeeming it does (issue 15): `signIn` (a sign-in code or
 * link; also confirms the address), `passwordReset` (a link that sets a new password),
 * `emailChange` (a code or link that moves the account to `newEmail`).
 */
export type MemberTokenPurpose = 'signIn' | 'passwordReset' | 'emailChange';

/** A token mailed to a member. Only hashes are kept: the link's token, and the code with it. */
export interface NewMemberToken {
  siteId: number;
  memberId: number;
  purpose: MemberTokenPurpose;
  /** SHA-256 of the link's token, hex; unique. */
  tokenHash: string;
  /** SHA-256 of the code (member-tokens.ts says how), hex; absent: a link only. */
  codeHash?: string;
  /** `emailChange`: the address that takes effect. */
  newEmail?: string;
  /**
   * `signIn` only: mailed by the sign-up that made the account (its welcome or confirmation).
   * Redeeming it confirms the account as it was made; any other first confirmation clears the
   * password (mail-flows.ts says why).
   */
  signUp?: boolean;
  createdAt: EpochMs;
  expiresAt: EpochMs;
}
export interface MemberTokenRecord extends NewMemberToken {
  id: number;
  /** Wrong codes typed so far. */
  attempts: number;
  usedAt?: EpochMs;
}

/**
 * Send limits for a mail a member (or a stranger) asked for: counted over the mails of `kinds`
 * queued at `since` or later, per recipient and per site, in the transaction that would queue it.
 */
export interface SendLimits {
  kinds: readonly string[];
  since: EpochMs;
  perAddress: number;
  perSite: number;
}

/** What became of a requested mail: queued, or held back by the limit per address or per site. */
export type MailQueueOutcome = 'queued' | 'addressLimit' | 'siteLimit';

/** A requested mail, the token it carries (if any), and the limits it must stay under. */
export interface MailRequestRecord {
  mail: NewMail;
  token?: NewMemberToken;
  limits: SendLimits;
}

/**
 * What redeeming a token does besides marking it used, all in the same transaction. `member`
 * may move the e-mail (ConflictError when taken: then nothing changes); `revokeSessions` signs
 * out every session of the member, but the one `keepSessionHash` names; `session` opens a new one.
 */
export interface TokenEffects {
  member?: MemberPatch;
  revokeSessions?: boolean;
  keepSessionHash?: string;
  session?: Omit<NewSession, 'siteId' | 'memberId'>;
  events?: Omit<NewMemberEvent, 'siteId' | 'memberId'>[];
  mails?: NewMail[];
}

export type RedeemOutcome =
  | { redeemed: true; member: MemberRecord; session?: SessionRecord }
  | { redeemed: false; reason: 'missing' | 'used' | 'expired' };

/** A new member with everything sign-up writes in the same transaction. */
export interface SignUpRecord {
  member: NewMember;
  events: Omit<NewMemberEvent, 'siteId' | 'memberId'>[];
  token?: Omit<NewMemberToken, 'siteId' | 'memberId'>;
  mails?: NewMail[];
  session?: Omit<NewSession, 'siteId' | 'memberId'>;
}

/**
 * A rate for `takeRateToken` (issue 16): `limit` requests per `windowMs`, bursts of up to
 * `limit` (a generic cell rate algorithm). `SVC_ADMIN_RATE_LIMIT=120/60s` is `{ limit: 120, windowMs: 60_000 }`.
 */
export interface RateRule {
  limit: number;
  windowMs: number;
}

/** A limit's answer: go ahead, or wait a whole number of seconds (at least 1) first. */
export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A throttle of slow checks that can fail (passwords, issue 16): at most `maxFailures` count
 * against a key, failures within `windowMs` and checks under way alike; a check under way counts
 * for `pendingMs` at most, so one whose process died frees its place then.
 */
export interface ThrottleRule {
  maxFailures: number;
  windowMs: number;
  pendingMs: number;
}

/** How a throttled check ended: right, wrong, or neither (it threw, e.g. the hashing queue was full). */
export type AttemptOutcome = 'succeeded' | 'failed' | 'abandoned';

/**
 * The built-in test processor's own records (payments/test-processor.ts, decision 0029): what a
 * real processor keeps on its side, kept in the store so that every process of one installation,
 * and a restart, see the same customers, cards and charges. Global, not per site (a processor
 * account serves the installation), and apart from the service's ledger (NewInvoice), as a
 * processor's records are.
 */
export interface TestProcessorCustomer {
  /** `cus_test_…`; unique. */
  id: string;
  email: string;
  name?: string;
  createdAt: EpochMs;
}

/** A card the test processor saved: never its number or CVC. */
export interface TestProcessorCard {
  /** `pm_test_…`; unique. */
  id: string;
  customerId: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  /** Every charge on the card is declined with this code (the test card 0341). */
  declineCode?: DeclineCode;
  /**
   * The bank asks the member to authorize payments made while they are there (3-D Secure):
   * `onSession` (3155: charges without them then succeed), `always` (3220: those fail too, with
   * `authentication_required`).
   */
  authentication?: 'onSession' | 'always';
  createdAt: EpochMs;
}

/** One charge attempt as the test processor records it: its invoice, paid or failed. */
export interface TestProcessorCharge {
  /** `in_test_…`; unique. */
  invoiceId: string;
  /** `ch_test_…`; unique. */
  chargeId: string;
  customerId: string;
  cardId: string;
  amountCents: number;
  /** Lower-case ISO 4217. */
  currency: string;
  description: string;
  status: 'paid' | 'failed';
  /** Why a failed charge failed. */
  declineCode?: DeclineCode;
  /** The caller's idempotency key: unique among the charges made while it is kept (a day). */
  idempotencyKey?: string;
  createdAt: EpochMs;
}

/**
 * A payment the test processor's "bank" wants the member to authorize while they are there (its
 * 3-D Secure test cards, docs/test-cards.md), as Stripe keeps a PaymentIntent in
 * `requires_action`: made by a sign-up's on-session charge, answered once from the browser.
 */
export interface TestProcessorIntent {
  /** `pi_test_…`; unique. */
  id: string;
  /** What the browser is given to answer it, as Stripe's client secret: `<id>_secret_<random>`. */
  clientSecret: string;
  customerId: string;
  cardId: string;
  amountCents: number;
  /** Lower-case ISO 4217. */
  currency: string;
  description: string;
  /** What the service wrote on it (its site, member and plan), answered with its outcome. */
  metadata: Record<string, string>;
  /** `requiresAction` until the member answers; then `succeeded` (with its charge) or `failed`, for good. */
  status: 'requiresAction' | 'succeeded' | 'failed';
  /** The charge it made once authorized (set with `succeeded`). */
  chargeId?: string;
  invoiceId?: string;
  /** The caller's idempotency key: unique among the intents made while it is kept (a day). */
  idempotencyKey?: string;
  createdAt: EpochMs;
}

/** How an intent ended: authorized (with the charge it made) or refused. */
export type TestProcessorIntentOutcome = { status: 'succeeded'; chargeId: string; invoiceId: string } | { status: 'failed' };

/** A processor's event a site's webhook handled (Stripe's `evt_…`), kept so it is handled once. */
export interface ProcessorEventRecord {
  siteId: number;
  eventId: string;
  type: string;
  receivedAt: EpochMs;
}

/**
 * A member's uploaded picture as the service keeps it (decision 0039): the re-encoded bytes,
 * named by their SHA-256, once per site however many of its members show it.
 */
export interface MemberPictureRecord {
  siteId: number;
  /** SHA-256 of `bytes`, lower-case hex: what the picture's URL names. */
  hash: string;
  /** The media type it is served as (`image/webp`). */
  contentType: string;
  bytes: Uint8Array;
  createdAt: EpochMs;
}
/** What setMemberPicture keeps: a picture, for the site it is given with. */
export type NewMemberPicture = Omit<MemberPictureRecord, 'siteId'>;
