/** The Plan schemas: a oneOf by `type`, with the PlanExpiration and billing parts of spec 2.2. */
import { INTERVAL_UNITS, PLAN_STATUSES, PLAN_TYPES, type PlanType } from '../../../contract/admin';
import { count, currency, dateTime, id, money, object, oneOfValues, schemaRef, str, taggedUnion, type Schema } from '../../openapi/schema-helpers';


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

export const planSchemas: Record<string, Schema> = {
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
};
