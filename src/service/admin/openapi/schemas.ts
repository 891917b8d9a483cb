/**
 * Component schemas of the Admin API resources: one per wire type of src/contract/admin.ts,
 * field for field. Resource objects are closed (`additionalProperties: false`), so a field the
 * contract does not name fails validation, and no type admits `null`: absent values are omitted.
 */
import {
  CONTENT_NODE_TYPES,
  INTERVAL_UNITS,
  MEMBER_EVENT_TYPES,
  MEMBER_STATUSES,
  MEMBERSHIP_STATUSES,
  PLAN_STATUSES,
  PLAN_TYPES,
  type ErrorCode,
  type PlanType,
} from '../../../contract/admin';

/** A JSON Schema (2020-12) object, as OpenAPI 3.1 embeds it. */
export type Schema = { [keyword: string]: unknown };

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
] as const satisfies readonly ErrorCode[];
type MissingErrorCode = Exclude<ErrorCode, (typeof ERROR_CODES)[number]>;
const everyErrorCodeListed: [MissingErrorCode] extends [never] ? true : MissingErrorCode = true;
void everyErrorCodeListed;

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** A closed object: `required` lists the fields that are always present, every other one is optional. */
export function object(properties: Record<string, Schema>, required: readonly string[], description?: string): Schema {
  return {
    type: 'object',
    ...(description !== undefined && { description }),
    properties,
    required: [...required],
    additionalProperties: false,
  };
}

const described = (schema: Schema, description: string): Schema => ({ ...schema, description });
const str = (description?: string): Schema => (description === undefined ? { type: 'string' } : { type: 'string', description });
const id = (description = 'Unique id, a positive integer.'): Schema => ({ type: 'integer', minimum: 1, description });
const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
const money = (description: string): Schema => ({ type: 'number', minimum: 0, description });
const oneOfValues = (values: readonly string[], description?: string): Schema => ({
  type: 'string',
  enum: [...values],
  ...(description !== undefined && { description }),
});
export const dateTime = (description?: string): Schema => ({
  type: 'string',
  format: 'date-time',
  ...(description !== undefined && { description }),
});
const currency: Schema = { type: 'string', pattern: '^[a-z]{3}$', description: 'ISO 4217 code, lowercase, e.g. `usd`.' };

/** A oneOf whose branches are told apart by one string property, as OpenAPI's discriminator states it. */
function taggedUnion(propertyName: string, mapping: Record<string, string>, description: string): Schema {
  return {
    description,
    oneOf: Object.values(mapping).map(schemaRef),
    discriminator: {
      propertyName,
      mapping: Object.fromEntries(Object.entries(mapping).map(([tag, name]) => [tag, `#/components/schemas/${name}`])),
    },
  };
}

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

// ---------------------------------------------------------------------------------------- Plan

const Interval = object(
  {
    count: { type: 'integer', minimum: 1, maximum: 1000, description: 'The number part, e.g. 3 of "every 3 months".' },
    unit: oneOfValues(INTERVAL_UNITS),
  },
  ['count', 'unit'],
);

const PlanExpirationNone = object({ mode: { const: 'none' } }, ['mode'], 'Access never expires.');
const PlanExpirationInterval = object(
  {
    mode: { const: 'interval' },
    count: { type: 'integer', minimum: 1, maximum: 1000 },
    unit: oneOfValues(INTERVAL_UNITS),
  },
  ['mode', 'count', 'unit'],
  'Access ends this long after the membership starts.',
);
const PlanExpirationSpecificTime = object(
  { mode: { const: 'specificTime' }, expiresAt: dateTime() },
  ['mode', 'expiresAt'],
  'Access ends at one moment for everyone.',
);
const PlanExpiration = taggedUnion(
  'mode',
  { none: 'PlanExpirationNone', interval: 'PlanExpirationInterval', specificTime: 'PlanExpirationSpecificTime' },
  'When access from the plan ends.',
);

const taxFields: Record<string, Schema> = {
  taxPercentage: { type: 'number', minimum: 0, maximum: 100 },
  taxDescription: str('Rich text shown during sign-up; only present together with `taxPercentage`.'),
};
const recurringFields: Record<string, Schema> = {
  interval: schemaRef('Interval'),
  trialPeriodDays: { type: 'integer', minimum: 1, maximum: 730, description: 'Trial length in days; never together with `signupFee`.' },
  signupFee: money('One-time fee at sign-up; never together with `trialPeriodDays`.'),
};
/** The cross-field rules every paid billing object keeps. */
const taxRule: Schema = { dependentRequired: { taxDescription: ['taxPercentage'] } };
const trialOrFeeRule: Schema = { not: { required: ['trialPeriodDays', 'signupFee'] } };

const priceFields: Record<string, Schema> = { price: money('In the plan currency.'), currency };

const OneTimePaymentBilling = {
  ...object({ ...priceFields, ...taxFields }, ['price', 'currency']),
  ...taxRule,
};
const MultiPaymentBilling = {
  ...object(
    {
      ...priceFields,
      ...recurringFields,
      paymentCountRequired: { type: 'integer', minimum: 2, maximum: 1000, description: 'Payments before the plan is paid off.' },
      ...taxFields,
    },
    ['price', 'currency', 'interval', 'paymentCountRequired'],
  ),
  ...taxRule,
  ...trialOrFeeRule,
};
const BillingDate = object(
  {
    day: { type: 'integer', minimum: 1, maximum: 31 },
    month: { type: 'integer', minimum: 1, maximum: 12, description: 'Only on yearly plans.' },
  },
  ['day'],
  'A fixed billing date: `day` alone for monthly plans, `day` and `month` for yearly ones.',
);
const SubscriptionBilling = {
  ...object(
    { ...priceFields, ...recurringFields, billingDate: schemaRef('BillingDate'), ...taxFields },
    ['price', 'currency', 'interval'],
  ),
  ...taxRule,
  ...trialOrFeeRule,
};

const planCommonFields: Record<string, Schema> = {
  id: id('Unique plan id.'),
  publicId: str('Unique public plan id.'),
  name: str(),
  description: str('Rich text shown during sign-up.'),
  status: oneOfValues(PLAN_STATUSES),
  isPublic: { type: 'boolean', description: 'Whether the plan is publicly listed.' },
  activeMemberCount: count('Distinct members with an active membership on the plan.'),
  colorCode: { type: 'string', pattern: '^#[0-9a-f]{6}$', description: '`#rrggbb`, assigned at creation.' },
  contentUrl: str('Where members go for content after login.'),
  welcomeUrl: str('Where members go after sign-up.'),
  createdAt: dateTime(),
};
const planCommonRequired = ['id', 'publicId', 'name', 'status', 'isPublic', 'activeMemberCount', 'colorCode', 'createdAt', 'type'];

/** One branch of Plan: the common fields, its `type`, and the parts 2.2 gives that type. */
function planVariant(type: PlanType, parts: { expiration?: true; billing?: string }): Schema {
  const properties: Record<string, Schema> = { ...planCommonFields, type: { const: type } };
  const required = [...planCommonRequired];
  if (parts.expiration) {
    properties.expiration = schemaRef('PlanExpiration');
    required.push('expiration');
  }
  if (parts.billing) {
    properties.billing = schemaRef(parts.billing);
    required.push('billing');
  }
  return object(properties, required, `A plan of type \`${type}\`.`);
}

const planVariants: Record<PlanType, string> = {
  free: 'FreePlan',
  oneTimePayment: 'OneTimePaymentPlan',
  multiPayment: 'MultiPaymentPlan',
  subscription: 'SubscriptionPlan',
};
const Plan = taggedUnion('type', planVariants, `A plan; \`type\` (${PLAN_TYPES.join(', ')}) selects its extra fields.`);

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

const AbandonedConversionDetails = object(
  {
    amount: str('Currency-formatted text, e.g. `$12.00`.'),
    chargeId: str(),
    invoiceId: str(),
  },
  ['amount', 'chargeId', 'invoiceId'],
  'The details of an `abandonedConversion` event.',
);

const MemberEvent = {
  ...object(
    {
      id: id(),
      memberId: id(),
      eventType: oneOfValues(MEMBER_EVENT_TYPES),
      details: { type: 'object', description: 'Depends on `eventType`; see AbandonedConversionDetails.' },
      createdAt: dateTime(),
    },
    ['id', 'memberId', 'eventType', 'details', 'createdAt'],
  ),
  if: { properties: { eventType: { const: 'abandonedConversion' } }, required: ['eventType'] },
  then: { properties: { details: schemaRef('AbandonedConversionDetails') } },
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

export const schemas: Record<string, Schema> = {
  Site,
  SiteMetrics,
  Plan,
  FreePlan: planVariant('free', { expiration: true }),
  OneTimePaymentPlan: planVariant('oneTimePayment', { expiration: true, billing: 'OneTimePaymentBilling' }),
  MultiPaymentPlan: planVariant('multiPayment', { expiration: true, billing: 'MultiPaymentBilling' }),
  SubscriptionPlan: planVariant('subscription', { billing: 'SubscriptionBilling' }),
  PlanExpiration,
  PlanExpirationNone,
  PlanExpirationInterval,
  PlanExpirationSpecificTime,
  Interval,
  OneTimePaymentBilling,
  MultiPaymentBilling,
  SubscriptionBilling,
  BillingDate,
  Membership,
  Member,
  MemberEvent,
  AbandonedConversionDetails,
  ContentView,
  ErrorBody,
  ApiError,
  ErrorCode: ErrorCodeSchema,
};

/** The error body with `code` narrowed to the codes one status can carry. */
export function errorBodyWith(codes: readonly ErrorCode[]): Schema {
  return {
    allOf: [
      schemaRef('ErrorBody'),
      { properties: { errors: { items: { properties: { code: { enum: [...codes] } } } } } },
    ],
  };
}
