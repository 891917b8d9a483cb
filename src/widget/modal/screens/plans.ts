import type { PlanOffer } from '../../../contract/member';
import { price, terms } from '../format';
import { richText } from '../rich-text';
import { render, type ScreenContext } from '../screen';
import { el } from '../ui';
import { haveAccount, planChoice } from './menu-links';

/**
 * Every public plan (GET /plans), each with a button to its sign-up, logged in or not (a visitor
 * makes the account on the plan's screen, ./plan-signup.ts). A site with none says so,
 * unless `none` is given: then that runs instead (after registration, open.ts).
 */
export async function plansScreen(ctx: ScreenContext, none?: () => void): Promise<void> {
  const { doc, t, config } = ctx;
  const offers = await ctx.host.call<PlanOffer[]>('GET', '/plans');
  if (!offers.length && none) return none();
  const mine = new Set(ctx.host.member()?.memberships.filter((m) => m.status === 'active').map((m) => m.publicPlanId));
  const items = offers.map((offer) =>
    el(
      doc,
      'li',
      {},
      el(doc, 'h3', {}, offer.name),
      mine.has(offer.publicId) ? el(doc, 'p', { class: 'badge ok' }, t.yourPlan) : null,
      el(doc, 'p', { class: 'price' }, price(offer, t, config.locale)),
      ...terms(offer, t, config.locale).map((line) => el(doc, 'p', { class: 'terms' }, line)),
      offer.description ? el(doc, 'div', { class: 'rich' }, richText(doc, offer.description)) : null,
      // The member's own plan is marked, with nothing to buy it again.
      mine.has(offer.publicId) ? null : planChoice(ctx, offer, plansScreen),
    ),
  );
  // A visitor chooses first; one with an account logs in, then sees which plans are theirs.
  render(ctx, t.plans, items.length ? el(doc, 'ul', { class: 'plans cards' }, ...items) : el(doc, 'p', {}, t.noPlans), ctx.host.member() ? null : haveAccount(ctx, (c) => plansScreen(c)));
}
