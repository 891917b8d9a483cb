/** Defining a plan: validate the owner's definition, then assign public id, colour and time. */
import { PLAN_STATUSES } from '../../contract/admin';
import { ConflictError } from '../store/errors';
import type { NewPlan, PlanRecord } from '../store/records';
import type { Store } from '../store/store';
import type { Clock } from './clock';
import { planDefinitionSchema, type PlanDefinition } from './plan-schema';
import { randomId } from './random';
import { sanitizeRichText } from './rich-text';
import { parseOrThrow } from './validation';

/** Colours handed out in turn, so neighbouring plans are told apart at a glance. */
export const PLAN_COLORS = ['#4f46e5', '#0891b2', '#16a34a', '#ca8a04', '#dc2626', '#9333ea', '#db2777', '#475569'];

export async function definePlan(
  store: Store,
  clock: Clock,
  siteId: number,
  definition: PlanDefinition,
): Promise<PlanRecord> {
  const plan = withSanitizedRichText(parseOrThrow(planDefinitionSchema, definition));
  const existing = await store.countPlans(siteId, { statuses: PLAN_STATUSES });
  for (let attempt = 0; ; attempt++) {
    try {
      return await store.createPlan({
        ...plan,
        siteId,
        publicId: publicPlanId(),
        colorCode: PLAN_COLORS[existing % PLAN_COLORS.length]!,
        createdAt: clock(),
      } as NewPlan);
    } catch (error) {
      // A public id collision is one in 10^14; try a fresh one rather than fail the owner.
      if (!(error instanceof ConflictError && error.field === 'publicId') || attempt === 3) throw error;
    }
  }
}

/**
 * Never all digits: the widget's `plan(n)` criterion takes a public id or a numeric plan id,
 * and the two must not be mistaken for each other.
 */
export function publicPlanId(): string {
  const id = randomId(8);
  return /^\d+$/.test(id) ? publicPlanId() : id;
}

/** The plan with its rich-text fields cut to the allowlist; a field left empty by that is dropped. */
export function withSanitizedRichText<P extends { description?: string; billing?: { taxDescription?: string } }>(plan: P): P {
  const { description, ...rest } = plan;
  const cleanDescription = sanitizeRichText(description);
  const result = { ...rest, ...(cleanDescription !== undefined && { description: cleanDescription }) } as P;
  if (plan.billing) {
    const { taxDescription, ...billing } = plan.billing;
    const cleanTax = sanitizeRichText(taxDescription);
    result.billing = { ...billing, ...(cleanTax !== undefined && { taxDescription: cleanTax }) };
  }
  return result;
}
