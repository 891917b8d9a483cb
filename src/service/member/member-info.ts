/** Store records to the widget's MemberInfo (spec 2.7), read fresh for every answer. */
import type { PlanType } from '../../contract/admin';
import { membershipStatus } from '../billing/membership-terms';
import type {
  CustomSignupField,
  MemberInfo,
  Membership,
  SignupFieldDefinition,
  SignupFieldValue,
  WidgetPlanType,
} from '../../contract/member';
import type { MemberRecord, MembershipRecord, PlanRecord, SignupFieldRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { initialsAvatar } from './avatar';
import { pictureUrl } from './pictures/urls';

export const WIDGET_TYPES: Record<PlanType, WidgetPlanType> = {
  free: 'free',
  oneTimePayment: 'one_time_payment',
  multiPayment: 'multi_payment',
  subscription: 'subscription',
};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `now` (ms) decides which memberships have run out: see `toWidgetMembership`. `origin` answers the
 * service's origin as the client reached it, which starts an uploaded picture's URL: asked only
 * for a member who has one (reading it parses the request's URL).
 */
export async function loadMemberInfo(store: Store, site: SiteRecord, member: MemberRecord, now: number, origin: () => string): Promise<MemberInfo> {
  const [memberships, fields, values] = await Promise.all([
    store.listMembershipsOfMember(site.id, member.id),
    store.listSignupFields(site.id),
    store.listSignupValues(site.id, member.id),
  ]);
  // The plans held, and those a downgrade waits for (nextPlanId).
  const planIds = [...new Set(memberships.flatMap((m) => (m.nextPlanId === undefined ? [m.planId] : [m.planId, m.nextPlanId])))];
  const plans = new Map<number, PlanRecord>();
  for (const plan of await Promise.all(planIds.map((id) => store.getPlan(site.id, id)))) {
    if (plan) plans.set(plan.id, plan);
  }
  const valueOf = new Map(values.map((v) => [v.fieldId, v.value]));
  const firstName = member.firstName ?? '';
  const lastName = member.lastName ?? '';
  const name = [firstName, lastName].filter(Boolean).join(' ');
  return {
    id: member.id,
    name,
    firstName,
    lastName,
    email: member.email,
    // The picture the member uploaded, else one the site gave them (an import's), else their initials.
    profileImageUrl: member.pictureHash ? pictureUrl(origin(), member.pictureHash) : (member.profileImageUrl ?? initialsAvatar(name || member.email)),
    memberships: memberships.flatMap((m) => {
      const plan = plans.get(m.planId);
      return plan ? [toWidgetMembership(m, plan, site, now, m.nextPlanId === undefined ? undefined : plans.get(m.nextPlanId))] : [];
    }),
    customSignupFields: fields.map((f) => toCustomField(f, valueOf.get(f.id))),
  };
}


/** `next`: the plan a downgrade waits for (the record's `nextPlanId`), when there is one. */
export function toWidgetMembership(m: MembershipRecord, plan: PlanRecord, site: SiteRecord, now: number, next?: PlanRecord): Membership {
  const home = `https://${site.domain}/`;
  const status = membershipStatus(m, now);
  // Spec 2.7: when the next charge is due, so only while one is: not once a subscription is
  // cancelled at its period's end (cancelsOn says when it ends), nor on a membership that ended.
  const chargeDue = (m.type === 'subscription' && m.cancelsAt === undefined) || m.type === 'multiPayment';
  return {
    id: m.id,
    planId: m.planId,
    publicPlanId: m.planPublicId,
    name: plan.name,
    type: WIDGET_TYPES[m.type],
    createdAt: iso(m.createdAt),
    status,
    ...(m.expiresAt !== undefined && m.type !== 'subscription' && { expiresOn: iso(m.expiresAt) }),
    ...(m.cancelsAt !== undefined && m.type === 'subscription' && { cancelsOn: iso(m.cancelsAt) }),
    ...(m.billingPeriodEnd !== undefined && chargeDue && status === 'active' && { billingPeriodEnd: iso(m.billingPeriodEnd) }),
    ...(next && status === 'active' && { nextPlanId: next.id, nextPlanName: next.name }),
    paymentFailure: m.paymentFailure,
    welcomeUrl: plan.welcomeUrl ?? home,
    contentUrl: plan.contentUrl ?? home,
  };
}

/** A field the member never filled in holds its type's empty value. */
function toCustomField(field: SignupFieldRecord, value: SignupFieldValue | undefined): CustomSignupField {
  const { id, required } = field;
  switch (field.type) {
    case 'text':
    case 'textarea':
      return { id, type: field.type, required, value: typeof value === 'string' ? value : '' };
    case 'select':
      return { id, type: field.type, required, value: typeof value === 'string' ? value : '', options: field.options ?? [] };
    case 'multiple-select':
      return { id, type: field.type, required, value: Array.isArray(value) ? value : [], options: field.options ?? [] };
    case 'checkbox':
      return { id, type: field.type, required, value: value === true };
  }
}

export function toFieldDefinition(field: SignupFieldRecord): SignupFieldDefinition {
  return {
    id: field.id,
    type: field.type,
    label: field.label,
    required: field.required,
    ...(field.options && { options: field.options }),
  };
}
