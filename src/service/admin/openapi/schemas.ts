/**
 * Component schemas of the Admin API resources: one per wire type of src/contract/admin.ts,
 * field for field. Resource objects are closed (`additionalProperties: false`), so a field the
 * contract does not name fails validation, and no type admits `null`: absent values are omitted.
 */
import {
  CONTENT_NODE_TYPES,
  MEMBER_EVENT_TYPES,
  MEMBER_STATUSES,
  MEMBERSHIP_STATUSES,
  PLAN_TYPES,
  SCOPES,
  type ErrorCode,
} from '../../../contract/admin';
import { planSchemas } from './plan-schemas';
import {
  count,
  currency,
  dateTime,
  described,
  errorBodyWith as anyErrorBodyWith,
  id,
  object,
  oneOfValues,
  schemaRef,
  str,
  type Schema,
} from '../../openapi/schema-helpers';

export { dateTime, object, schemaRef, type Schema } from '../../openapi/schema-helpers';

/** Every error code, in the order of spec section 7; the check below keeps it in step with ErrorCode. */
export const ERROR_CODES = [
  'invalidCursor',
  'invalidParameter',
  'accessDenied',
  'forbidden',
  'notFound',
  'methodNotAllowed',
  'rateLimited',
  'internalError',
  // The owner's actions (issue 32).
  'invalidBody',
  'conflict',
  'processorError',
] as const satisfies readonly ErrorCode[];
type MissingErrorCode = Exclude<ErrorCode, (typeof ERROR_CODES)[number]>;
const everyErrorCodeListed: [MissingErrorCode] extends [never] ? true : MissingErrorCode = true;
void everyErrorCodeListed;

// ---------------------------------------------------------------------------------------- Site

const SiteMetrics = object(
  {
    activeMemberCount: count('Members with at least one active membership.'),
    freeMemberCount: count('Members with an active membership on a free plan.'),
    paidMemberCount: count('Members with an active membership on a paid plan (any type but `free`).'),
  },
  ['activeMemberCount', 'freeMemberCount', 'paidMemberCount'],
  'Member counts of the site. A member on both a free and a paid plan counts in both.',
);

const Site = object(
  {
    id: id('Unique site id.'),
    name: str('Display name.'),
    subdomain: str('The account subdomain, a second unique id.'),
    domain: str('Custom domain (`<subdomain>.localhost` until one is set).'),
    defaultCurrency: described(currency, 'ISO 4217 code, lowercase, used for the site\'s plans.'),
    locale: { type: 'string', pattern: '^[a-z]{2}$', description: 'ISO 639-1 language code, two lowercase letters.' },
    metrics: schemaRef('SiteMetrics'),
    createdAt: dateTime(),
  },
  ['id', 'name', 'subdomain', 'domain', 'defaultCurrency', 'locale', 'metrics', 'createdAt'],
);

// ------------------------------------------------------------------------ Members and activity

const Membership = object(
  {
    id: id(),
    memberId: id('The member holding the membership.'),
    planId: id('The plan of the membership.'),
    planPublicId: str(),
    status: oneOfValues(MEMBERSHIP_STATUSES),
    type: oneOfValues(PLAN_TYPES, 'The plan type of the membership.'),
    createdAt: dateTime(),
    expiresOn: dateTime('When access ends (the filters call it `expiresAt`); absent when it never expires.'),
    cancelsOn: dateTime('A subscription cancelled at the end of its billing period ends then.'),
    billing: object({ billingPeriodEnd: dateTime() }, ['billingPeriodEnd'], 'On subscriptions and uncompleted multi-payment memberships.'),
    nextPlanId: id('A subscription changed to a cheaper plan moves to this plan when its billing period ends.'),
    comp: { type: 'boolean', const: true, description: 'Given for free by the site\'s owner (POST /memberships): never charged, and not revenue. Absent on memberships paid for or free by plan.' },
    joinedBilling: {
      oneOf: [schemaRef('SubscriptionBilling'), schemaRef('MultiPaymentBilling'), schemaRef('OneTimePaymentBilling')],
      description: 'What the membership pays when its plan\'s billing has changed since the member joined: the plan\'s billing as it was then, which renewals go on charging. Absent: the plan\'s own billing.',
    },
  },
  ['id', 'memberId', 'planId', 'planPublicId', 'status', 'type', 'createdAt'],
);

const Member = object(
  {
    id: id(),
    email: str('Lower-cased.'),
    firstName: str(),
    lastName: str(),
    status: oneOfValues(MEMBER_STATUSES),
    createdAt: dateTime(),
  },
  ['id', 'email', 'status', 'createdAt'],
);

const NoDetails = object({}, [], 'The details of a `signup`, `login` or `passwordReset` event: none (`{}`).');

const ConversionDetails = object(
  {
    planId: id('The plan signed up to.'),
    membershipId: id('The membership the sign-up made.'),
    orderId: str('The sign-up\'s order: the processor\'s invoice id of its first charge, or `ord_…` when nothing was charged (a free plan, a trial).'),
  },
  ['planId', 'membershipId', 'orderId'],
  'The details of a `conversion` event: a member signed up to a plan (spec 2.5).',
);

const Actor = {
  description: 'Who did an owner action: an Admin API key, by its id, or the `svc` command on the server.',
  oneOf: [
    object({ apiKeyId: id('The Admin API key\'s id.') }, ['apiKeyId']),
    object({ cli: { type: 'boolean', const: true } }, ['cli']),
  ],
} satisfies Schema;

const CancellationDetails = object(
  {
    planId: id('The plan of the membership cancelled.'),
    reason: { type: 'string', enum: ['paymentFailed'], description: 'Present when the billing run ended the membership after its last failed attempt; absent when the member cancelled.' },
    membershipId: id('The membership the owner cancelled (present with `by`).'),
    when: { type: 'string', enum: ['now', 'periodEnd'], description: 'When the owner\'s cancellation takes effect (present with `by`).' },
    by: schemaRef('Actor'),
  },
  ['planId'],
  'The details of a `cancellation` event: a membership cancelled by its member (it runs to its period\'s end), ended by failed payments, or cancelled by the owner (`by`).',
);

const MembershipCompedDetails = object(
  { membershipId: id('The membership given.'), planId: id('Its plan.'), expiresAt: dateTime('When it ends; absent: never.'), by: schemaRef('Actor') },
  ['membershipId', 'planId', 'by'],
  'The details of a `membershipComped` event: the owner gave the member a plan for free.',
);
const MemberBlockedDetails = object(
  { sessionsEnded: count('The member\'s sessions signed out.'), by: schemaRef('Actor') },
  ['sessionsEnded', 'by'],
  'The details of a `memberBlocked` event.',
);
const OwnerActionDetails = object({ by: schemaRef('Actor') }, ['by'], 'The details of a `memberUnblocked`, `memberExported` or `memberErased` event.');

const PaymentFailedDetails = object(
  {
    planId: id('The plan charged for.'),
    membershipId: id('The membership whose renewal or instalment failed.'),
    amount: str('The amount asked, currency-formatted text, e.g. `$12.00`.'),
    reason: str('Why, as the processor says: `card_declined`, `insufficient_funds`, `authentication_required` (the bank wants the member there), `noPaymentMethod`.'),
    attempt: { type: 'integer', minimum: 1, description: 'Which attempt at this charge failed (retried a day later, up to the last one).' },
    chargeId: str('The processor\'s charge id, when a charge was tried.'),
    invoiceId: str('The processor\'s invoice id, when a charge was tried.'),
  },
  ['planId', 'membershipId', 'amount', 'reason', 'attempt'],
  'The details of a `paymentFailed` event: a renewal or instalment the processor refused (the billing run, or the member paying now).',
);

const AbandonedConversionDetails = object(
  {
    amount: str('Currency-formatted text, e.g. `$12.00`.'),
    chargeId: str(),
    invoiceId: str(),
  },
  ['amount', 'chargeId', 'invoiceId'],
  'The details of an `abandonedConversion` event.',
);

const EmailChangedDetails = object(
  {
    from: str('The address before the change (lower-cased).'),
    to: str('The address confirmed and now in use (lower-cased).'),
  },
  ['from', 'to'],
  'The details of an `emailChanged` event: a member\'s new address took effect once it was confirmed.',
);

const PaymentRefundedDetails = object(
  {
    amount: str('The amount refunded, currency-formatted text, e.g. `$12.00`.'),
    chargeId: str('The processor\'s charge id.'),
    invoiceId: str('The processor\'s invoice id (Stripe: the PaymentIntent).'),
    partial: { type: 'string', enum: ['true'], description: 'Present when the invoice was refunded in part: `amount` is what has been refunded of it so far, and the invoice still shows `paid`. One event per refund.' },
    by: schemaRef('Actor'),
  },
  ['amount', 'chargeId', 'invoiceId'],
  'The details of a `paymentRefunded` event: a paid invoice refunded through the site\'s processor; refunded in full, the invoice now shows `refunded`.',
);

const PaymentDisputedDetails = object(
  {
    amount: str('The amount disputed, currency-formatted text.'),
    chargeId: str('The processor\'s charge id.'),
    invoiceId: str('The processor\'s invoice id (Stripe: the PaymentIntent).'),
    disputeId: str('The processor\'s dispute id (Stripe: `dp_…`).'),
    reason: str('Why the bank says the member disputed it, as the processor names it (Stripe: `fraudulent`, `product_not_received`, …).'),
  },
  ['amount', 'chargeId', 'invoiceId', 'disputeId', 'reason'],
  'The details of a `paymentDisputed` event: the member\'s bank disputed a payment (a chargeback). Answer it in the processor\'s dashboard.',
);

const PlanChangedDetails = object(
  {
    membershipId: id('The membership that changed plan (it keeps its id).'),
    fromPlanId: id('The plan it was on.'),
    toPlanId: id('The plan it is on, or will be at its period\'s end.'),
    when: { type: 'string', enum: ['now', 'periodEnd'], description: '`now`: an upgrade, or a change during a trial; `periodEnd`: a downgrade, which the renewal at the period\'s end applies.' },
    invoiceId: str('The processor\'s invoice id of the charge that came with it (an upgrade\'s prorated charge, or the renewal that applied a downgrade).'),
    applied: { type: 'boolean', enum: [true], description: 'Present on the event of the renewal that applied a downgrade asked for earlier.' },
  },
  ['membershipId', 'fromPlanId', 'toPlanId', 'when'],
  'The details of a `planChanged` event (docs/decisions/0036-changing-plans.md): a membership moved to another plan, or will at its period\'s end.',
);

const MemberEvent = {
  ...object(
    {
      id: id(),
      memberId: id(),
      eventType: oneOfValues(MEMBER_EVENT_TYPES),
      details: { type: 'object', description: 'Depends on `eventType`, one schema each: NoDetails (`signup`, `login`, `passwordReset`), ConversionDetails, CancellationDetails, AbandonedConversionDetails, PaymentFailedDetails, EmailChangedDetails, PaymentRefundedDetails, PaymentDisputedDetails, PlanChangedDetails, MembershipCompedDetails, MemberBlockedDetails and OwnerActionDetails (`memberUnblocked`, `memberExported`, `memberErased`). The owner\'s actions carry `by`, an Actor.' },
      createdAt: dateTime(),
    },
    ['id', 'memberId', 'eventType', 'details', 'createdAt'],
  ),
  allOf: [
    {
      if: { properties: { eventType: { enum: ['signup', 'login', 'passwordReset'] } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('NoDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'conversion' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('ConversionDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'cancellation' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('CancellationDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'paymentFailed' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('PaymentFailedDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'abandonedConversion' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('AbandonedConversionDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'emailChanged' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('EmailChangedDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'paymentRefunded' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('PaymentRefundedDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'paymentDisputed' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('PaymentDisputedDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'planChanged' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('PlanChangedDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'membershipComped' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('MembershipCompedDetails') } },
    },
    {
      if: { properties: { eventType: { const: 'memberBlocked' } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('MemberBlockedDetails') } },
    },
    {
      if: { properties: { eventType: { enum: ['memberUnblocked', 'memberExported', 'memberErased'] } }, required: ['eventType'] },
      then: { properties: { details: schemaRef('OwnerActionDetails') } },
    },
  ],
};

const ContentView = object(
  {
    id: id(),
    memberId: id(),
    node: object({ id: id(), name: str(), type: oneOfValues(CONTENT_NODE_TYPES) }, ['id', 'name', 'type'], 'The content item viewed.'),
    spaceNode: object({ id: id(), name: str() }, ['id', 'name'], 'The space holding it.'),
    viewedAt: dateTime(),
  },
  ['id', 'memberId', 'node', 'spaceNode', 'viewedAt'],
  'A member successfully viewing content library content.',
);

// -------------------------------------------------------------------------------------- Errors

const ApiError = object(
  {
    path: str('`base` for errors not tied to one field, else the parameter or header concerned.'),
    code: schemaRef('ErrorCode'),
    message: str('Human-readable.'),
  },
  ['path', 'code', 'message'],
);
const ErrorCodeSchema = oneOfValues(ERROR_CODES, 'Machine-readable; clients branch on it.');
const ErrorBody = object({ errors: { type: 'array', minItems: 1, items: schemaRef('ApiError') } }, ['errors'], 'Every failure answers this body.');

const ApiKey = object(
  {
    id: id('The key\'s id: owner actions\' member events name it (`by.apiKeyId`).'),
    scopes: { type: 'array', items: oneOfValues(SCOPES), description: 'What the key may read and do.' },
    createdAt: dateTime(),
    expiresAt: dateTime('When it stops working; absent: never.'),
  },
  ['id', 'scopes', 'createdAt'],
  'An Admin API key, as GET /key shows the request\'s own (never the key itself).',
);

export const schemas: Record<string, Schema> = {
  Site,
  ApiKey,
  SiteMetrics,
  ...planSchemas,
  Membership,
  Member,
  MemberEvent,
  NoDetails,
  ConversionDetails,
  CancellationDetails,
  PaymentFailedDetails,
  AbandonedConversionDetails,
  EmailChangedDetails,
  PaymentRefundedDetails,
  PaymentDisputedDetails,
  PlanChangedDetails,
  Actor,
  MembershipCompedDetails,
  MemberBlockedDetails,
  OwnerActionDetails,
  ContentView,
  ErrorBody,
  ApiError,
  ErrorCode: ErrorCodeSchema,
};

/** The error body with `code` narrowed to the Admin API codes one status can carry. */
export const errorBodyWith = (codes: readonly ErrorCode[]): Schema => anyErrorBodyWith(codes);
