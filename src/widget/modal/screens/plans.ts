import type { MembershipPrice, PlanOffer } from '../../../contract/member';
import { perInterval, price, terms } from '../format';
import { richText } from '../rich-text';
import { render, type ScreenContext } from '../screen';
import { el } from '../ui';
import { haveAccount, planChoice } from './menu-links';

/**
 * The plans' grid (side by side where there is room, stacked on a phone; the dialog widens for
 * two or more), the recommended one outlined, what each includes ticked, and the switch between
 * monthly and yearly prices: drawn by this screen alone (Dialog._addStyle).
 */
const PLANS_STYLE =
  '.plans{display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:.75rem}.plans>li{display:flex;flex-direction:column;margin:0}.plans button{margin-top:auto}' +
  '@media (min-width:480px){dialog:has(.plans>li+li){width:min(56rem,calc(100vw - 1rem))}}' +
  '.plans+p{margin-top:1rem}.plans>[hidden]{display:none}.plans>.top{border:2px solid var(--a)}.includes li:before{content:"✓ "/"";color:var(--g)}' +
  '.switch{display:flex;justify-content:center;margin:1rem 0;padding:0;border:0}.switch label{padding:.5rem 1rem;border:1px solid var(--l);cursor:pointer}' +
  '.switch label:first-of-type{border-radius:calc(var(--r)/2) 0 0 calc(var(--r)/2)}.switch label:last-of-type{border-radius:0 calc(var(--r)/2) calc(var(--r)/2) 0}' +
  '.switch label:has(:checked){background:var(--a);color:var(--on-a,#fff);border-color:var(--a)}.switch label:has(:focus-visible){outline:2px solid var(--link,var(--a));outline-offset:2px}' +
  '.switch input{position:absolute;opacity:0}';

type Period = 'month' | 'year';

/** A subscription billed every month or every year: what the switch chooses between. */
const periodOf = (offer: PlanOffer): Period | undefined => {
  const every = offer.type === 'subscription' ? offer.recurring?.interval : undefined;
  return every?.count === 1 && (every.unit === 'month' || every.unit === 'year') ? every.unit : undefined;
};

/**
 * Every public plan (GET /plans), each with a button to its sign-up, logged in or not (a visitor
 * makes the account on the plan's screen, ./plan-signup.ts). A site with none says so,
 * unless `none` is given: then that runs instead (after registration, open.ts).
 *
 * Where the site sells subscriptions both monthly and yearly, a switch shows one period's at a
 * time (with the plans that are neither), as Ghost's and Memberstack's pricing tables do: the
 * yearly ones first when the plan the owner recommends is yearly, else the monthly ones.
 */
export async function plansScreen(ctx: ScreenContext, none?: () => void): Promise<void> {
  const { doc, t, config } = ctx;
  const offers = await ctx.host.call<PlanOffer[]>('GET', '/plans');
  if (!offers.length && none) return none();
  ctx.dialog._addStyle(PLANS_STYLE);
  const held = ctx.host.member()?.memberships.filter((m) => m.status === 'active') ?? [];
  const mine = new Set(held.map((m) => m.publicPlanId));
  // A plan the member holds at the price they joined at (an owner may have changed it since):
  // that price, as GET /memberships says it, not the one offered to newcomers.
  const paying = held.length ? await ctx.host.call<MembershipPrice[]>('GET', '/memberships').catch(() => []) : [];
  const theirs = (offer: PlanOffer) => {
    const id = held.find((m) => m.publicPlanId === offer.publicId)?.id;
    const price = paying.find((p) => p.id === id);
    // Before tax, as the offer's own price is (its terms say the tax).
    return price && perInterval(price, t, config.locale);
  };
  const items = offers.map((offer) =>
    el(
      doc,
      'li',
      offer.highlight ? { class: 'top' } : {},
      offer.highlight ? el(doc, 'p', { class: 'badge' }, t.recommended) : null,
      el(doc, 'h3', {}, offer.name),
      mine.has(offer.publicId) ? el(doc, 'p', { class: 'badge ok' }, t.yourPlan) : null,
      el(doc, 'p', { class: 'price' }, theirs(offer) || price(offer, t, config.locale)),
      ...terms(offer, t, config.locale).map((line) => el(doc, 'p', { class: 'terms' }, line)),
      offer.features ? el(doc, 'ul', { class: 'includes' }, ...offer.features.map((line) => el(doc, 'li', {}, line))) : null,
      offer.description ? el(doc, 'div', { class: 'rich' }, richText(doc, offer.description)) : null,
      // The member's own plan is marked, with nothing to buy it again.
      mine.has(offer.publicId) ? null : planChoice(ctx, offer, plansScreen),
    ),
  );
  const periods = offers.map(periodOf);
  const show = (period: Period) => items.forEach((item, i) => void (item.hidden = !!periods[i] && periods[i] !== period));
  let toggle: HTMLElement | null = null;
  if (periods.includes('month') && periods.includes('year')) {
    const first: Period = periods[offers.findIndex((offer) => offer.highlight)] === 'year' ? 'year' : 'month';
    const option = (period: Period, label: string) => {
      const radio = el(doc, 'input', { type: 'radio', name: 'period', value: period });
      radio.checked = period === first;
      radio.addEventListener('change', () => show(period));
      return el(doc, 'label', {}, radio, label);
    };
    toggle = el(doc, 'fieldset', { class: 'switch', 'aria-label': t.billing }, option('month', t.monthly), option('year', t.yearly));
    show(first);
  }
  // A visitor chooses first; one with an account logs in, then sees which plans are theirs.
  render(ctx, t.plans, toggle, items.length ? el(doc, 'ul', { class: 'plans cards' }, ...items) : el(doc, 'p', {}, t.noPlans), ctx.host.member() ? null : haveAccount(ctx, (c) => plansScreen(c)));
  // The switch's tab stop is its chosen period (a radio group's), not the first of the two.
  toggle?.querySelector<HTMLInputElement>(':checked')?.focus();
}
