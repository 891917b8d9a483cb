import type { Membership, PlanChangeQuote, PlanOffer } from '../../../contract/member';
import type { ServiceError } from '../../public-types';
import { date, money, perInterval } from '../format';
import { render, type ScreenContext } from '../screen';
import { el } from '../ui';
import { actionForm } from './form';

/**
 * "Change plan" (docs/decisions/0036-changing-plans.md): a member holding the running
 * subscription `held` chose the subscription `offer`. The screen says what changes, what is due
 * now (less the unused days' credit) or that the change waits for the period's end, and what is
 * charged from then; one button makes it (POST /memberships/{id}/change, on the saved card).
 * Answers false, drawing nothing, where the rules refuse the change (another currency, say): the
 * plan's screen then signs up to it beside what the member holds, as before.
 */
export async function changePlanScreen(ctx: ScreenContext, offer: PlanOffer, held: Membership): Promise<boolean> {
  const { doc, t, config, host } = ctx;
  const { locale } = config;
  ctx.dialog._addStyle('p+.summary{margin-top:1rem}');
  const path = `/memberships/${held.id}/change`;
  const quote = await host.call<PlanChangeQuote>('GET', `${path}?plan=${encodeURIComponent(offer.publicId)}`).catch((error: ServiceError) => {
    if (error.code !== 'notChangeable') throw error;
  });
  if (!quote) return false;
  const when = date(quote.next.at, locale);
  const now = quote.when === 'now';
  const summary = el(doc, 'div', { class: 'summary' },
    now ? el(doc, 'p', { class: 'row due' }, el(doc, 'span', {}, `${t.dueNow}: `), money(quote.dueNow.grandTotalCents, quote.currency, locale)) : el(doc, 'p', {}, t.changesOn(when)),
    quote.creditCents ? el(doc, 'p', { class: 'muted' }, t.credit(money(quote.creditCents, quote.currency, locale))) : null,
    el(doc, 'p', { class: 'muted' }, t.then(perInterval(offer, t, locale, true), when)));
  const form = actionForm(ctx, t.changePlan, [], async () => {
    await host.call<Membership>('POST', path, { plan: offer.publicId });
    await host.refresh();
    const done = el(doc, 'button', { type: 'button', class: 'primary' }, t.carryOn);
    done.onclick = ctx.close;
    render(ctx, offer.name, el(doc, 'p', { class: 'notice', role: 'status' }, now ? t.planNow(offer.name) : t.planLater(offer.name, when)), done);
  });
  render(ctx, t.changePlan, el(doc, 'p', {}, t.changeFrom(held.name, offer.name)), summary, form);
  return true;
}
