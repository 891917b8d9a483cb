/**
 * The rules of 2.2 for a plan a site owner defines: which fields each type takes, the
 * PlanExpiration modes, and the cross-field rules (trial xor sign-up fee, tax description only
 * with a tax percentage, a fixed billing date only on monthly or yearly subscriptions, its
 * `month` only for yearly ones and never a day the month does not have).
 */
import { z } from 'zod';
import { INTERVAL_UNITS, PLAN_STATUSES, type PlanStatus } from '../../contract/admin';
import { isoCurrency } from './currency';
import { multiLineText, nameText, oneLineText } from './text-schema';
import { siteAddress } from './validation';

const positiveInt = z.number().int().positive();
const money = z.number().finite().nonnegative();
const isoDateTime = z.iso.datetime({ offset: true }).transform((s) => new Date(s).toISOString());

const interval = z.strictObject({ count: positiveInt.max(1000), unit: z.enum(INTERVAL_UNITS) });

export const planExpirationSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('none') }),
  z.strictObject({ mode: z.literal('interval'), count: positiveInt.max(1000), unit: z.enum(INTERVAL_UNITS) }),
  z.strictObject({ mode: z.literal('specificTime'), expiresAt: isoDateTime }),
]);

const currency = isoCurrency;

const tax = {
  taxPercentage: z.number().finite().min(0).max(100).optional(),
  /** Rich text: line breaks kept, no other control character. */
  taxDescription: multiLineText(5000).optional(),
};
const recurring = {
  interval,
  trialPeriodDays: positiveInt.max(730).optional(),
  signupFee: money.optional(),
};

type Ctx = z.core.$RefinementCtx;

/**
 * Zod skips an object's refinements once any of its fields is wrong, so a plan with a bad price
 * and a trial beside a sign-up fee was said to have the price wrong, and the trial only after the
 * price was mended. A cross-field rule here runs whenever the fields it reads are right
 * themselves, so one apply names every problem (issue 27).
 */
export const whenRight = (...fields: string[]): z.core.$ZodCustomParams => ({
  when: (payload) =>
    typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value)
    && !payload.issues.some((issue) => issue.path === undefined || issue.path.length === 0 ? issue.code === 'invalid_type' : fields.includes(String(issue.path[0]))),
});
const TAX_FIELDS = ['taxPercentage', 'taxDescription'];
const TRIAL_OR_FEE_FIELDS = ['trialPeriodDays', 'signupFee'];
const BILLING_DATE_FIELDS = ['interval', 'billingDate'];

function taxRule(b: { taxPercentage?: number; taxDescription?: string }, ctx: Ctx) {
  if (b.taxDescription !== undefined && b.taxPercentage === undefined) {
    ctx.addIssue({ code: 'custom', path: ['taxDescription'], message: 'is allowed only together with taxPercentage' });
  }
}
function trialOrFeeRule(b: { trialPeriodDays?: number; signupFee?: number }, ctx: Ctx) {
  if (b.trialPeriodDays !== undefined && b.signupFee !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['signupFee'], message: 'cannot be combined with trialPeriodDays' });
  }
}

/** Days in a month of a leap year: a yearly billing date of 29 February is allowed. */
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function billingDateRule(
  b: { interval: { unit: string }; billingDate?: { day: number; month?: number } },
  ctx: Ctx,
) {
  const date = b.billingDate;
  if (!date) return;
  if (b.interval.unit === 'month') {
    if (date.month !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['billingDate', 'month'], message: 'is only for yearly plans' });
    }
  } else if (b.interval.unit === 'year') {
    if (date.month === undefined) {
      ctx.addIssue({ code: 'custom', path: ['billingDate', 'month'], message: 'is required for yearly plans' });
    } else if (date.day > DAYS_IN_MONTH[date.month - 1]!) {
      ctx.addIssue({ code: 'custom', path: ['billingDate', 'day'], message: `month ${date.month} has no day ${date.day}` });
    }
  } else {
    ctx.addIssue({ code: 'custom', path: ['billingDate'], message: 'needs a monthly or yearly interval' });
  }
}

/**
 * An address a member is sent to: an http(s) URL, or a path on the site (`/welcome`), which the
 * widget resolves against the page, as it does every address it follows.
 */
export const webAddress = z
  .string()
  .max(2000)
  .refine((text) => siteAddress(text) !== undefined, 'must be an http(s) address or a path on the site (/…)')
  .transform((text) => siteAddress(text)!);

interface SchemaOptions<Extra extends z.core.$ZodShape> {
  /** The currency schema of `billing.currency` (optional in a site file: the site's currency). */
  currency: z.ZodType<string | undefined, string | undefined>;
  /** The statuses an owner may write. */
  status: readonly [string, ...string[]];
  /** Fields every plan entry has besides the plan's own (the site file's `key`). */
  extra: Extra;
}

function planSchemaWith<Extra extends z.core.$ZodShape>(options: SchemaOptions<Extra>) {
  const { currency } = options;
  const oneTimeBilling = z.strictObject({ price: money, currency, ...tax }).superRefine(taxRule, whenRight(...TAX_FIELDS));
  const multiPaymentBilling = z
    .strictObject({ price: money, currency, ...tax, ...recurring, paymentCountRequired: z.number().int().min(2).max(1000) })
    .superRefine(taxRule, whenRight(...TAX_FIELDS))
    .superRefine(trialOrFeeRule, whenRight(...TRIAL_OR_FEE_FIELDS));
  const subscriptionBilling = z
    .strictObject({
      price: money,
      currency,
      ...tax,
      ...recurring,
      billingDate: z.strictObject({ day: z.number().int().min(1).max(31), month: z.number().int().min(1).max(12).optional() }).optional(),
    })
    .superRefine(taxRule, whenRight(...TAX_FIELDS))
    .superRefine(trialOrFeeRule, whenRight(...TRIAL_OR_FEE_FIELDS))
    .superRefine(billingDateRule, whenRight(...BILLING_DATE_FIELDS));
  const common = {
    ...options.extra,
    name: oneLineText(200),
    /** Rich text: line breaks kept, no other control character. */
    description: multiLineText(20_000, 0).optional(),
    status: z.enum(options.status as [PlanStatus, ...PlanStatus[]]).default('enabled'),
    isPublic: z.boolean().default(true),
    contentUrl: webAddress.optional(),
    welcomeUrl: webAddress.optional(),
    /** The plan the owner recommends: it stands out among the plans the widget lists. */
    highlight: z.boolean().optional(),
    /** What the plan includes, a short line each (plain text), listed under its price. */
    features: z.array(nameText(120)).min(1).max(12).optional(),
  };
  // Access that never ends is what an owner means by leaving `expiration` out.
  const expiration = planExpirationSchema.default({ mode: 'none' });
  return z.discriminatedUnion('type', [
    z.strictObject({ ...common, type: z.literal('free'), expiration }),
    z.strictObject({ ...common, type: z.literal('oneTimePayment'), expiration, billing: oneTimeBilling }),
    z.strictObject({ ...common, type: z.literal('multiPayment'), expiration, billing: multiPaymentBilling }),
    z.strictObject({ ...common, type: z.literal('subscription'), billing: subscriptionBilling }),
  ]);
}

/** What a site owner supplies to define a plan. `publicId`, `colorCode` and `createdAt` are assigned. */
export const planDefinitionSchema = planSchemaWith({ currency, status: PLAN_STATUSES, extra: {} });

export type PlanDefinition = z.input<typeof planDefinitionSchema>;

/** An owner's stable name for a plan, field or content item: what the site file refers to it by. */
export const OWNER_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const ownerKey = z
  .string()
  .regex(OWNER_KEY, 'must be 1-64 letters, digits, dots, hyphens or underscores, starting with a letter or digit');

/**
 * A plan in a site file: the plan's fields under the owner's `key`. The currency may be left to
 * the site's. Every status of 2.2 may be written; leaving a plan out of the file archives it
 * (or deletes it when nobody ever held it: site-file/changes.ts).
 */
export const planEntrySchema = planSchemaWith({ currency: currency.optional(), status: PLAN_STATUSES, extra: { key: ownerKey } });
export type PlanEntry = z.output<typeof planEntrySchema>;
