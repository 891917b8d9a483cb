/**
 * The store interface. Asynchronous throughout, although SQLite and memory could answer at
 * once: a PostgreSQL store must slot in later without touching a caller (DESIGN.md).
 *
 * Every implementation passes the shared contract suite in test/store-contract.ts.
 * Creation methods take batches and run each batch in one transaction: all rows or none.
 * They throw ConflictError / MissingReferenceError (./errors) on broken rules.
 */
import type { SiteMetrics } from '../../contract/admin';
import type { MemberMetadata } from '../../contract/member';
import type {
  ApiKeyRecord,
  AttemptOutcome,
  ContentItemRecord,
  ContentNodeRecord,
  ContentViewRecord,
  EpochMs,
  InvoiceRecord,
  LimitDecision,
  MailOutcome,
  MailRecord,
  MailQueueOutcome,
  MailRequestRecord,
  MemberTokenPurpose,
  MemberTokenRecord,
  RedeemOutcome,
  SignUpRecord,
  TokenEffects,
  MailStatus,
  MemberEventRecord,
  MemberLogin,
  MemberPatch,
  MemberPictureRecord,
  MemberRecord,
  NewMemberPicture,
  MemberSummary,
  MembershipPatch,
  MembershipRecord,
  MetadataUpdate,
  NewApiKey,
  NewContentNode,
  NewContentSpace,
  NewContentView,
  NewInvoice,
  NewMail,
  NewMember,
  NewMemberEvent,
  NewMembership,
  NewPaymentMethod,
  NewPlan,
  NewSession,
  NewSignupField,
  NewSite,
  PaymentMethodRecord,
  ProcessorEventRecord,
  PlanRecord,
  RateRule,
  SessionRecord,
  SignupFieldRecord,
  SignupValueRecord,
  SitePatch,
  SiteRecord,
  TestProcessorCard,
  TestProcessorCharge,
  TestProcessorCustomer,
  TestProcessorIntent,
  TestProcessorIntentOutcome,
  ThrottleRule,
} from './records';
import type {
  ContentViewFilter,
  InvoiceFilter,
  MemberEventFilter,
  MemberFilter,
  MembershipFilter,
  Page,
  PageRequest,
  PlanFilter,
} from './queries';
import type { SiteChangeSet, SiteDefinition } from './site-definition';
import type {
  ClaimedWebhookDelivery,
  NewWebhookAttempt,
  NewWebhookEndpoint,
  NewWebhookMessage,
  WebhookAttemptRecord,
  WebhookAttemptResult,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookEndpointPatch,
  WebhookEndpointRecord,
} from './webhook-records';
import type { WebhookEventType } from '../../contract/webhooks';

/** The webhooks a membership's change may announce. */
export type MembershipAnnouncement = Extract<WebhookEventType, 'membership.cancelled' | 'membership.renewed' | 'membership.ended'>;

export interface Store {
  /** Returns the named secret, creating it with `create()` the first time; stable across restarts. */
  secret(name: string, create: () => string): Promise<string>;

  createSite(site: NewSite): Promise<SiteRecord>;
  getSite(id: number): Promise<SiteRecord | undefined>;
  getSiteBySubdomain(subdomain: string): Promise<SiteRecord | undefined>;
  listSites(): Promise<SiteRecord[]>;
  /** Returns the updated site, or undefined when there is none with that id. Counts as a change of the site's definition (its revision). */
  updateSite(id: number, patch: SitePatch): Promise<SiteRecord | undefined>;
  /**
   * The site with every plan (and how many memberships each has), sign-up field, content space
   * and item, archived ones included, read at one moment; undefined when there is no such site.
   */
  getSiteDefinition(siteId: number): Promise<SiteDefinition | undefined>;
  /**
   * Carries out the change set in one transaction: all of it or nothing; answers the site's id.
   * Throws ConflictError (`revision`) when the site changed since the definition the changes
   * were computed from was read, (`subdomain`) when a site to create exists, (`type`) for a
   * plan update that changes the plan's type, (`key`) for a key taken; MissingReferenceError
   * for an id, plan key or space name that is not the site's.
   */
  applySiteChanges(changes: SiteChangeSet): Promise<number>;
  /**
   * Distinct members with at least one active membership: on any plan, on a free plan, on a
   * paid plan (any other type). A member on both a free and a paid plan counts in both.
   */
  siteMetrics(siteId: number): Promise<SiteMetrics>;

  createPlan(plan: NewPlan): Promise<PlanRecord>;
  getPlan(siteId: number, id: number): Promise<PlanRecord | undefined>;
  listPlans(siteId: number, filter: PlanFilter, page: PageRequest): Promise<Page<PlanRecord>>;
  countPlans(siteId: number, filter: PlanFilter): Promise<number>;
  /** Distinct members with an active membership, per plan id asked for (0 when none). */
  planActiveMemberCounts(siteId: number, planIds: readonly number[]): Promise<Map<number, number>>;

  createSignupFields(fields: readonly NewSignupField[]): Promise<number[]>;
  /** The site's custom sign-up fields, by position, then id; archived ones are left out. */
  listSignupFields(siteId: number): Promise<SignupFieldRecord[]>;

  /**
   * Throws ConflictError (field `email`) when the site has a member with that e-mail already.
   * Announces no `member.created`: this is the bulk writer (`svc seed`, imports), whose members
   * did not just sign up; signUpMember announces the members who do.
   */
  createMembers(members: readonly NewMember[]): Promise<number[]>;
  getMember(siteId: number, id: number): Promise<MemberRecord | undefined>;
  /** Looks the e-mail up exactly (callers lower-case it). */
  findMemberLogin(siteId: number, email: string): Promise<MemberLogin | undefined>;
  /** The member's custom sign-up field values, by field id; fields never filled in are absent. */
  listSignupValues(siteId: number, memberId: number): Promise<SignupValueRecord[]>;
  /**
   * Changes the member's account in one transaction; answers the member after it, or undefined
   * when there is no such member in the site (nothing changes then). Throws ConflictError
   * (`email`) when another member of the site has the e-mail, MissingReferenceError (`fieldId`)
   * for a field that is not the site's; either way nothing changes. A new password or e-mail
   * deletes the member's unused mailed tokens in the same transaction: a reset link or code sent
   * before it no longer works.
   */
  updateMember(siteId: number, memberId: number, patch: MemberPatch): Promise<MemberRecord | undefined>;
  /** Every membership of the member, by id. */
  listMembershipsOfMember(siteId: number, memberId: number): Promise<MembershipRecord[]>;

  /** The member's metadata (`{}` until first updated); undefined when there is no such member. */
  getMemberMetadata(siteId: number, memberId: number): Promise<MemberMetadata | undefined>;
  /**
   * Reads, updates and writes the member's metadata in one transaction, so concurrent updates
   * lose nothing. `update` is synchronous and pure; when it throws, nothing changes and the
   * error propagates. Undefined when there is no such member.
   */
  updateMemberMetadata(siteId: number, memberId: number, update: MetadataUpdate): Promise<MemberMetadata | undefined>;

  /**
   * Members' uploaded pictures (decision 0039), kept once per site and hash. `setMemberPicture`
   * keeps `picture` (unless the site has it already) and makes it the member's, clearing any
   * other profileImageUrl they had, in one transaction; `removeMemberPicture` leaves the member
   * with none (nor a profileImageUrl). Either way the picture the member had is deleted in the
   * same transaction unless another member of the site still has it. Both answer the member
   * after it, or undefined when the site has no such member (nothing changes then).
   */
  setMemberPicture(siteId: number, memberId: number, picture: NewMemberPicture): Promise<MemberRecord | undefined>;
  removeMemberPicture(siteId: number, memberId: number): Promise<MemberRecord | undefined>;
  /** A picture by its hash, whichever site keeps it (its URL names no site); undefined when none does. */
  getMemberPicture(hash: string): Promise<MemberPictureRecord | undefined>;

  createSession(session: NewSession): Promise<SessionRecord>;
  findSessionByHash(tokenHash: string): Promise<SessionRecord | undefined>;
  /**
   * The session and its member, read together (one query on the SQL stores): what every signed-in
   * member API request reads first. Undefined when there is no such session.
   */
  findSessionWithMember(tokenHash: string): Promise<{ session: SessionRecord; member: MemberRecord } | undefined>;
  /** Records use of a live session and moves its expiry (sliding sessions). */
  touchSession(id: number, lastUsedAt: number, expiresAt: number): Promise<void>;
  /** Marks the session revoked at `at`. False when no such session exists (or it was revoked already). */
  revokeSession(tokenHash: string, at: number): Promise<boolean>;
  /** Revokes every live session of the member except the one `keepTokenHash` names; answers how many. */
  revokeMemberSessions(siteId: number, memberId: number, at: number, keepTokenHash?: string): Promise<number>;
  /**
   * Deletes every site's sessions that have expired at `now` (`expiresAt <= now`, as sign-in
   * reads them), revoked ones included; answers how many. The billing run calls it, so the
   * table holds live sessions only, not every sign-in ever made.
   */
  deleteExpiredSessions(now: EpochMs): Promise<number>;
  listMembers(siteId: number, filter: MemberFilter, page: PageRequest): Promise<Page<MemberRecord>>;
  /**
   * listMembers with only what the Admin API's member resource shows (MemberSummary): the same
   * page, read with fewer columns, as the Admin API's busiest list is (decision 0027).
   */
  listMemberSummaries(siteId: number, filter: MemberFilter, page: PageRequest): Promise<Page<MemberSummary>>;

  createMemberships(memberships: readonly NewMembership[]): Promise<number[]>;
  listMemberships(
    siteId: number,
    filter: MembershipFilter,
    page: PageRequest,
  ): Promise<Page<MembershipRecord>>;
  /**
   * Changes the membership's state; answers the membership after it, or undefined when there is
   * no such membership in the site (nothing changes then). A status change moves siteMetrics and
   * planActiveMemberCounts at once, as creating a membership does. `announce` names the webhook
   * the change is (a cancellation, a renewal, an end), written in the same transaction with the
   * membership after it (issue 31).
   */
  updateMembership(siteId: number, id: number, patch: MembershipPatch, announce?: MembershipAnnouncement): Promise<MembershipRecord | undefined>;

  /**
   * Saves the member's card, replacing the one saved before (a member has at most one), in one
   * transaction. Throws MissingReferenceError (`siteId`, `memberId`) for an unknown site or a
   * member not in it; nothing changes then.
   */
  savePaymentMethod(method: NewPaymentMethod): Promise<PaymentMethodRecord>;
  /**
   * Saves the batch's cards in one transaction, all or none, as savePaymentMethod one after
   * another would: each replaces the member's saved card (a later row of the batch one for the
   * same member, too) and takes a new id. On a bad row it throws what savePaymentMethod would
   * for the first row it rejects, and nothing changes. For writers of many rows, e.g. the demo seed.
   */
  savePaymentMethods(methods: readonly NewPaymentMethod[]): Promise<void>;
  /** The member's saved card; undefined when there is none (or no such member in the site). */
  getPaymentMethod(siteId: number, memberId: number): Promise<PaymentMethodRecord | undefined>;
  /**
   * Adds a charge attempt to the service's ledger, and queues `mails` (a receipt) in the same
   * transaction. Throws ConflictError (`processorInvoiceId`)
   * when the site has an invoice with that processor id already, MissingReferenceError (`siteId`,
   * `memberId`, `planId`, `membershipId`) for a reference that is not the site's, or for a
   * membership that is not the member's; nothing changes then.
   */
  createInvoice(invoice: NewInvoice, mails?: readonly NewMail[]): Promise<InvoiceRecord>;
  /**
   * Adds the batch's invoices in one transaction, all or none, as createInvoice one after another
   * would (ids in input order). On a bad row, a processor invoice id taken by an earlier row of
   * the batch included, it throws what createInvoice would for the first row it rejects, and
   * nothing changes. Announces no payment: the seed's history, not charges made now.
   */
  createInvoices(invoices: readonly NewInvoice[]): Promise<void>;
  /** The member's invoices, newest first (createdAt, then id, descending); failed attempts included. */
  listInvoicesOfMember(siteId: number, memberId: number): Promise<InvoiceRecord[]>;

  // What the owner's actions read and write (issue 32; each implementation's owner file).
  /** The site's membership; undefined when there is none of that id in the site. */
  getMembership(siteId: number, id: number): Promise<MembershipRecord | undefined>;
  /** The site's invoice; undefined when there is none of that id in the site. */
  getInvoice(siteId: number, id: number): Promise<InvoiceRecord | undefined>;
  /** The Admin API's ledger (GET /invoices), by id. */
  listInvoices(siteId: number, filter: InvoiceFilter, page: PageRequest): Promise<Page<InvoiceRecord>>;
  /**
   * Erases the member on request (docs/owner-actions.md), in one transaction: the row stays (the
   * ledger and events name its id) with `erasedEmail`, status `erased` and nothing else personal;
   * sign-up values, metadata, sessions, mailed tokens, the saved card, content views and every
   * mail to the member's addresses (this one and those an `emailChanged` event names) are
   * deleted, and `emailChanged` events lose their details. Announces `member.updated`. Memberships
   * and invoices are the caller's to end and keep. Undefined when the site has no such member.
   */
  eraseMember(siteId: number, memberId: number, erasedEmail: string): Promise<MemberRecord | undefined>;

  createMemberEvents(events: readonly NewMemberEvent[]): Promise<number[]>;
  listMemberEvents(
    siteId: number,
    filter: MemberEventFilter,
    page: PageRequest,
  ): Promise<Page<MemberEventRecord>>;

  /** Throws MissingReferenceError (`siteId`, `planIds`) for a site or plan that is not the site's. */
  createContentSpace(space: NewContentSpace): Promise<number>;
  createContentNode(node: NewContentNode): Promise<number>;
  /** The site's content items, by id; archived ones, and those of archived spaces, are left out. */
  listContentNodes(siteId: number): Promise<ContentNodeRecord[]>;
  /**
   * One content item of the site, with its space and the plans that open it (by id). Undefined
   * for an archived item or an item of an archived space, as for one that does not exist.
   */
  getContentItem(siteId: number, nodeId: number): Promise<ContentItemRecord | undefined>;
  createContentViews(views: readonly NewContentView[]): Promise<number[]>;
  listContentViews(
    siteId: number,
    filter: ContentViewFilter,
    page: PageRequest,
  ): Promise<Page<ContentViewRecord>>;

  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Marks the key revoked at `at`. False when no such key exists (or it was revoked already). */
  revokeApiKey(hash: string, at: number): Promise<boolean>;

  /**
   * The mail outbox (issue 15), shared by every process: senders claim, never hold, a message.
   * `queueMail` writes a batch in one transaction and returns the ids in input order; a mail with
   * an `onceKey` the site has queued before is not queued again (its id is the earlier mail's).
   */
  queueMail(mails: readonly NewMail[]): Promise<number[]>;
  /**
   * Claims up to `limit` queued mails due at `now`, oldest first, for `leaseMs`: no other claim
   * returns them until then (a sender that dies mid-send leaves them to the next). Each claim
   * counts as an attempt.
   */
  claimMail(now: EpochMs, limit: number, leaseMs: number): Promise<MailRecord[]>;
  /**
   * Creates the member with what sign-up writes beside it (events, a mailed token, its mail, a
   * session) in one transaction; answers the member's id and the session. Throws what
   * createMembers throws (ConflictError `email`), and nothing changes then.
   */
  signUpMember(signUp: SignUpRecord): Promise<{ memberId: number; session?: SessionRecord }>;
  /**
   * Queues a mail someone asked for (a reset link, a code), with the token it carries, in one
   * transaction, unless the send limits are reached: then it writes nothing and answers which
   * limit held it back (the address's is checked first).
   * A new token with a code takes the code off the member's unused tokens of the same purpose
   * (only the newest code works, so its tries are the only ones); their links still work.
   */
  queueRequestedMail(request: MailRequestRecord): Promise<MailQueueOutcome>;
  /** The token whose link hash this is, used or not. */
  findMemberToken(tokenHash: string): Promise<MemberTokenRecord | undefined>;
  /** The member's newest unused token of the purpose that carries a code (expired or not). */
  findCodeToken(siteId: number, memberId: number, purpose: MemberTokenPurpose): Promise<MemberTokenRecord | undefined>;
  /**
   * Counts one try of the token's code, atomically: true when it is unused, still has its code
   * (a newer code takes it off), and had fewer than `max` tries, so concurrent guesses never get
   * more than `max` between them.
   */
  spendCodeTry(id: number, max: number): Promise<boolean>;
  /**
   * Marks the token used at `at` and carries out `effects` in one transaction, when it is unused
   * and not expired then; otherwise changes nothing and says why. Throws ConflictError (`email`)
   * when the effects move the member to a taken address (nothing changes).
   */
  redeemMemberToken(id: number, at: EpochMs, effects: TokenEffects): Promise<RedeemOutcome>;

  /** Records how an attempt ended; false when no such mail is queued (sent or given up already). */
  finishMail(id: number, outcome: MailOutcome): Promise<boolean>;
  /** Mails queued for `to` (any status) at `since` or later, for the send limits; all of the site's without `to`. */
  countMail(siteId: number, since: EpochMs, to?: string): Promise<number>;
  getMail(id: number): Promise<MailRecord | undefined>;
  /** Oldest first; `status` narrows. */
  listMail(status: MailStatus | undefined, page: PageRequest): Promise<Page<MailRecord>>;

  /**
   * Limits shared by every process on the store (issue 16; decision 0025). Keys are namespaced
   * strings (`admin-key:7`, `sign-in:3:ann@example.com`); each call is one atomic step, so
   * concurrent callers in any number of processes get exactly the allowance between them.
   *
   * Takes one request's token from the key's cell (GCRA: the cell keeps its theoretical arrival
   * time `tat`): allowed when `max(tat, now) + window / limit - now <= window`, which moves `tat`
   * there; refused otherwise, with the whole seconds (at least 1) until it would be allowed, and
   * a refused request uses up nothing.
   */
  takeRateToken(key: string, now: EpochMs, rate: RateRule): Promise<LimitDecision>;
  /**
   * Starts a throttled check for `key`, counted from now: allowed while the key's failures within
   * `rule.windowMs` plus its checks under way (started within `rule.pendingMs` and not ended)
   * are fewer than `rule.maxFailures`; the check is then under way. Refused otherwise: the
   * seconds until the oldest of the counted failures leaves the window when failures alone fill
   * the allowance, else 1 (checks under way end within seconds).
   */
  beginThrottledAttempt(key: string, now: EpochMs, rule: ThrottleRule): Promise<LimitDecision>;
  /**
   * Ends a check begun with beginThrottledAttempt: it is no longer under way; `succeeded`
   * forgets the key's failures, `failed` adds one at `now` (the newest `rule.maxFailures` are
   * kept), `abandoned` changes nothing else.
   */
  endThrottledAttempt(key: string, outcome: AttemptOutcome, now: EpochMs, rule: ThrottleRule): Promise<void>;
  /** Forgets the key's failures (checks under way still count): e.g. after a password reset. */
  clearThrottle(key: string): Promise<void>;
  /**
   * Takes the named lease for `holder` until `now + leaseMs`, or renews it when `holder` has it:
   * true then. False while another holder has it and it has not expired (`expiresAt > now`).
   */
  tryLease(name: string, holder: string, now: EpochMs, leaseMs: number): Promise<boolean>;
  /** Gives the lease up when `holder` has it (expired or not); false otherwise. */
  releaseLease(name: string, holder: string): Promise<boolean>;
  /**
   * Deletes what no longer limits anything at `now`: rate cells whose allowance is full again,
   * throttled keys with no failure in their window and no check under way, expired leases.
   * Answers how many; the billing run calls it, so the tables hold live state only.
   */
  deleteExpiredLimits(now: EpochMs): Promise<number>;

  /**
   * The built-in test processor's own records (payments/test-processor.ts, decision 0029), shared
   * by every process on the store as a real processor's are by its clients. Written once, never
   * changed or deleted; ids are the processor's. The batches are one transaction each, all or
   * none, and throw ConflictError (`id`) for an id taken (earlier or in the batch). That a card's
   * or charge's customer exists is the processor's to check (it never deletes one).
   */
  createTestProcessorCustomers(customers: readonly TestProcessorCustomer[]): Promise<void>;
  getTestProcessorCustomer(id: string): Promise<TestProcessorCustomer | undefined>;
  /** Forgets the customer and their cards (an erased member, issue 32); charges stay. False for an unknown customer. */
  deleteTestProcessorCustomer(id: string): Promise<boolean>;
  addTestProcessorCards(cards: readonly TestProcessorCard[]): Promise<void>;
  /**
   * Adds the charges of a history (the demo seed, issue 32: so the owner can refund a seeded
   * invoice) in one transaction, all or none; keys are not checked, as they are long forgotten.
   */
  addTestProcessorCharges(charges: readonly TestProcessorCharge[]): Promise<void>;
  /** The customer's cards in the order they were added. */
  listTestProcessorCards(customerId: string): Promise<TestProcessorCard[]>;
  /**
   * Records a charge in one atomic step, unless its idempotency key is carried by a charge
   * recorded after `keptAfter`: then nothing is written, and that charge is the answer. (A key
   * of an older charge is forgotten: the new charge takes it.) Calls with one key at once, from
   * any number of processes, record one charge between them and all answer it. Throws
   * ConflictError (`id`) for an invoice or charge id taken.
   */
  recordTestProcessorCharge(charge: TestProcessorCharge, keptAfter: EpochMs): Promise<TestProcessorCharge>;
  /** The customer's charges in the order they were recorded, failed ones included. */
  listTestProcessorCharges(customerId: string): Promise<TestProcessorCharge[]>;
  /**
   * Records a payment waiting for the member's authorization, with the same idempotency rule as
   * recordTestProcessorCharge (a key carried by an intent recorded after `keptAfter` answers that
   * intent and writes nothing; calls with one key at once record one intent). Throws ConflictError
   * (`id`) for an intent id taken.
   */
  recordTestProcessorIntent(intent: TestProcessorIntent, keptAfter: EpochMs): Promise<TestProcessorIntent>;
  getTestProcessorIntent(id: string): Promise<TestProcessorIntent | undefined>;
  /**
   * Ends an intent still in `requiresAction` with its outcome, in one atomic step: of calls at
   * once (from any number of processes) one settles it and every one answers the intent as it then
   * is; an intent already settled is answered unchanged. Undefined for an unknown id.
   */
  settleTestProcessorIntent(id: string, outcome: TestProcessorIntentOutcome): Promise<TestProcessorIntent | undefined>;

  /**
   * Records that the site's webhook handled a processor's event (Stripe's `evt_…`, decision
   * 0033): true the first time, false when it was recorded before, so a delivery the processor
   * repeats, or sends to two processes at once, is handled once. Atomic across processes.
   */
  recordProcessorEvent(event: ProcessorEventRecord): Promise<boolean>;
  /** The site's invoice whose processor charge id is `processorChargeId`; undefined when none. */
  getInvoiceByCharge(siteId: number, processorChargeId: string): Promise<InvoiceRecord | undefined>;
  /**
   * Records that the processor refunded `refundedCents` of the charge in all (Stripe's
   * `charge.refunded` tells the total so far; the owner's refunds, issue 32), or all of it
   * without an amount, and answers its invoice. The invoice's `refundedCents` only grows, to
   * its total at most; refunded in full, it is `refunded`. A refund told again, or an older
   * smaller one, changes nothing and announces nothing; a failed invoice, or none of that
   * charge, answers undefined and changes nothing.
   */
  markInvoiceRefunded(siteId: number, processorChargeId: string, refundedCents?: number): Promise<InvoiceRecord | undefined>;
  /**
   * Removes the saved card whose processor id is `processorId` from the site's member who has it
   * (Stripe's `payment_method.detached`): the next renewal fails as with no card. Answers that
   * member's id; undefined when no member of the site has that card (nothing changes).
   */
  removePaymentMethodByProcessorId(siteId: number, processorId: string): Promise<number | undefined>;
  /**
   * Removes the saved card of every member of the site whose processor customer is
   * `processorCustomerId` (Stripe's `customer.deleted`); the customer id itself stays (it cannot
   * be cleared). Answers the ids of the members whose card was removed, ascending; [] when none.
   */
  removePaymentMethodsOfCustomer(siteId: number, processorCustomerId: string): Promise<number[]>;

  /**
   * A site's webhook endpoints (issue 31; ./webhook-records). `createWebhookEndpoint` throws
   * MissingReferenceError (`siteId`) for an unknown site; endpoints are listed in id order.
   * Deleting one deletes its deliveries and their attempts.
   */
  createWebhookEndpoint(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRecord>;
  getWebhookEndpoint(siteId: number, id: number): Promise<WebhookEndpointRecord | undefined>;
  listWebhookEndpoints(siteId: number): Promise<WebhookEndpointRecord[]>;
  updateWebhookEndpoint(siteId: number, id: number, patch: WebhookEndpointPatch): Promise<WebhookEndpointRecord | undefined>;
  deleteWebhookEndpoint(siteId: number, id: number): Promise<boolean>;
  /**
   * Announces messages outside any other write, in one transaction: one pending delivery, due
   * at the message's `createdAt`, per enabled endpoint of its site that wants its type; a
   * message no endpoint wants is not kept. Answers the number of deliveries made. The store's
   * own writes that announce a change (signUpMember, createMemberships, updateMembership with
   * `announce`, createInvoice, markInvoiceRefunded, createMemberEvents, updateMember,
   * updateMemberMetadata, redeemMemberToken) write theirs the same way in their transaction.
   */
  queueWebhooks(messages: readonly NewWebhookMessage[]): Promise<number>;
  /**
   * Claims up to `limit` deliveries for `leaseMs`, each the oldest pending delivery of an
   * enabled endpoint and due at `now`, so an endpoint gets its messages one at a time and in
   * order; no other claim returns them until the lease ends (a worker that dies mid-attempt
   * leaves its delivery to the next).
   */
  claimWebhookDeliveries(now: EpochMs, limit: number, leaseMs: number): Promise<ClaimedWebhookDelivery[]>;
  /**
   * Records an attempt and what follows it, in one transaction, when the delivery is still
   * pending under the claim that ends at `leaseUntil`; false otherwise (nothing recorded).
   */
  finishWebhookAttempt(deliveryId: number, leaseUntil: EpochMs, attempt: NewWebhookAttempt, result: WebhookAttemptResult): Promise<boolean>;
  getWebhookDelivery(siteId: number, id: number): Promise<WebhookDeliveryRecord | undefined>;
  /** Newest first: `afterId` pages to smaller ids. */
  listWebhookDeliveries(siteId: number, filter: WebhookDeliveryFilter, page: PageRequest): Promise<Page<WebhookDeliveryRecord>>;
  /** The delivery's attempts, oldest first. */
  listWebhookAttempts(siteId: number, deliveryId: number): Promise<WebhookAttemptRecord[]>;
  /**
   * Sends a delivery's message to its endpoint again: a new pending delivery (`replayOf` the
   * given one, the same message and `webhook-id`) due at `now`; undefined for an unknown delivery.
   */
  replayWebhookDelivery(siteId: number, deliveryId: number, now: EpochMs): Promise<WebhookDeliveryRecord | undefined>;
  /** Deletes attempts made before `before`, finished deliveries that ended before it, and messages left with no delivery; answers how many rows went. */
  deleteOldWebhookRecords(before: EpochMs): Promise<number>;

  /**
   * Runs `work`, a bulk load (`svc seed` into an installation without members), against a store
   * that writes as fast as this one can; answers what `work` answers. On PostgreSQL the load is
   * one transaction, all or nothing, whose member tables check their foreign keys once at the
   * end instead of row by row (./postgres/bulk-load): a broken reference fails the whole load
   * then, and other callers wait for those tables until it ends. SQLite and memory run `work`
   * against themselves: each call in it is its own transaction, as always.
   */
  bulkLoad<T>(work: (store: Store) => Promise<T>): Promise<T>;

  close(): Promise<void>;
}

/** The mail outbox: each implementation's outbox file. */
export type OutboxMethods = Pick<Store, 'queueMail' | 'claimMail' | 'finishMail' | 'countMail' | 'getMail' | 'listMail'>;

/** The members' mailed tokens and what redeeming them writes: each implementation's member-tokens file. */
export type TokenMethods = Pick<
  Store,
  'signUpMember' | 'queueRequestedMail' | 'findMemberToken' | 'findCodeToken' | 'spendCodeTry' | 'redeemMemberToken'
>;

/** The members' side of the store: what each implementation keeps in its own accounts file. */
export type AccountMethods = Pick<
  Store,
  | 'createSignupFields'
  | 'listSignupFields'
  | 'createMembers'
  | 'getMember'
  | 'findMemberLogin'
  | 'listSignupValues'
  | 'updateMember'
  | 'listMembershipsOfMember'
  | 'getMemberMetadata'
  | 'updateMemberMetadata'
  | 'createSession'
  | 'findSessionByHash'
  | 'findSessionWithMember'
  | 'touchSession'
  | 'revokeSession'
  | 'revokeMemberSessions'
  | 'deleteExpiredSessions'
>;

/** What the owner's actions need beyond the rest (issue 32): each implementation's owner file. */
export type OwnerMethods = Pick<Store, 'getMembership' | 'getInvoice' | 'listInvoices' | 'eraseMember'>;

/** Members' uploaded pictures (decision 0039): each implementation's pictures file. */
export type PictureMethods = Pick<Store, 'setMemberPicture' | 'removeMemberPicture' | 'getMemberPicture'>;

/** The billing side of the store (saved cards, the invoice ledger): each implementation's payments file. */
export type BillingMethods = Pick<
  Store,
  'savePaymentMethod' | 'savePaymentMethods' | 'getPaymentMethod' | 'createInvoice' | 'createInvoices' | 'listInvoicesOfMember'
>;

/** Limits shared by every process (rate cells, throttled checks): each implementation's limits file. */
export type LimitMethods = Pick<
  Store,
  'takeRateToken' | 'beginThrottledAttempt' | 'endThrottledAttempt' | 'clearThrottle' | 'deleteExpiredLimits'
>;

/** The built-in test processor's records (decision 0029): each implementation's test-processor file. */
export type TestProcessorMethods = Pick<
  Store,
  | 'createTestProcessorCustomers'
  | 'getTestProcessorCustomer'
  | 'deleteTestProcessorCustomer'
  | 'addTestProcessorCharges'
  | 'addTestProcessorCards'
  | 'listTestProcessorCards'
  | 'recordTestProcessorCharge'
  | 'listTestProcessorCharges'
  | 'recordTestProcessorIntent'
  | 'getTestProcessorIntent'
  | 'settleTestProcessorIntent'
>;

/** Named leases (the billing run's lock, a renewal's claim, a plan sign-up's claim): each implementation's leases file. */
export type LeaseMethods = Pick<Store, 'tryLease' | 'releaseLease'>;

/** The processor events a site's webhook handled (decision 0033): each implementation's processor-events file. */
export type ProcessorEventMethods = Pick<Store, 'recordProcessorEvent'>;
/** What a processor's events change in the billing records (decision 0033): each implementation's payments file. */
export type ProcessorEffectMethods = Pick<Store, 'getInvoiceByCharge' | 'markInvoiceRefunded' | 'removePaymentMethodByProcessorId' | 'removePaymentMethodsOfCustomer'>;

/** A site's webhook endpoints and their deliveries (issue 31): each implementation's webhooks file. */
export type WebhookMethods = Pick<
  Store,
  | 'createWebhookEndpoint'
  | 'getWebhookEndpoint'
  | 'listWebhookEndpoints'
  | 'updateWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'queueWebhooks'
  | 'claimWebhookDeliveries'
  | 'finishWebhookAttempt'
  | 'getWebhookDelivery'
  | 'listWebhookDeliveries'
  | 'listWebhookAttempts'
  | 'replayWebhookDelivery'
  | 'deleteOldWebhookRecords'
>;
