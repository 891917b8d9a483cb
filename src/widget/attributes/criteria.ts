import type { MemberInfo, Membership } from '../public-types';

/** Whether a criterion matches a member; `null` is nobody logged in. */
export type Criterion = (member: MemberInfo | null) => boolean;

/**
 * Only an `active` membership counts: `cancelled` and `expired` ones are history. The service
 * reports a membership past its expiry date as `expired` (docs/decisions/0012).
 */
const counted = (member: MemberInfo | null, test: (membership: Membership) => boolean): boolean =>
  !!member && member.memberships.some((membership) => membership.status === 'active' && test(membership));

const KEYWORDS = new Map<string, Criterion>([
  ['auth', (member) => !!member],
  ['free', (member) => counted(member, (m) => m.type === 'free')],
  ['paid', (member) => counted(member, (m) => m.type !== 'free')],
]);

/** `plan(n)` names a plan by the id at the end of its sign-up link, or by its numeric id. */
const planCriterion = (ids: string[]): Criterion => (member) =>
  counted(member, (m) => ids.includes(m.publicPlanId) || ids.includes(String(m.planId)));

const parsed = new Map<string, Criterion | null>();

/**
 * `auth`, `free`, `paid`, `plan(n)`, `plan(n,m,…)`, spaces allowed anywhere between the parts
 * and case ignored in the keyword. Anything else is `null`: the caller warns.
 */
export function parseCriterion(text: string): Criterion | null {
  let criterion = parsed.get(text);
  if (criterion !== undefined) return criterion;
  const source = text.trim();
  const plans = /^plan\s*\(([^()]*)\)$/i.exec(source);
  // Plan ids keep their case: public ids are case-sensitive.
  const ids = plans ? plans[1]!.split(',').map((id) => id.trim()) : [];
  criterion = plans ? (ids.every(Boolean) ? planCriterion(ids) : null) : (KEYWORDS.get(source.toLowerCase()) ?? null);
  parsed.set(text, criterion);
  return criterion;
}
